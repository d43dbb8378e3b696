package dev.clickhousetcp.spring.autoconfigure.jdbc;

import java.util.List;
import java.util.Locale;

import dev.clickhousetcp.client.ClickHouseUrl;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.util.StringUtils;

/**
 * {@link ClickHouseTcpConnectionDetails} from {@code spring.datasource.url} (one of clickhouse-tcp-jdbc's URLs),
 * {@code spring.datasource.username} and {@code spring.datasource.password}, for an application that configures
 * only its DataSource: the servers of the URL (port 9000, or 9440 with TLS, where the URL gives none), its
 * database ({@code default} when it names none) and TLS ({@code jdbc:clickhouse:tcps://}, {@code ssl=true} or
 * {@code secure=true} in the URL). {@code clickhouse.tcp.username}, {@code password}, {@code database} and
 * {@code ssl.*}, when set, win over what the data source gives; the user and password in the URL come after
 * {@code spring.datasource.username} and {@code password}. The URL's driver options and ClickHouse settings
 * configure the JDBC connections only, not the client. Immutable; {@link #toString()} never shows the password.
 */
final class DataSourceUrlClickHouseTcpConnectionDetails implements ClickHouseTcpConnectionDetails {

    private final List<Node> nodes;

    private final String username;

    private final @Nullable String password;

    private final String database;

    private final @Nullable SslBundle sslBundle;

    private DataSourceUrlClickHouseTcpConnectionDetails(List<Node> nodes, String username, @Nullable String password,
            String database, @Nullable SslBundle sslBundle) {
        this.nodes = nodes;
        this.username = username;
        this.password = password;
        this.database = database;
        this.sslBundle = sslBundle;
    }

    /**
     * The details of a data source.
     * @param jdbcUrl the data source's URL, one the driver accepts ({@link ClickHouseTcpJdbcUrls#isNative})
     * @param username {@code spring.datasource.username}, or {@code null}
     * @param password {@code spring.datasource.password}, or {@code null}
     * @param properties the {@code clickhouse.tcp.*} properties
     * @param sslBundles the application's SSL bundles, or {@code null}
     * @return the details
     * @throws IllegalArgumentException when the URL is malformed (the message never holds its password)
     */
    static DataSourceUrlClickHouseTcpConnectionDetails of(String jdbcUrl, @Nullable String username,
            @Nullable String password, ClickHouseTcpProperties properties, @Nullable SslBundles sslBundles) {
        String text = jdbcUrl.trim();
        int authority = text.indexOf("://");
        ClickHouseUrl url = ClickHouseUrl.parse(ClickHouseUrl.SCHEME + text.substring(authority));
        boolean tls = text.substring(0, authority).toLowerCase(Locale.ROOT).endsWith("tcps")
                || url.secure().orElse(false) || Boolean.parseBoolean(url.settings().get("ssl"));
        ClickHouseTcpProperties.Ssl ssl = properties.getSsl();
        boolean secure = (ssl.getEnabled() != null) ? ssl.getEnabled() : tls || StringUtils.hasText(ssl.getBundle());
        int defaultPort = secure ? ClickHouseUrl.DEFAULT_SECURE_PORT : ClickHouseUrl.DEFAULT_PORT;
        List<Node> nodes = url.endpoints(defaultPort)
            .stream()
            .map((endpoint) -> new Node(endpoint.host(), endpoint.port()))
            .toList();
        String user = first(properties.getUsername(), username, url.user().orElse(null), "default");
        String pass = first(properties.getPassword(), password, url.password().orElse(null), null);
        String db = first(properties.getDatabase(), url.database().filter(StringUtils::hasText).orElse(null), null,
                "default");
        return new DataSourceUrlClickHouseTcpConnectionDetails(nodes, user, pass, db,
                secure ? sslBundle(ssl.getBundle(), sslBundles) : null);
    }

    private static @Nullable SslBundle sslBundle(@Nullable String name, @Nullable SslBundles sslBundles) {
        if (!StringUtils.hasText(name)) {
            return SslBundle.systemDefault();
        }
        if (sslBundles == null) {
            throw new IllegalStateException("clickhouse.tcp.ssl.bundle names the SSL bundle '" + name
                    + "' but the application has no SslBundles bean");
        }
        try {
            return sslBundles.getBundle(name);
        }
        catch (NoSuchSslBundleException ex) {
            throw new IllegalStateException("clickhouse.tcp.ssl.bundle names the SSL bundle '" + name
                    + "', which is not defined", ex);
        }
    }

    @SafeVarargs
    private static <T> T first(T... candidates) {
        for (int i = 0; i < candidates.length - 1; i++) {
            if (candidates[i] != null) {
                return candidates[i];
            }
        }
        return candidates[candidates.length - 1];
    }

    @Override
    public List<Node> getNodes() {
        return this.nodes;
    }

    @Override
    public String getUsername() {
        return this.username;
    }

    @Override
    public @Nullable String getPassword() {
        return this.password;
    }

    @Override
    public String getDatabase() {
        return this.database;
    }

    @Override
    public @Nullable SslBundle getSslBundle() {
        return this.sslBundle;
    }

    @Override
    public String toString() {
        return "DataSourceUrlClickHouseTcpConnectionDetails[" + this.username + "@" + this.nodes + "/" + this.database
                + ", password=" + (StringUtils.hasLength(this.password) ? "<hidden>" : "<none>")
                + ((this.sslBundle != null) ? ", tls" : "") + "]";
    }

}
