package dev.clickhousetcp.spring.actuate.endpoint;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.ConnectionConfig;
import dev.clickhousetcp.client.PoolConfig;
import dev.clickhousetcp.client.PoolStats;
import dev.clickhousetcp.client.TlsConfig;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.protocol.ProtocolRevision;
import dev.clickhousetcp.protocol.ServerHello;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * Read-only {@link Endpoint @Endpoint} {@code clickhouse}: for every {@link ClickHouseTcpClient}, keyed by
 * bean name,
 * <ul>
 * <li>{@code endpoints}: each configured server with what its Hello said to the most recent connection the
 * pool opened to it ({@code version}, {@code displayName}, {@code timezone}, {@code serverRevision} and the
 * {@code negotiatedRevision}); {@code status} is {@code unknown} for a server the pool has not connected to
 * yet. The endpoint never opens a connection, so reading it costs no round trip and cannot wake or load a
 * server;</li>
 * <li>{@code pool}: {@link PoolStats} ({@code active} connections lent out, {@code idle}, {@code pending}
 * threads, {@code total}, {@code max}, and the counters {@code created}, {@code destroyed},
 * {@code acquisitions}, {@code acquireTimeouts} and {@code leakWarnings});</li>
 * <li>{@code configuration}: the client's effective configuration under the names of the
 * {@code clickhouse.tcp.*} properties. Sizes, timeouts, limits and the endpoints are shown as they are;
 * {@code username}, {@code database}, {@code client-name}, the values of {@code settings} and
 * {@code ssl.server-name} go through Spring Boot's {@link Sanitizer}: masked ({@code ******}) unless
 * {@code showValues} allows them, then passed to the {@link SanitizingFunction}s. The password is never
 * shown: the client does not expose it; {@code password} is {@code ******} when one is set;</li>
 * <li>{@code memory}: the {@link ClickHouseMemoryBudget} computed from that configuration.</li>
 * </ul>
 * Thread-safe.
 */
@Endpoint(id = "clickhouse")
public class ClickHouseEndpoint {

    /** {@code status} of an endpoint whose server's Hello the pool has seen. */
    public static final String STATUS_KNOWN = "known";

    /** {@code status} of an endpoint the pool has not connected to yet. */
    public static final String STATUS_UNKNOWN = "unknown";

    private static final String PREFIX = "clickhouse.tcp.";

    private final Map<String, ClickHouseTcpClient> clients;

    private final Sanitizer sanitizer;

    private final Show showValues;

    private final List<String> clientNames;

    /**
     * Creates an endpoint.
     * @param clients the clients by bean name
     * @param sanitizingFunctions applied to the sanitizable values when they are shown
     * @param showValues when to show the sanitizable values
     */
    public ClickHouseEndpoint(Map<String, ClickHouseTcpClient> clients,
            Iterable<SanitizingFunction> sanitizingFunctions, Show showValues) {
        this.clients = Map.copyOf(Objects.requireNonNull(clients, "clients"));
        this.sanitizer = new Sanitizer(sanitizingFunctions);
        this.showValues = Objects.requireNonNull(showValues, "showValues");
        this.clientNames = clients.keySet().stream().sorted().toList();
    }

    /**
     * Describes every client; sanitizable values are shown per {@code showValues} without a security
     * context (as for JMX: {@link Show#WHEN_AUTHORIZED} shows them).
     * @return the clients by bean name
     */
    @ReadOperation
    public ClickHouseClientsDescriptor clickhouse() {
        return clickhouse(this.showValues.isShown(true));
    }

    /**
     * Describes one client.
     * @param name the client's bean name
     * @return the client, or {@code null} when there is no client of that name
     */
    @ReadOperation
    public @Nullable ClickHouseClientDescriptor clickhouseClient(@Selector String name) {
        return clickhouseClient(name, this.showValues.isShown(true));
    }

    ClickHouseClientsDescriptor clickhouse(boolean showUnsanitized) {
        Map<String, ClickHouseClientDescriptor> descriptors = new LinkedHashMap<>();
        for (String name : this.clientNames) {
            descriptors.put(name, describe(this.clients.get(name), showUnsanitized));
        }
        return new ClickHouseClientsDescriptor(descriptors);
    }

    @Nullable ClickHouseClientDescriptor clickhouseClient(String name, boolean showUnsanitized) {
        ClickHouseTcpClient client = this.clients.get(name);
        return (client != null) ? describe(client, showUnsanitized) : null;
    }

    private ClickHouseClientDescriptor describe(ClickHouseTcpClient client, boolean showUnsanitized) {
        PoolConfig poolConfig = client.poolConfig();
        Map<dev.clickhousetcp.client.Endpoint, ServerHello> hellos = client.serverHellos();
        List<EndpointDescriptor> endpoints = poolConfig.endpoints().stream().map((endpoint) -> {
            ServerHello hello = hellos.get(endpoint);
            return (hello != null) ? new EndpointDescriptor(endpoint.toString(), STATUS_KNOWN, ServerDescriptor.of(hello))
                    : new EndpointDescriptor(endpoint.toString(), STATUS_UNKNOWN, null);
        }).toList();
        return new ClickHouseClientDescriptor(endpoints, PoolDescriptor.of(client.poolStats()),
                configuration(client, showUnsanitized), ClickHouseMemoryBudget.of(client));
    }

    private Map<String, Object> configuration(ClickHouseTcpClient client, boolean showUnsanitized) {
        ConnectionConfig config = client.config();
        PoolConfig pool = client.poolConfig();
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("endpoints", pool.endpoints().stream().map(Object::toString).toList());
        root.put("load-balancing", pool.loadBalancing().name());
        root.put("failover-backoff", duration(pool.failoverBackoff()));
        put(root, "username", config.user(), showUnsanitized);
        if (config.hasPassword()) {
            root.put("password", SanitizableData.SANITIZED_VALUE);
        }
        put(root, "database", config.database(), showUnsanitized);
        put(root, "client-name", config.clientName(), showUnsanitized);
        root.put("compression", config.compression().toString());
        Map<String, Object> connection = new LinkedHashMap<>();
        connection.put("connect-timeout", duration(config.connectTimeout()));
        connection.put("handshake-timeout", duration(config.handshakeTimeout()));
        connection.put("socket-timeout", duration(config.socketTimeout()));
        connection.put("buffer-size", config.bufferSize());
        connection.put("block-buffer-pool-size", config.blockBufferPoolSize());
        connection.put("prefer-chunked", config.preferChunked());
        root.put("connection", connection);
        Map<String, Object> ssl = new LinkedHashMap<>();
        TlsConfig tls = config.tls();
        ssl.put("enabled", tls != null);
        if (tls != null) {
            ssl.put("verify-hostname", tls.hostnameVerification());
            if (tls.serverName() != null) {
                put(ssl, "ssl.server-name", "server-name", tls.serverName(), showUnsanitized);
            }
            ssl.put("protocols", tls.protocols());
        }
        root.put("ssl", ssl);
        Map<String, Object> poolMap = new LinkedHashMap<>();
        poolMap.put("max-size", pool.maxSize());
        poolMap.put("min-idle", pool.minIdle());
        poolMap.put("acquire-timeout", duration(pool.acquireTimeout()));
        poolMap.put("idle-timeout", duration(pool.idleTimeout()));
        poolMap.put("max-lifetime", duration(pool.maxLifetime()));
        poolMap.put("validate-after-idle", duration(pool.validateAfterIdle()));
        poolMap.put("leak-detection-threshold", duration(pool.leakDetectionThreshold()));
        poolMap.put("housekeeping-period", duration(pool.housekeepingPeriod()));
        poolMap.put("shutdown-grace", duration(pool.shutdownGrace()));
        root.put("pool", poolMap);
        Duration timeout = client.defaultQueryTimeout();
        if (timeout != null) {
            root.put("query", Map.of("timeout", duration(timeout)));
        }
        root.put("insert", Map.of("block-rows", client.insertBlockRows()));
        DecodeLimits limits = config.limits();
        Map<String, Object> limitsMap = new LinkedHashMap<>();
        limitsMap.put("max-rows-per-block", limits.maxRowsPerBlock());
        limitsMap.put("max-string-size", limits.maxStringBytes());
        limitsMap.put("max-column-size", limits.maxColumnBytes());
        limitsMap.put("max-array-elements", limits.maxArrayElements());
        limitsMap.put("max-columns", limits.maxColumns());
        limitsMap.put("max-frame-size", limits.maxFrameBytes());
        root.put("limits", limitsMap);
        Map<String, Object> settings = new LinkedHashMap<>();
        config.settings().forEach((name, value) -> put(settings, "settings." + name, name, value, showUnsanitized));
        root.put("settings", settings);
        return root;
    }

    private void put(Map<String, Object> map, String key, @Nullable String value, boolean showUnsanitized) {
        put(map, key, key, value, showUnsanitized);
    }

    private void put(Map<String, Object> map, String path, String key, @Nullable String value,
            boolean showUnsanitized) {
        Object sanitized = this.sanitizer.sanitize(new SanitizableData(null, PREFIX + path, value), showUnsanitized);
        if (sanitized != null) {
            map.put(key, sanitized);
        }
    }

    /** ISO-8601, as Spring binds it back ({@code PT30S}). */
    private static String duration(Duration duration) {
        return duration.toString();
    }

    /**
     * The endpoint's response: every client by bean name.
     *
     * @param clients the clients by bean name, in name order
     */
    public record ClickHouseClientsDescriptor(Map<String, ClickHouseClientDescriptor> clients)
            implements OperationResponseBody {
    }

    /**
     * One client.
     *
     * @param endpoints the configured servers in configuration order, with what the pool saw of them
     * @param pool the pool's statistics
     * @param configuration the effective configuration, under the names of the {@code clickhouse.tcp.*}
     * properties, sanitized
     * @param memory the memory budget computed from the configuration
     */
    public record ClickHouseClientDescriptor(List<EndpointDescriptor> endpoints, PoolDescriptor pool,
            Map<String, Object> configuration, ClickHouseMemoryBudget memory) implements OperationResponseBody {
    }

    /**
     * One configured server.
     *
     * @param endpoint {@code host:port}
     * @param status {@value #STATUS_KNOWN} when the pool has connected to it, else {@value #STATUS_UNKNOWN}
     * @param server what its Hello said to the most recent connection the pool opened to it, or {@code null}
     * when unknown
     */
    public record EndpointDescriptor(String endpoint, String status, @Nullable ServerDescriptor server) {
    }

    /**
     * What a server's Hello said.
     *
     * @param name the server's name ({@code ClickHouse})
     * @param version {@code major.minor.patch}
     * @param displayName the server's display name (its {@code display_name} setting, else its host name)
     * @param timezone the server's time zone
     * @param serverRevision the native protocol revision the server speaks
     * @param negotiatedRevision the revision the connection uses: the lower of the server's and the
     * client's
     */
    public record ServerDescriptor(String name, String version, String displayName, String timezone,
            long serverRevision, long negotiatedRevision) {

        static ServerDescriptor of(ServerHello hello) {
            return new ServerDescriptor(hello.name(), hello.version(), hello.displayName(), hello.timezone(),
                    hello.revision(), Math.min(ProtocolRevision.CLIENT, hello.revision()));
        }

    }

    /**
     * A pool's state and counters since the client was created.
     *
     * @param active connections lent out
     * @param idle connections waiting in the pool
     * @param pending threads waiting for a connection
     * @param total connections open or being opened
     * @param max the pool's maximum size
     * @param created connections opened
     * @param destroyed connections closed (broken, expired, evicted)
     * @param acquisitions successful acquisitions
     * @param acquireTimeouts acquisitions that timed out
     * @param leakWarnings connections reported as possible leaks (held longer than
     * {@code pool.leak-detection-threshold})
     */
    public record PoolDescriptor(int active, int idle, int pending, int total, int max, long created,
            long destroyed, long acquisitions, long acquireTimeouts, long leakWarnings) {

        static PoolDescriptor of(PoolStats stats) {
            return new PoolDescriptor(stats.active(), stats.idle(), stats.pending(), stats.total(), stats.maxSize(),
                    stats.created(), stats.destroyed(), stats.acquisitions(), stats.acquireTimeouts(),
                    stats.leaksReported());
        }

    }

}
