package dev.clickhousetcp.spring.autoconfigure;

import java.util.List;

import dev.clickhousetcp.client.ClickHouseUrl;
import dev.clickhousetcp.client.Endpoint;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.util.StringUtils;

/**
 * {@link ClickHouseTcpConnectionDetails} read from {@link ClickHouseTcpProperties}: the default when the
 * application defines no other {@code ClickHouseTcpConnectionDetails} bean.
 *
 * <p>Explicit properties win over the parts of {@code clickhouse.tcp.url}: {@code endpoints} replace
 * every host; {@code host} replaces the URL's hosts with one; {@code port} replaces the port of every URL
 * host; {@code username}, {@code password} and {@code database} replace the URL's. Hosts without a port
 * get 9440 when TLS is on, else 9000. Reads the properties on every call; thread-safe once the context
 * has started. {@link #toString()} never shows the password.
 */
final class PropertiesClickHouseTcpConnectionDetails implements ClickHouseTcpConnectionDetails {

    static final int DEFAULT_PORT = ClickHouseUrl.DEFAULT_PORT;

    static final int DEFAULT_SECURE_PORT = ClickHouseUrl.DEFAULT_SECURE_PORT;

    private final ClickHouseTcpProperties properties;

    private final @Nullable SslBundles sslBundles;

    PropertiesClickHouseTcpConnectionDetails(ClickHouseTcpProperties properties, @Nullable SslBundles sslBundles) {
        this.properties = properties;
        this.sslBundles = sslBundles;
    }

    @Override
    public List<Node> getNodes() {
        ClickHouseUrl url = this.properties.parsedUrl();
        int defaultPort = defaultPort(url);
        if (!this.properties.getEndpoints().isEmpty()) {
            return this.properties.getEndpoints()
                .stream()
                .map((text) -> Endpoint.parse(text, defaultPort))
                .map((endpoint) -> new Node(endpoint.host(), endpoint.port()))
                .toList();
        }
        Integer port = this.properties.getPort();
        if (this.properties.getHost() != null || url == null || url.hosts().isEmpty()) {
            String host = (this.properties.getHost() != null) ? this.properties.getHost() : "localhost";
            return List.of(new Node(host, (port != null) ? port : defaultPort));
        }
        return url.endpoints(defaultPort)
            .stream()
            .map((endpoint) -> new Node(endpoint.host(), (port != null) ? port : endpoint.port()))
            .toList();
    }

    private int defaultPort(@Nullable ClickHouseUrl url) {
        Integer port = this.properties.getPort();
        if (port != null) {
            return port;
        }
        return this.properties.getSsl().isEnabled(url) ? DEFAULT_SECURE_PORT : DEFAULT_PORT;
    }

    @Override
    public String getUsername() {
        return first(this.properties.getUsername(), (url) -> url.user().orElse(null), "default");
    }

    @Override
    public @Nullable String getPassword() {
        return first(this.properties.getPassword(), (url) -> url.password().orElse(null), null);
    }

    @Override
    public String getDatabase() {
        return first(this.properties.getDatabase(), (url) -> url.database().orElse(null), "default");
    }

    @Override
    public @Nullable SslBundle getSslBundle() {
        ClickHouseTcpProperties.Ssl ssl = this.properties.getSsl();
        if (!ssl.isEnabled(this.properties.parsedUrl())) {
            return null;
        }
        String name = ssl.getBundle();
        if (!StringUtils.hasText(name)) {
            return SslBundle.systemDefault();
        }
        if (this.sslBundles == null) {
            throw new ClickHouseTcpConfigurationException(
                    "clickhouse.tcp.ssl.bundle names the SSL bundle '" + name + "' but the application has no SslBundles bean.",
                    "Define the bundle under spring.ssl.bundle.pem." + name + " or spring.ssl.bundle.jks." + name
                            + " with Spring Boot's SSL auto-configuration active, or unset clickhouse.tcp.ssl.bundle.");
        }
        try {
            return this.sslBundles.getBundle(name);
        }
        catch (NoSuchSslBundleException ex) {
            throw new ClickHouseTcpConfigurationException(
                    "clickhouse.tcp.ssl.bundle names the SSL bundle '" + name + "', which is not defined.",
                    "Define it under spring.ssl.bundle.pem." + name + " or spring.ssl.bundle.jks." + name
                            + ", or correct clickhouse.tcp.ssl.bundle.", ex);
        }
    }

    private <T> T first(@Nullable T property, java.util.function.Function<ClickHouseUrl, @Nullable T> fromUrl,
            T fallback) {
        if (property != null) {
            return property;
        }
        ClickHouseUrl url = this.properties.parsedUrl();
        T value = (url != null) ? fromUrl.apply(url) : null;
        return (value != null) ? value : fallback;
    }

    @Override
    public String toString() {
        return "PropertiesClickHouseTcpConnectionDetails[" + getUsername() + "@" + getNodes() + "/" + getDatabase()
                + ", password=" + mask(getPassword()) + "]";
    }

    /** How a password shows in {@code toString()}: whether one is set, never its value. */
    static String mask(@Nullable String password) {
        return (password == null || password.isEmpty()) ? "<none>" : "<hidden>";
    }

}
