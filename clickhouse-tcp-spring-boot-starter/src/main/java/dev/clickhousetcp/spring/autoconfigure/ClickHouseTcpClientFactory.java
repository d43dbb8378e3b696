package dev.clickhousetcp.spring.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.ClickHouseUrl;
import dev.clickhousetcp.client.Compression;
import dev.clickhousetcp.client.Endpoint;
import dev.clickhousetcp.client.TlsConfig;
import dev.clickhousetcp.mapping.MappingConfig;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails.Node;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.PropertyMapper;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslOptions;
import org.springframework.util.Assert;
import org.springframework.util.unit.DataSize;

/**
 * Maps {@link ClickHouseTcpProperties} and {@link ClickHouseTcpConnectionDetails} onto a
 * {@link ClickHouseTcpClient.Builder}, and says which property each ClickHouse setting comes from.
 */
final class ClickHouseTcpClientFactory {

    private final ClickHouseTcpProperties properties;

    private final @Nullable ClickHouseUrl url;

    /** {@code clickhouse.tcp.settings} under their ClickHouse names. */
    private final Map<String, String> settings;

    /**
     * A factory for the bound {@code properties}.
     * @param properties the bound properties
     * @param sources the property sources they were bound from, highest precedence first (for the names
     *                of the settings, see {@link ClickHouseSettingNames})
     */
    ClickHouseTcpClientFactory(ClickHouseTcpProperties properties, Iterable<ConfigurationPropertySource> sources) {
        this.properties = properties;
        this.url = properties.parsedUrl();
        this.settings = ClickHouseSettingNames.of(properties.getSettings(), sources);
    }

    /**
     * A builder configured from the connection details and the properties (customizers not applied).
     * @param details where the servers are and how to authenticate
     * @return the builder
     */
    ClickHouseTcpClient.Builder builder(ClickHouseTcpConnectionDetails details) {
        ClickHouseTcpProperties p = this.properties;
        ClickHouseTcpClient.Builder builder = ClickHouseTcpClient.builder();
        List<Node> nodes = nodes(details);
        if (nodes.size() == 1) {
            builder.host(nodes.get(0).host()).port(nodes.get(0).port());
        }
        else {
            builder.endpoints(nodes.stream().map((node) -> new Endpoint(node.host(), node.port()).toString()).toList());
        }
        builder.user(details.getUsername()).password(details.getPassword()).database(database(details));
        SslBundle sslBundle = details.getSslBundle();
        if (sslBundle != null) {
            builder.tls(tls(sslBundle));
        }
        PropertyMapper map = PropertyMapper.get();
        map.from(clientName()).to(builder::clientName);
        map.from(compression()).to(builder::compression);
        map.from(p.getLoadBalancing()).to(builder::loadBalancing);
        map.from(p.getFailoverBackoff()).to(builder::failoverBackoff);
        ClickHouseTcpProperties.Connection connection = p.getConnection();
        map.from(connection.getConnectTimeout()).to(builder::connectTimeout);
        map.from(connection.getHandshakeTimeout()).to(builder::handshakeTimeout);
        map.from(connection.getSocketTimeout()).to(builder::socketTimeout);
        map.from(connection.getBufferSize()).as((size) -> (int) size.toBytes()).to(builder::bufferSize);
        map.from(connection.getBlockBufferPoolSize()).as(DataSize::toBytes).to(builder::blockBufferPoolSize);
        builder.preferChunked(connection.isPreferChunked());
        map.from(p.getQuery().getTimeout()).to(builder::defaultQueryTimeout);
        ClickHouseTcpProperties.Pool pool = p.getPool();
        builder.maxPoolSize(pool.getMaxSize()).minIdle(pool.getMinIdle());
        map.from(pool.getAcquireTimeout()).to(builder::acquireTimeout);
        map.from(pool.getValidateAfterIdle()).to(builder::validateAfterIdle);
        map.from(pool.getIdleTimeout()).to(builder::idleTimeout);
        map.from(pool.getMaxLifetime()).to(builder::maxLifetime);
        map.from(pool.getLeakDetectionThreshold()).to(builder::leakDetectionThreshold);
        map.from(pool.getHousekeepingPeriod()).to(builder::housekeepingPeriod);
        map.from(pool.getShutdownGrace()).to(builder::shutdownGrace);
        builder.insertBlockRows(p.getInsert().getBlockRows());
        builder.limits(p.getLimits().toDecodeLimits());
        builder.mapping(new MappingConfig(p.getMapping().getAccessMode(), p.getMapping().getUnmappedColumns(),
                p.getMapping().isUint64AsLong()));
        builder.settings(settings());
        return builder;
    }

    /**
     * The nodes of the connection details, checked.
     * @param details the connection details
     * @return at least one node
     */
    static List<Node> nodes(ClickHouseTcpConnectionDetails details) {
        List<Node> nodes = details.getNodes();
        if (nodes == null || nodes.isEmpty()) {
            throw new ClickHouseTcpConfigurationException(
                    "The ClickHouseTcpConnectionDetails (" + details.getClass().getName() + ") name no server.",
                    "Return at least one node from getNodes(), or remove the bean to use the clickhouse.tcp.* properties.");
        }
        return List.copyOf(nodes);
    }

    private static String database(ClickHouseTcpConnectionDetails details) {
        String database = details.getDatabase();
        return (database != null) ? database : "default";
    }

    private TlsConfig tls(SslBundle bundle) {
        ClickHouseTcpProperties.Ssl ssl = this.properties.getSsl();
        TlsConfig.Builder tls = TlsConfig.builder()
            .sslContext(bundle.createSslContext(), "SSL bundle, protocol " + bundle.getProtocol())
            .hostnameVerification(ssl.isVerifyHostname())
            .serverName(ssl.getServerName());
        SslOptions options = bundle.getOptions();
        if (options.getEnabledProtocols() != null) {
            tls.protocols(List.of(options.getEnabledProtocols()));
        }
        if (options.getCiphers() != null) {
            tls.cipherSuites(List.of(options.getCiphers()));
        }
        return tls.build();
    }

    private @Nullable String clientName() {
        if (this.properties.getClientName() != null) {
            return this.properties.getClientName();
        }
        return (this.url != null) ? this.url.clientName().orElse(null) : null;
    }

    private @Nullable Compression compression() {
        ClickHouseTcpProperties.Compression compression = this.properties.getCompression();
        Integer level = this.properties.getZstdLevel();
        if (compression == null) {
            Compression fromUrl = (this.url != null) ? this.url.compression().orElse(null) : null;
            if (fromUrl != null && level != null) {
                Assert.state(fromUrl.method() == dev.clickhousetcp.io.CompressionMethod.ZSTD,
                        "clickhouse.tcp.zstd-level needs compression zstd");
                return Compression.zstd(level);
            }
            return fromUrl;
        }
        return switch (compression) {
            case NONE -> Compression.NONE;
            case LZ4 -> Compression.LZ4;
            case ZSTD -> (level != null) ? Compression.zstd(level) : Compression.ZSTD;
        };
    }

    /**
     * The ClickHouse settings: the URL's query parameters, then {@code clickhouse.tcp.settings} (which
     * win).
     * @return the settings in order
     */
    Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        if (this.url != null) {
            settings.putAll(this.url.settings());
        }
        settings.putAll(this.settings);
        return settings;
    }

    /**
     * For each of {@link #settings()}, the property it comes from.
     * @return setting name to property name
     */
    Map<String, String> settingSources() {
        Map<String, String> sources = new LinkedHashMap<>();
        if (this.url != null) {
            this.url.settings().keySet().forEach((name) -> sources.put(name, "clickhouse.tcp.url (query parameter "
                    + name + ")"));
        }
        this.settings.keySet().forEach((name) -> sources.put(name, "clickhouse.tcp.settings." + name));
        return sources;
    }

}
