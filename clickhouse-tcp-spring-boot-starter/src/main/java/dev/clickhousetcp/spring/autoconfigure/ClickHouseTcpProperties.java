package dev.clickhousetcp.spring.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.clickhousetcp.client.ClickHouseUrl;
import dev.clickhousetcp.client.Endpoint;
import dev.clickhousetcp.client.LoadBalancing;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.mapping.AccessMode;
import dev.clickhousetcp.mapping.MappingConfig;
import dev.clickhousetcp.mapping.UnmappedColumns;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.StringUtils;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.BindingResult;
import org.springframework.validation.Errors;
import org.springframework.validation.FieldError;
import org.springframework.validation.Validator;

/**
 * Configuration properties for the ClickHouse native TCP client, bound from {@code clickhouse.tcp.*}.
 *
 * <pre>{@code
 * clickhouse:
 *   tcp:
 *     url: clickhouse://app@ch1:9000,ch2:9000/analytics?max_threads=4
 *     password: ${CLICKHOUSE_PASSWORD}
 *     compression: zstd
 *     query:
 *       timeout: 30s
 *     pool:
 *       max-size: 10
 *     settings:
 *       max_execution_time: 60
 * }</pre>
 *
 * <p>Where the server is ({@code url}, {@code host}, {@code port}, {@code endpoints}, {@code database},
 * {@code username}, {@code password}, {@code ssl.enabled}, {@code ssl.bundle}) is read through
 * {@link ClickHouseTcpConnectionDetails}: these properties apply only when no other
 * {@code ClickHouseTcpConnectionDetails} bean is defined. Explicit properties override the matching
 * parts of {@code url}. Everything else always comes from here.
 *
 * <p>The properties validate themselves when bound: an invalid value fails startup with a message
 * naming the property. Mutable bean, as Spring binding requires; not thread-safe, but only mutated
 * while the context starts. {@link #toString()} never shows the password.
 */
@ConfigurationProperties("clickhouse.tcp")
public class ClickHouseTcpProperties implements Validator {

    /**
     * Connection URL, for example
     * clickhouse://user:password@host1:9000,host2:9000/db?compression=lz4&secure=true&max_threads=4.
     * Query parameters secure, compression, zstd_level and client_name are client options; every other
     * one is a ClickHouse setting. Explicit properties (host, port, endpoints, username, password,
     * database, compression, zstd-level, client-name, ssl.enabled, settings) override its parts.
     */
    private @Nullable String url;

    /** Host name or IP address of the server. Defaults to localhost when neither url nor endpoints name one. */
    private @Nullable String host;

    /**
     * Native protocol (TCP) port of the server, not the HTTP port 8123. Defaults to 9440 when TLS is on,
     * else 9000; also the port of endpoints and url hosts given without one.
     */
    private @Nullable Integer port;

    /**
     * Several servers (replicas) as host[:port]. When set, they replace host, port and the hosts of url,
     * and new connections spread over them per load-balancing.
     */
    private List<String> endpoints = new ArrayList<>();

    /** How new connections pick one of several endpoints. */
    private LoadBalancing loadBalancing = LoadBalancing.IN_ORDER;

    /** How long an endpoint that failed to connect is skipped, unless every endpoint is failing. */
    private Duration failoverBackoff = Duration.ofSeconds(10);

    /** Default database of every connection. Defaults to "default". */
    private @Nullable String database;

    /** User name to authenticate as. Defaults to "default". */
    private @Nullable String username;

    /** Password of the user; unset or empty for none. Never logged. */
    private @Nullable String password;

    /**
     * Client name reported to the server, visible as client_name in system.query_log. Defaults to
     * "clickhouse-tcp".
     */
    private @Nullable String clientName;

    /**
     * Network compression of data blocks in both directions. Defaults to lz4, the server's own network
     * codec; none is fastest on loopback or a fast LAN.
     */
    private @Nullable Compression compression;

    /** ZSTD level from 1 to 22, with compression zstd. Defaults to 1, like the server. */
    private @Nullable Integer zstdLevel;

    /**
     * Whether to check the names in settings against the server's system.settings when the application
     * starts (only when settings are configured and the server is reachable): unknown names or rejected
     * values then fail startup with close matches suggested, instead of failing every query.
     */
    private boolean validateSettingsOnStartup = true;

    /**
     * ClickHouse settings sent with every query, for example max_threads=4 or max_execution_time=60.
     * Settings given per query override them. A dotted key is the name with underscores (so the environment
     * variable CLICKHOUSE_TCP_SETTINGS_MAX_THREADS sets max_threads); a key in brackets is kept as written.
     */
    private final Map<String, String> settings = new LinkedHashMap<>();

    /** Connection options. */
    private final Connection connection = new Connection();

    /** Query options. */
    private final Query query = new Query();

    /** Connection pool. */
    private final Pool pool = new Pool();

    /** Row inserts. */
    private final Insert insert = new Insert();

    /** Upper bounds for sizes read from the wire. */
    private final Limits limits = new Limits();

    /** Object mapping of query results and inserts. */
    private final Mapping mapping = new Mapping();

    /** TLS. */
    private final Ssl ssl = new Ssl();

    /**
     * The connection URL ({@code clickhouse.tcp.url}), which may hold a password.
     *
     * @return the URL as configured, or {@code null} when unset
     */
    public @Nullable String getUrl() {
        return this.url;
    }

    /**
     * Sets the connection URL; explicit properties override its parts, and its query parameters other than the client
     * options (secure, compression, zstd_level, client_name) become settings.
     *
     * @param url a {@code clickhouse://} URL such as {@code clickhouse://user@host:9000/db?max_threads=4}, or
     *            {@code null} for none
     */
    public void setUrl(@Nullable String url) {
        this.url = url;
    }

    /**
     * The server's host name or IP address ({@code clickhouse.tcp.host}).
     *
     * @return the host as configured, or {@code null} when unset (then the url's hosts, else {@code localhost})
     */
    public @Nullable String getHost() {
        return this.host;
    }

    /**
     * Sets the server's host; it replaces the hosts of the url.
     *
     * @param host a host name or IP address, or {@code null} for none; must not be blank
     */
    public void setHost(@Nullable String host) {
        this.host = host;
    }

    /**
     * The server's native protocol port ({@code clickhouse.tcp.port}).
     *
     * @return the port as configured, or {@code null} when unset (then 9440 with TLS, else 9000)
     */
    public @Nullable Integer getPort() {
        return this.port;
    }

    /**
     * Sets the server's native protocol (TCP) port, also used for endpoints and url hosts given without one.
     *
     * @param port 1 to 65535, or {@code null} for the default; not the HTTP port 8123
     */
    public void setPort(@Nullable Integer port) {
        this.port = port;
    }

    /**
     * The servers (replicas) to spread connections over ({@code clickhouse.tcp.endpoints}).
     *
     * @return the mutable list bound from the properties, each {@code host[:port]}; empty when unset
     */
    public List<String> getEndpoints() {
        return this.endpoints;
    }

    /**
     * Sets the servers (replicas) to spread connections over; when non-empty they replace host, port and the url's
     * hosts.
     *
     * @param endpoints entries of the form {@code host}, {@code host:port} or {@code [IPv6 address]:port}
     */
    public void setEndpoints(List<String> endpoints) {
        this.endpoints = endpoints;
    }

    /**
     * How new connections pick one of several endpoints ({@code clickhouse.tcp.load-balancing}).
     *
     * @return the strategy, {@link LoadBalancing#IN_ORDER} by default
     */
    public LoadBalancing getLoadBalancing() {
        return this.loadBalancing;
    }

    /**
     * Sets how new connections pick one of several endpoints.
     *
     * @param loadBalancing the strategy; ignored with a single endpoint
     */
    public void setLoadBalancing(LoadBalancing loadBalancing) {
        this.loadBalancing = loadBalancing;
    }

    /**
     * How long an endpoint that failed to connect is skipped ({@code clickhouse.tcp.failover-backoff}).
     *
     * @return the backoff, 10 seconds by default
     */
    public Duration getFailoverBackoff() {
        return this.failoverBackoff;
    }

    /**
     * Sets how long an endpoint that failed to connect is skipped, unless every endpoint is failing.
     *
     * @param failoverBackoff a non-negative duration; 0 never skips an endpoint
     */
    public void setFailoverBackoff(Duration failoverBackoff) {
        this.failoverBackoff = failoverBackoff;
    }

    /**
     * The default database of every connection ({@code clickhouse.tcp.database}).
     *
     * @return the database as configured, or {@code null} when unset (then the url's, else {@code default})
     */
    public @Nullable String getDatabase() {
        return this.database;
    }

    /**
     * Sets the default database of every connection; it overrides the url's.
     *
     * @param database a database name, or {@code null} for the url's or {@code default}
     */
    public void setDatabase(@Nullable String database) {
        this.database = database;
    }

    /**
     * The user to authenticate as ({@code clickhouse.tcp.username}).
     *
     * @return the user name as configured, or {@code null} when unset (then the url's, else {@code default})
     */
    public @Nullable String getUsername() {
        return this.username;
    }

    /**
     * Sets the user to authenticate as; it overrides the url's.
     *
     * @param username a user name, or {@code null} for the url's or {@code default}
     */
    public void setUsername(@Nullable String username) {
        this.username = username;
    }

    /**
     * The user's password ({@code clickhouse.tcp.password}); never logged.
     *
     * @return the password as configured, or {@code null} when unset (then the url's, else none)
     */
    public @Nullable String getPassword() {
        return this.password;
    }

    /**
     * Sets the user's password; it overrides the url's.
     *
     * @param password the password, or {@code null} or empty for none
     */
    public void setPassword(@Nullable String password) {
        this.password = password;
    }

    /**
     * The client name reported to the server ({@code clickhouse.tcp.client-name}).
     *
     * @return the name as configured, or {@code null} when unset (then the url's {@code client_name}, else
     *         {@code clickhouse-tcp})
     */
    public @Nullable String getClientName() {
        return this.clientName;
    }

    /**
     * Sets the client name the server shows as {@code client_name} in {@code system.query_log}.
     *
     * @param clientName the name, or {@code null} for the default
     */
    public void setClientName(@Nullable String clientName) {
        this.clientName = clientName;
    }

    /**
     * The network compression of data blocks ({@code clickhouse.tcp.compression}).
     *
     * @return the method as configured, or {@code null} when unset (then the url's, else LZ4)
     */
    public @Nullable Compression getCompression() {
        return this.compression;
    }

    /**
     * Sets the network compression of data blocks in both directions; it overrides the url's.
     *
     * @param compression the method, or {@code null} for the url's or LZ4
     */
    public void setCompression(@Nullable Compression compression) {
        this.compression = compression;
    }

    /**
     * The ZSTD compression level ({@code clickhouse.tcp.zstd-level}).
     *
     * @return the level as configured, or {@code null} when unset (then 1, like the server)
     */
    public @Nullable Integer getZstdLevel() {
        return this.zstdLevel;
    }

    /**
     * Sets the ZSTD compression level; only valid with compression {@code zstd}.
     *
     * @param zstdLevel 1 to 22, or {@code null} for the default
     */
    public void setZstdLevel(@Nullable Integer zstdLevel) {
        this.zstdLevel = zstdLevel;
    }

    /**
     * Whether the configured settings are checked against the server's {@code system.settings} at startup
     * ({@code clickhouse.tcp.validate-settings-on-startup}).
     *
     * @return {@code true} (the default) to check them
     */
    public boolean isValidateSettingsOnStartup() {
        return this.validateSettingsOnStartup;
    }

    /**
     * Sets whether the configured settings are checked against the server's {@code system.settings} at startup.
     *
     * @param validateSettingsOnStartup {@code true} to fail startup on unknown names or rejected values, {@code false}
     *                                  to skip the check
     */
    public void setValidateSettingsOnStartup(boolean validateSettingsOnStartup) {
        this.validateSettingsOnStartup = validateSettingsOnStartup;
    }

    /**
     * The ClickHouse settings sent with every query ({@code clickhouse.tcp.settings.*}).
     *
     * @return the mutable map bound from the properties, key to value as text, keys as Spring binds them (the
     *         auto-configuration sends a dotted key such as {@code max.threads}, from the environment variable
     *         {@code CLICKHOUSE_TCP_SETTINGS_MAX_THREADS}, as {@code max_threads}, and a key written in brackets as
     *         written); settings given per query override them
     */
    public Map<String, String> getSettings() {
        return this.settings;
    }

    /**
     * The options of a single connection ({@code clickhouse.tcp.connection.*}).
     *
     * @return the nested properties; never {@code null}
     */
    public Connection getConnection() {
        return this.connection;
    }

    /**
     * The options of queries and inserts ({@code clickhouse.tcp.query.*}).
     *
     * @return the nested properties; never {@code null}
     */
    public Query getQuery() {
        return this.query;
    }

    /**
     * The connection pool options ({@code clickhouse.tcp.pool.*}).
     *
     * @return the nested properties; never {@code null}
     */
    public Pool getPool() {
        return this.pool;
    }

    /**
     * The options of row and object inserts ({@code clickhouse.tcp.insert.*}).
     *
     * @return the nested properties; never {@code null}
     */
    public Insert getInsert() {
        return this.insert;
    }

    /**
     * The upper bounds for sizes read from the wire ({@code clickhouse.tcp.limits.*}).
     *
     * @return the nested properties; never {@code null}
     */
    public Limits getLimits() {
        return this.limits;
    }

    /**
     * The object mapping options ({@code clickhouse.tcp.mapping.*}).
     *
     * @return the nested properties; never {@code null}
     */
    public Mapping getMapping() {
        return this.mapping;
    }

    /**
     * The TLS options ({@code clickhouse.tcp.ssl.*}).
     *
     * @return the nested properties; never {@code null}
     */
    public Ssl getSsl() {
        return this.ssl;
    }

    /** The parsed {@code url}, or {@code null} when none is set. */
    @Nullable ClickHouseUrl parsedUrl() {
        return StringUtils.hasText(this.url) ? ClickHouseUrl.parse(this.url) : null;
    }

    @Override
    public boolean supports(Class<?> clazz) {
        return ClickHouseTcpProperties.class.isAssignableFrom(clazz);
    }

    /**
     * Checks every value the client would refuse, so that startup fails with the property's name.
     */
    @Override
    public void validate(Object target, Errors errors) {
        ClickHouseTcpProperties p = (ClickHouseTcpProperties) target;
        ClickHouseUrl parsed = null;
        if (p.url != null) {
            try {
                parsed = p.parsedUrl();
                if (parsed == null) {
                    rejectUrl(errors, "", "blank", "must not be blank; leave it unset instead");
                }
            }
            catch (IllegalArgumentException ex) {
                // the parser's messages never contain the password; the value shown must not either
                rejectUrl(errors, "<not shown: it may hold a password>", "malformed", ex.getMessage());
            }
        }
        if (p.host != null && !StringUtils.hasText(p.host)) {
            errors.rejectValue("host", "blank", "must not be blank");
        }
        if (p.port != null && (p.port < 1 || p.port > 65535)) {
            errors.rejectValue("port", "range", "must be between 1 and 65535");
        }
        for (int i = 0; i < p.endpoints.size(); i++) {
            try {
                Endpoint.parse(p.endpoints.get(i), 9000);
            }
            catch (IllegalArgumentException | NullPointerException ex) {
                errors.rejectValue("endpoints[" + i + "]", "malformed",
                        "must be host or host:port (IPv6 as [address]:port): " + ex.getMessage());
            }
        }
        notNegative(errors, "failover-backoff", p.failoverBackoff);
        if (p.zstdLevel != null) {
            Compression effective = p.compression;
            if (effective == null && parsed != null && parsed.compression().isPresent()) {
                effective = parsed.compression().get().method() == dev.clickhousetcp.io.CompressionMethod.ZSTD
                        ? Compression.ZSTD : Compression.LZ4;
            }
            if (p.zstdLevel < 1 || p.zstdLevel > 22) {
                errors.rejectValue("zstd-level", "range", "must be between 1 and 22");
            }
            else if (effective != Compression.ZSTD) {
                errors.rejectValue("zstd-level", "compression", "applies only with clickhouse.tcp.compression=zstd");
            }
        }
        p.settings.forEach((name, value) -> {
            if (!StringUtils.hasText(name)) {
                errors.rejectValue("settings", "blank", "setting names must not be blank");
            }
        });
        p.connection.validate(errors);
        p.query.validate(errors);
        p.pool.validate(errors);
        p.insert.validate(errors);
        p.limits.validate(errors);
    }

    /** Rejects {@code url} showing {@code shownValue} instead of the URL, which may hold a password. */
    private static void rejectUrl(Errors errors, String shownValue, String code, @Nullable String message) {
        if (errors instanceof BindingResult result) {
            result.addError(new FieldError(errors.getObjectName(), "url", shownValue, false, new String[] { code },
                    null, message));
        }
        else {
            errors.reject(code, "clickhouse.tcp.url: " + message);
        }
    }

    static void positive(Errors errors, String field, @Nullable Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            errors.rejectValue(field, "positive", "must be a positive duration");
        }
    }

    static void notNegative(Errors errors, String field, @Nullable Duration value) {
        if (value == null || value.isNegative()) {
            errors.rejectValue(field, "negative", "must not be negative (0 turns it off)");
        }
    }

    static void atLeast(Errors errors, String field, long value, long min) {
        if (value < min) {
            errors.rejectValue(field, "range", "must be at least " + min);
        }
    }

    static void sizeBetween(Errors errors, String field, @Nullable DataSize value, long min, long max) {
        if (value == null || value.toBytes() < min || value.toBytes() > max) {
            errors.rejectValue(field, "range", "must be between " + DataSize.ofBytes(min) + " and "
                    + DataSize.ofBytes(max));
        }
    }

    @Override
    public String toString() {
        return "ClickHouseTcpProperties[url=" + ((this.url != null) ? maskedUrl(this.url) : null) + ", host="
                + this.host + ", port=" + this.port + ", endpoints=" + this.endpoints + ", database="
                + this.database + ", username=" + this.username + ", password="
                + PropertiesClickHouseTcpConnectionDetails.mask(this.password) + ", clientName=" + this.clientName
                + ", compression=" + this.compression + ", " + this.connection + ", " + this.query + ", "
                + this.pool + ", " + this.insert + ", " + this.ssl + ", settings=" + this.settings.keySet() + "]";
    }

    private static String maskedUrl(String url) {
        try {
            return ClickHouseUrl.parse(url).toString();
        }
        catch (IllegalArgumentException ex) {
            return "<malformed>";
        }
    }

    /** Network compression of data blocks. */
    public enum Compression {

        /** No compression. */
        NONE,

        /** LZ4 frames, the server's own default network codec. */
        LZ4,

        /** ZSTD frames: smaller on the wire, more CPU; see zstd-level. */
        ZSTD

    }

    /** Options of a single connection. */
    public static class Connection {

        /** Maximum time to establish the TCP connection. */
        private Duration connectTimeout = Duration.ofSeconds(10);

        /**
         * Maximum time for the TLS and protocol handshake after connecting (idle cloud services can take
         * 20 to 30 seconds to wake up).
         */
        private Duration handshakeTimeout = Duration.ofSeconds(30);

        /**
         * Longest silence allowed while waiting for the next bytes of a response; long-running queries
         * send progress packets, so this bounds a stalled server, not a slow query.
         */
        private Duration socketTimeout = Duration.ofSeconds(300);

        /** Size of the socket read and write buffers; at least 1KB. */
        private DataSize bufferSize = DataSize.ofKilobytes(64);

        /**
         * Most bytes of idle column buffers the client keeps to decode later blocks into: one budget for
         * the whole client, shared by all its pooled connections (idle connections keep none of their own). 0
         * keeps none.
         */
        private DataSize blockBufferPoolSize = DataSize.ofMegabytes(32);

        /**
         * Whether to prefer chunked packet framing where the server leaves the choice to the client
         * (protocol revision 54470 and later).
         */
        private boolean preferChunked;

        /**
         * The maximum time to establish the TCP connection ({@code clickhouse.tcp.connection.connect-timeout}).
         *
         * @return the timeout, 10 seconds by default
         */
        public Duration getConnectTimeout() {
            return this.connectTimeout;
        }

        /**
         * Sets the maximum time to establish the TCP connection.
         *
         * @param connectTimeout a positive duration
         */
        public void setConnectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
        }

        /**
         * The maximum time for the TLS and protocol handshake after connecting
         * ({@code clickhouse.tcp.connection.handshake-timeout}).
         *
         * @return the timeout, 30 seconds by default
         */
        public Duration getHandshakeTimeout() {
            return this.handshakeTimeout;
        }

        /**
         * Sets the maximum time for the TLS and protocol handshake after connecting.
         *
         * @param handshakeTimeout a positive duration; idle cloud services can take 20 to 30 seconds to wake up
         */
        public void setHandshakeTimeout(Duration handshakeTimeout) {
            this.handshakeTimeout = handshakeTimeout;
        }

        /**
         * The longest silence allowed while waiting for the next bytes of a response
         * ({@code clickhouse.tcp.connection.socket-timeout}).
         *
         * @return the timeout, 300 seconds by default
         */
        public Duration getSocketTimeout() {
            return this.socketTimeout;
        }

        /**
         * Sets the longest silence allowed while waiting for the next bytes of a response.
         *
         * @param socketTimeout a positive duration; it bounds a stalled server, not a slow query (which sends Progress
         *                      packets)
         */
        public void setSocketTimeout(Duration socketTimeout) {
            this.socketTimeout = socketTimeout;
        }

        /**
         * The size of the socket read and write buffers ({@code clickhouse.tcp.connection.buffer-size}).
         *
         * @return the size, 64KB by default
         */
        public DataSize getBufferSize() {
            return this.bufferSize;
        }

        /**
         * Sets the size of the socket read and write buffers.
         *
         * @param bufferSize at least 1KB and below 2GB
         */
        public void setBufferSize(DataSize bufferSize) {
            this.bufferSize = bufferSize;
        }

        /**
         * The most bytes of idle column buffers the client keeps, shared by all its connections
         * ({@code clickhouse.tcp.connection.block-buffer-pool-size}).
         *
         * @return the size, 32MB by default
         */
        public DataSize getBlockBufferPoolSize() {
            return this.blockBufferPoolSize;
        }

        /**
         * Sets the most bytes of idle column buffers the client keeps to decode later blocks into, shared by
         * all its connections.
         *
         * @param blockBufferPoolSize a non-negative size, at most this much heap for the whole client; 0 keeps none
         */
        public void setBlockBufferPoolSize(DataSize blockBufferPoolSize) {
            this.blockBufferPoolSize = blockBufferPoolSize;
        }

        /**
         * Whether chunked packet framing is preferred where the server leaves the choice to the client
         * ({@code clickhouse.tcp.connection.prefer-chunked}).
         *
         * @return {@code false} by default
         */
        public boolean isPreferChunked() {
            return this.preferChunked;
        }

        /**
         * Sets whether to prefer chunked packet framing where the server leaves the choice to the client (revision
         * 54470+).
         *
         * @param preferChunked {@code true} to ask for chunked framing, {@code false} for plain packets
         */
        public void setPreferChunked(boolean preferChunked) {
            this.preferChunked = preferChunked;
        }

        void validate(Errors errors) {
            positive(errors, "connection.connect-timeout", this.connectTimeout);
            positive(errors, "connection.handshake-timeout", this.handshakeTimeout);
            positive(errors, "connection.socket-timeout", this.socketTimeout);
            sizeBetween(errors, "connection.buffer-size", this.bufferSize, 1024, Integer.MAX_VALUE);
            sizeBetween(errors, "connection.block-buffer-pool-size", this.blockBufferPoolSize, 0, Long.MAX_VALUE);
        }

        @Override
        public String toString() {
            return "connection[connectTimeout=" + this.connectTimeout + ", handshakeTimeout=" + this.handshakeTimeout
                    + ", socketTimeout=" + this.socketTimeout + ", bufferSize=" + this.bufferSize
                    + ", blockBufferPoolSize=" + this.blockBufferPoolSize + "]";
        }

    }

    /** Options of queries and inserts. */
    public static class Query {

        /**
         * Timeout of every query and insert that sets none of its own, from the call to the end of the
         * response (including the wait for a pooled connection); the query is then cancelled. Unset means
         * none.
         */
        private @Nullable Duration timeout;

        /**
         * The default timeout of queries and inserts that set none of their own ({@code clickhouse.tcp.query.timeout}).
         *
         * @return the timeout, or {@code null} when unset (no timeout)
         */
        public @Nullable Duration getTimeout() {
            return this.timeout;
        }

        /**
         * Sets the default timeout of queries and inserts, counted from the call to the end of the response, the wait
         * for a pooled connection included; the query is then cancelled.
         *
         * @param timeout a positive duration, or {@code null} for none
         */
        public void setTimeout(@Nullable Duration timeout) {
            this.timeout = timeout;
        }

        void validate(Errors errors) {
            if (this.timeout != null) {
                positive(errors, "query.timeout", this.timeout);
            }
        }

        @Override
        public String toString() {
            return "query[timeout=" + this.timeout + "]";
        }

    }

    /** The client's connection pool. */
    public static class Pool {

        /** Maximum number of pooled connections, busy and idle together. */
        private int maxSize = 20;

        /** Idle connections the pool keeps open. */
        private int minIdle = 0;

        /** Maximum time a call waits for a free connection, including opening a new one. */
        private Duration acquireTimeout = Duration.ofSeconds(30);

        /** Idle time after which a pooled connection is validated with a ping before it is reused. */
        private Duration validateAfterIdle = Duration.ofSeconds(30);

        /** Idle connections above the minimum are closed after this long; 0 keeps them. */
        private Duration idleTimeout = Duration.ofMinutes(10);

        /**
         * Connections are retired after this age, less a random variance of up to 2.5% of it when it is above
         * 10 seconds, so connections opened together do not all retire at once; a connection in use is retired
         * when it is given back; 0 keeps them.
         */
        private Duration maxLifetime = Duration.ofMinutes(30);

        /** A connection held longer than this is logged as a possible leak; 0 turns detection off. */
        private Duration leakDetectionThreshold = Duration.ZERO;

        /** How often idle eviction, retirement, min-idle refill and leak checks run. */
        private Duration housekeepingPeriod = Duration.ofSeconds(5);

        /**
         * How long closing the client, when the application context closes (after the web server's graceful
         * shutdown), waits for borrowed connections to be given back, so that queries, inserts and sessions
         * under way in other threads finish; connections still in use after it are ended and the server cancels
         * their queries; 0 ends them at once.
         */
        private Duration shutdownGrace = Duration.ofSeconds(10);

        /**
         * The maximum number of pooled connections, busy and idle together ({@code clickhouse.tcp.pool.max-size}).
         *
         * @return the maximum, 20 by default
         */
        public int getMaxSize() {
            return this.maxSize;
        }

        /**
         * Sets the maximum number of pooled connections, busy and idle together.
         *
         * @param maxSize at least 1
         */
        public void setMaxSize(int maxSize) {
            this.maxSize = maxSize;
        }

        /**
         * The number of idle connections the pool keeps open ({@code clickhouse.tcp.pool.min-idle}).
         *
         * @return the minimum, 0 by default
         */
        public int getMinIdle() {
            return this.minIdle;
        }

        /**
         * Sets the number of idle connections the pool keeps open.
         *
         * @param minIdle 0 to the pool's max-size
         */
        public void setMinIdle(int minIdle) {
            this.minIdle = minIdle;
        }

        /**
         * The maximum time a call waits for a free connection ({@code clickhouse.tcp.pool.acquire-timeout}).
         *
         * @return the timeout, 30 seconds by default
         */
        public Duration getAcquireTimeout() {
            return this.acquireTimeout;
        }

        /**
         * Sets the maximum time a call waits for a free connection, opening a new one included.
         *
         * @param acquireTimeout a positive duration
         */
        public void setAcquireTimeout(Duration acquireTimeout) {
            this.acquireTimeout = acquireTimeout;
        }

        /**
         * The idle time after which a pooled connection is pinged before reuse
         * ({@code clickhouse.tcp.pool.validate-after-idle}).
         *
         * @return the idle time, 30 seconds by default
         */
        public Duration getValidateAfterIdle() {
            return this.validateAfterIdle;
        }

        /**
         * Sets the idle time after which a pooled connection is validated with a ping before it is reused.
         *
         * @param validateAfterIdle a non-negative duration; 0 pings before every reuse
         */
        public void setValidateAfterIdle(Duration validateAfterIdle) {
            this.validateAfterIdle = validateAfterIdle;
        }

        /**
         * The idle time after which connections above the minimum are closed
         * ({@code clickhouse.tcp.pool.idle-timeout}).
         *
         * @return the timeout, 10 minutes by default
         */
        public Duration getIdleTimeout() {
            return this.idleTimeout;
        }

        /**
         * Sets the idle time after which connections above the minimum are closed.
         *
         * @param idleTimeout a non-negative duration; 0 keeps them
         */
        public void setIdleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }

        /**
         * The age after which connections are retired ({@code clickhouse.tcp.pool.max-lifetime}). Above 10
         * seconds each connection's own lifetime is this less a random variance of up to 2.5 % of it, so
         * connections opened together do not all retire at once.
         *
         * @return the age, 30 minutes by default
         */
        public Duration getMaxLifetime() {
            return this.maxLifetime;
        }

        /**
         * Sets the age after which connections are retired (less a random variance of up to 2.5 % of it
         * when it is above 10 seconds).
         *
         * @param maxLifetime a non-negative duration; 0 keeps them
         */
        public void setMaxLifetime(Duration maxLifetime) {
            this.maxLifetime = maxLifetime;
        }

        /**
         * The time a connection may be held before it is logged as a possible leak
         * ({@code clickhouse.tcp.pool.leak-detection-threshold}).
         *
         * @return the threshold, 0 (off) by default
         */
        public Duration getLeakDetectionThreshold() {
            return this.leakDetectionThreshold;
        }

        /**
         * Sets the time a connection may be held before it is logged as a possible leak, with the borrower's stack.
         *
         * @param leakDetectionThreshold a non-negative duration; 0 turns detection off
         */
        public void setLeakDetectionThreshold(Duration leakDetectionThreshold) {
            this.leakDetectionThreshold = leakDetectionThreshold;
        }

        /**
         * How often the pool's housekeeping runs ({@code clickhouse.tcp.pool.housekeeping-period}).
         *
         * @return the period, 5 seconds by default
         */
        public Duration getHousekeepingPeriod() {
            return this.housekeepingPeriod;
        }

        /**
         * Sets how often idle eviction, retirement, min-idle refill and leak checks run.
         *
         * @param housekeepingPeriod a positive duration
         */
        public void setHousekeepingPeriod(Duration housekeepingPeriod) {
            this.housekeepingPeriod = housekeepingPeriod;
        }

        /**
         * How long closing the client waits for borrowed connections to be given back
         * ({@code clickhouse.tcp.pool.shutdown-grace}).
         *
         * @return the grace, 10 seconds by default
         */
        public Duration getShutdownGrace() {
            return this.shutdownGrace;
        }

        /**
         * Sets how long closing the client waits for borrowed connections to be given back before it ends the ones
         * still in use (and so cancels their server queries).
         *
         * @param shutdownGrace zero or a positive duration
         */
        public void setShutdownGrace(Duration shutdownGrace) {
            this.shutdownGrace = shutdownGrace;
        }

        void validate(Errors errors) {
            atLeast(errors, "pool.max-size", this.maxSize, 1);
            if (this.minIdle < 0 || this.minIdle > Math.max(this.maxSize, 0)) {
                errors.rejectValue("pool.min-idle", "range", "must be between 0 and pool.max-size (" + this.maxSize
                        + ")");
            }
            positive(errors, "pool.acquire-timeout", this.acquireTimeout);
            notNegative(errors, "pool.validate-after-idle", this.validateAfterIdle);
            notNegative(errors, "pool.idle-timeout", this.idleTimeout);
            notNegative(errors, "pool.max-lifetime", this.maxLifetime);
            notNegative(errors, "pool.leak-detection-threshold", this.leakDetectionThreshold);
            positive(errors, "pool.housekeeping-period", this.housekeepingPeriod);
            notNegative(errors, "pool.shutdown-grace", this.shutdownGrace);
        }

        @Override
        public String toString() {
            return "pool[maxSize=" + this.maxSize + ", minIdle=" + this.minIdle + ", acquireTimeout="
                    + this.acquireTimeout + ", validateAfterIdle=" + this.validateAfterIdle + "]";
        }

    }

    /** Row-wise and object inserts. */
    public static class Insert {

        /** Number of rows sent per native block by row and object inserts. */
        private int blockRows = 65536;

        /**
         * The number of rows sent per native block by row and object inserts
         * ({@code clickhouse.tcp.insert.block-rows}).
         *
         * @return the row count, 65536 by default
         */
        public int getBlockRows() {
            return this.blockRows;
        }

        /**
         * Sets the number of rows sent per native block by row and object inserts.
         *
         * @param blockRows at least 1
         */
        public void setBlockRows(int blockRows) {
            this.blockRows = blockRows;
        }

        void validate(Errors errors) {
            atLeast(errors, "insert.block-rows", this.blockRows, 1);
        }

        @Override
        public String toString() {
            return "insert[blockRows=" + this.blockRows + "]";
        }

    }

    /**
     * Upper bounds for sizes read from the wire, checked before anything is allocated; a response over a
     * bound fails and its connection is discarded.
     */
    public static class Limits {

        /** Maximum rows in one block. */
        private int maxRowsPerBlock = 67108864;

        /** Maximum size of one string value. */
        private DataSize maxStringSize = DataSize.ofMegabytes(256);

        /** Maximum size of one decoded column of a block. */
        private DataSize maxColumnSize = DataSize.ofGigabytes(1);

        /** Maximum flattened elements of one Array or Map column of a block. */
        private int maxArrayElements = 268435456;

        /** Maximum columns in one block. */
        private int maxColumns = 10000;

        /** Maximum decompressed size of one compressed frame. */
        private DataSize maxFrameSize = DataSize.ofMegabytes(128);

        /**
         * Maximum size of the dense form that compact serializations (sparse, replicated, compact Variant
         * discriminators) may build in one block, or 32 bytes per byte received for the block when more. Also
         * bounds the row objects the row tiers build for rows that no bytes back (32 bytes per row and per value of
         * a zero-width column): with a small heap and an untrusted server, set it well below the heap.
         */
        private DataSize maxExpansionSize = DataSize.ofMegabytes(256);

        /**
         * The maximum rows in one block ({@code clickhouse.tcp.limits.max-rows-per-block}).
         *
         * @return the maximum, 67108864 by default
         */
        public int getMaxRowsPerBlock() {
            return this.maxRowsPerBlock;
        }

        /**
         * Sets the maximum rows in one block.
         *
         * @param maxRowsPerBlock at least 1
         */
        public void setMaxRowsPerBlock(int maxRowsPerBlock) {
            this.maxRowsPerBlock = maxRowsPerBlock;
        }

        /**
         * The maximum size of one string value ({@code clickhouse.tcp.limits.max-string-size}).
         *
         * @return the size, 256MB by default
         */
        public DataSize getMaxStringSize() {
            return this.maxStringSize;
        }

        /**
         * Sets the maximum size of one string value.
         *
         * @param maxStringSize 1 byte to 2GB minus 1 byte
         */
        public void setMaxStringSize(DataSize maxStringSize) {
            this.maxStringSize = maxStringSize;
        }

        /**
         * The maximum size of one decoded column of a block ({@code clickhouse.tcp.limits.max-column-size}).
         *
         * @return the size, 1GB by default
         */
        public DataSize getMaxColumnSize() {
            return this.maxColumnSize;
        }

        /**
         * Sets the maximum size of one decoded column of a block.
         *
         * @param maxColumnSize at least 1 byte
         */
        public void setMaxColumnSize(DataSize maxColumnSize) {
            this.maxColumnSize = maxColumnSize;
        }

        /**
         * The maximum flattened elements of one Array or Map column of a block
         * ({@code clickhouse.tcp.limits.max-array-elements}).
         *
         * @return the maximum, 268435456 by default
         */
        public int getMaxArrayElements() {
            return this.maxArrayElements;
        }

        /**
         * Sets the maximum flattened elements of one Array or Map column of a block.
         *
         * @param maxArrayElements at least 1
         */
        public void setMaxArrayElements(int maxArrayElements) {
            this.maxArrayElements = maxArrayElements;
        }

        /**
         * The maximum columns in one block ({@code clickhouse.tcp.limits.max-columns}).
         *
         * @return the maximum, 10000 by default
         */
        public int getMaxColumns() {
            return this.maxColumns;
        }

        /**
         * Sets the maximum columns in one block.
         *
         * @param maxColumns at least 1
         */
        public void setMaxColumns(int maxColumns) {
            this.maxColumns = maxColumns;
        }

        /**
         * The maximum decompressed size of one compressed frame ({@code clickhouse.tcp.limits.max-frame-size}).
         *
         * @return the size, 128MB by default
         */
        public DataSize getMaxFrameSize() {
            return this.maxFrameSize;
        }

        /**
         * Sets the maximum decompressed size of one compressed frame.
         *
         * @param maxFrameSize 1 byte to 2GB minus 1 byte; ClickHouse writes frames of at most 1MB
         */
        public void setMaxFrameSize(DataSize maxFrameSize) {
            this.maxFrameSize = maxFrameSize;
        }

        /**
         * The maximum size of the dense form compact serializations may build in one block
         * ({@code clickhouse.tcp.limits.max-expansion-size}).
         *
         * @return the size, 256MB by default
         */
        public DataSize getMaxExpansionSize() {
            return this.maxExpansionSize;
        }

        /**
         * Sets the maximum size of the dense form that sparse, replicated and compact Variant serializations may build
         * in one block; 32 bytes per byte received for the block are allowed when that is more.
         *
         * @param maxExpansionSize a non-negative size
         */
        public void setMaxExpansionSize(DataSize maxExpansionSize) {
            this.maxExpansionSize = maxExpansionSize;
        }

        /** The core's limits. */
        DecodeLimits toDecodeLimits() {
            return new DecodeLimits(this.maxRowsPerBlock, (int) this.maxStringSize.toBytes(),
                    this.maxColumnSize.toBytes(), this.maxArrayElements, this.maxColumns,
                    (int) this.maxFrameSize.toBytes())
                .withMaxExpansionBytes(this.maxExpansionSize.toBytes());
        }

        void validate(Errors errors) {
            atLeast(errors, "limits.max-rows-per-block", this.maxRowsPerBlock, 1);
            sizeBetween(errors, "limits.max-string-size", this.maxStringSize, 1, Integer.MAX_VALUE);
            sizeBetween(errors, "limits.max-column-size", this.maxColumnSize, 1, Long.MAX_VALUE);
            atLeast(errors, "limits.max-array-elements", this.maxArrayElements, 1);
            atLeast(errors, "limits.max-columns", this.maxColumns, 1);
            sizeBetween(errors, "limits.max-frame-size", this.maxFrameSize, 1, Integer.MAX_VALUE);
            sizeBetween(errors, "limits.max-expansion-size", this.maxExpansionSize, 0, Long.MAX_VALUE);
        }

    }

    /** How query results map to objects and objects to inserted rows. */
    public static class Mapping {

        /**
         * How compiled mappers reach constructors, setters, getters and fields: auto (reflection in a
         * native image, else lambda), lambda, method-handles or reflection.
         */
        private AccessMode accessMode = AccessMode.AUTO;

        /** What a read mapping does with a result column that no property matches. */
        private UnmappedColumns unmappedColumns = UnmappedColumns.IGNORE;

        /**
         * Whether Object[] rows (queryRows, forEachRow, streamRows, queryForList maps) box UInt64 values as Long
         * with the raw 64 bits, read as two's complement so values above Long.MAX_VALUE come out negative, instead
         * of exact BigInteger.
         */
        private boolean uint64AsLong;

        /**
         * How compiled mappers reach constructors, setters, getters and fields
         * ({@code clickhouse.tcp.mapping.access-mode}).
         *
         * @return the mode, {@link AccessMode#AUTO} by default
         */
        public AccessMode getAccessMode() {
            return this.accessMode;
        }

        /**
         * Sets how compiled mappers reach constructors, setters, getters and fields.
         *
         * @param accessMode the mode; {@link AccessMode#AUTO} uses reflection in a native image, else lambdas
         */
        public void setAccessMode(AccessMode accessMode) {
            this.accessMode = accessMode;
        }

        /**
         * What a read mapping does with a result column that no property matches
         * ({@code clickhouse.tcp.mapping.unmapped-columns}).
         *
         * @return the policy, {@link UnmappedColumns#IGNORE} by default
         */
        public UnmappedColumns getUnmappedColumns() {
            return this.unmappedColumns;
        }

        /**
         * Sets what a read mapping does with a result column that no property matches.
         *
         * @param unmappedColumns the policy
         */
        public void setUnmappedColumns(UnmappedColumns unmappedColumns) {
            this.unmappedColumns = unmappedColumns;
        }

        /**
         * Whether the row tier boxes UInt64 as {@code Long} with the raw bits
         * ({@code clickhouse.tcp.mapping.uint64-as-long}); see {@link MappingConfig#uint64AsLong()}.
         *
         * @return {@code false} by default: exact {@code BigInteger}
         */
        public boolean isUint64AsLong() {
            return this.uint64AsLong;
        }

        /**
         * Sets whether the row tier boxes UInt64 as {@code Long} with the raw bits (two's complement above
         * {@link Long#MAX_VALUE}) instead of exact {@code BigInteger}.
         *
         * @param uint64AsLong {@code true} for {@code Long}
         */
        public void setUint64AsLong(boolean uint64AsLong) {
            this.uint64AsLong = uint64AsLong;
        }

    }

    /** TLS to the secure native port. */
    public static class Ssl {

        /**
         * Whether to connect with TLS. Enabled automatically when bundle is set or url says secure=true,
         * unless set explicitly.
         */
        private @Nullable Boolean enabled;

        /**
         * Name of the SSL bundle (spring.ssl.bundle.*) with the trust material and, for mutual TLS, the
         * client certificate. Unset means the JVM's default trust store.
         */
        private @Nullable String bundle;

        /** Whether the server certificate must match the host name (or server-name). */
        private boolean verifyHostname = true;

        /**
         * Name the server certificate is verified against and sent as SNI, instead of the host connected
         * to.
         */
        private @Nullable String serverName;

        /**
         * Whether to connect with TLS, as set explicitly ({@code clickhouse.tcp.ssl.enabled}).
         *
         * @return the explicit choice, or {@code null} when unset (then TLS is on when a bundle is set or the url says
         *         {@code secure=true})
         */
        public @Nullable Boolean getEnabled() {
            return this.enabled;
        }

        /**
         * Sets whether to connect with TLS, overriding the bundle and the url's {@code secure} parameter.
         *
         * @param enabled {@code true} or {@code false}, or {@code null} to decide from the bundle and the url
         */
        public void setEnabled(@Nullable Boolean enabled) {
            this.enabled = enabled;
        }

        /**
         * The name of the SSL bundle with the trust material ({@code clickhouse.tcp.ssl.bundle}).
         *
         * @return the bundle name, or {@code null} when unset (the JVM's default trust store)
         */
        public @Nullable String getBundle() {
            return this.bundle;
        }

        /**
         * Sets the SSL bundle ({@code spring.ssl.bundle.*}) with the trust material and, for mutual TLS, the client
         * certificate; setting one turns TLS on unless enabled is set.
         *
         * @param bundle a bundle name, or {@code null} for the JVM's default trust store
         */
        public void setBundle(@Nullable String bundle) {
            this.bundle = bundle;
        }

        /**
         * Whether the server certificate must match the host name ({@code clickhouse.tcp.ssl.verify-hostname}).
         *
         * @return {@code true} by default
         */
        public boolean isVerifyHostname() {
            return this.verifyHostname;
        }

        /**
         * Sets whether the server certificate must match the host name, or server-name when set.
         *
         * @param verifyHostname {@code false} only for testing: it accepts any certificate the trust material trusts,
         *                       whatever its name
         */
        public void setVerifyHostname(boolean verifyHostname) {
            this.verifyHostname = verifyHostname;
        }

        /**
         * The name the server certificate is verified against and sent as SNI ({@code clickhouse.tcp.ssl.server-name}).
         *
         * @return the name, or {@code null} when unset (the host connected to)
         */
        public @Nullable String getServerName() {
            return this.serverName;
        }

        /**
         * Sets the name the server certificate is verified against and sent as SNI, instead of the host connected to.
         *
         * @param serverName a host name, or {@code null} for the host connected to
         */
        public void setServerName(@Nullable String serverName) {
            this.serverName = serverName;
        }

        /**
         * Whether TLS is on: {@code enabled} when set, else whether a bundle is named or the URL says
         * {@code secure=true}.
         * @param url the parsed {@code clickhouse.tcp.url}, or {@code null}
         * @return whether to connect with TLS
         */
        boolean isEnabled(@Nullable ClickHouseUrl url) {
            if (this.enabled != null) {
                return this.enabled;
            }
            return StringUtils.hasText(this.bundle) || (url != null && url.secure().orElse(false));
        }

        @Override
        public String toString() {
            return "ssl[enabled=" + this.enabled + ", bundle=" + this.bundle + ", verifyHostname="
                    + this.verifyHostname + "]";
        }

    }

}
