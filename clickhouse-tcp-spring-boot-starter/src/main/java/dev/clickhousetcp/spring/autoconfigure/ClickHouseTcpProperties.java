package dev.clickhousetcp.spring.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.clickhousetcp.client.ClickHouseUrl;
import dev.clickhousetcp.client.Endpoint;
import dev.clickhousetcp.client.LoadBalancing;
import dev.clickhousetcp.mapping.AccessMode;
import dev.clickhousetcp.mapping.UnmappedColumns;
import dev.clickhousetcp.types.DecodeLimits;
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
     * Settings given per query override them.
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

    public @Nullable String getUrl() {
        return this.url;
    }

    public void setUrl(@Nullable String url) {
        this.url = url;
    }

    public @Nullable String getHost() {
        return this.host;
    }

    public void setHost(@Nullable String host) {
        this.host = host;
    }

    public @Nullable Integer getPort() {
        return this.port;
    }

    public void setPort(@Nullable Integer port) {
        this.port = port;
    }

    public List<String> getEndpoints() {
        return this.endpoints;
    }

    public void setEndpoints(List<String> endpoints) {
        this.endpoints = endpoints;
    }

    public LoadBalancing getLoadBalancing() {
        return this.loadBalancing;
    }

    public void setLoadBalancing(LoadBalancing loadBalancing) {
        this.loadBalancing = loadBalancing;
    }

    public Duration getFailoverBackoff() {
        return this.failoverBackoff;
    }

    public void setFailoverBackoff(Duration failoverBackoff) {
        this.failoverBackoff = failoverBackoff;
    }

    public @Nullable String getDatabase() {
        return this.database;
    }

    public void setDatabase(@Nullable String database) {
        this.database = database;
    }

    public @Nullable String getUsername() {
        return this.username;
    }

    public void setUsername(@Nullable String username) {
        this.username = username;
    }

    public @Nullable String getPassword() {
        return this.password;
    }

    public void setPassword(@Nullable String password) {
        this.password = password;
    }

    public @Nullable String getClientName() {
        return this.clientName;
    }

    public void setClientName(@Nullable String clientName) {
        this.clientName = clientName;
    }

    public @Nullable Compression getCompression() {
        return this.compression;
    }

    public void setCompression(@Nullable Compression compression) {
        this.compression = compression;
    }

    public @Nullable Integer getZstdLevel() {
        return this.zstdLevel;
    }

    public void setZstdLevel(@Nullable Integer zstdLevel) {
        this.zstdLevel = zstdLevel;
    }

    public boolean isValidateSettingsOnStartup() {
        return this.validateSettingsOnStartup;
    }

    public void setValidateSettingsOnStartup(boolean validateSettingsOnStartup) {
        this.validateSettingsOnStartup = validateSettingsOnStartup;
    }

    public Map<String, String> getSettings() {
        return this.settings;
    }

    public Connection getConnection() {
        return this.connection;
    }

    public Query getQuery() {
        return this.query;
    }

    public Pool getPool() {
        return this.pool;
    }

    public Insert getInsert() {
        return this.insert;
    }

    public Limits getLimits() {
        return this.limits;
    }

    public Mapping getMapping() {
        return this.mapping;
    }

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
         * Most bytes of idle column buffers each connection keeps to decode later blocks into; at most this
         * much heap per pooled connection. 0 keeps none.
         */
        private DataSize blockBufferPoolSize = DataSize.ofMegabytes(64);

        /**
         * Whether to prefer chunked packet framing where the server leaves the choice to the client
         * (protocol revision 54470 and later).
         */
        private boolean preferChunked;

        public Duration getConnectTimeout() {
            return this.connectTimeout;
        }

        public void setConnectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
        }

        public Duration getHandshakeTimeout() {
            return this.handshakeTimeout;
        }

        public void setHandshakeTimeout(Duration handshakeTimeout) {
            this.handshakeTimeout = handshakeTimeout;
        }

        public Duration getSocketTimeout() {
            return this.socketTimeout;
        }

        public void setSocketTimeout(Duration socketTimeout) {
            this.socketTimeout = socketTimeout;
        }

        public DataSize getBufferSize() {
            return this.bufferSize;
        }

        public void setBufferSize(DataSize bufferSize) {
            this.bufferSize = bufferSize;
        }

        public DataSize getBlockBufferPoolSize() {
            return this.blockBufferPoolSize;
        }

        public void setBlockBufferPoolSize(DataSize blockBufferPoolSize) {
            this.blockBufferPoolSize = blockBufferPoolSize;
        }

        public boolean isPreferChunked() {
            return this.preferChunked;
        }

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

        public @Nullable Duration getTimeout() {
            return this.timeout;
        }

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

        /** Connections are retired after this age; 0 keeps them. */
        private Duration maxLifetime = Duration.ofMinutes(30);

        /** A connection held longer than this is logged as a possible leak; 0 turns detection off. */
        private Duration leakDetectionThreshold = Duration.ZERO;

        /** How often idle eviction, retirement, min-idle refill and leak checks run. */
        private Duration housekeepingPeriod = Duration.ofSeconds(5);

        public int getMaxSize() {
            return this.maxSize;
        }

        public void setMaxSize(int maxSize) {
            this.maxSize = maxSize;
        }

        public int getMinIdle() {
            return this.minIdle;
        }

        public void setMinIdle(int minIdle) {
            this.minIdle = minIdle;
        }

        public Duration getAcquireTimeout() {
            return this.acquireTimeout;
        }

        public void setAcquireTimeout(Duration acquireTimeout) {
            this.acquireTimeout = acquireTimeout;
        }

        public Duration getValidateAfterIdle() {
            return this.validateAfterIdle;
        }

        public void setValidateAfterIdle(Duration validateAfterIdle) {
            this.validateAfterIdle = validateAfterIdle;
        }

        public Duration getIdleTimeout() {
            return this.idleTimeout;
        }

        public void setIdleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }

        public Duration getMaxLifetime() {
            return this.maxLifetime;
        }

        public void setMaxLifetime(Duration maxLifetime) {
            this.maxLifetime = maxLifetime;
        }

        public Duration getLeakDetectionThreshold() {
            return this.leakDetectionThreshold;
        }

        public void setLeakDetectionThreshold(Duration leakDetectionThreshold) {
            this.leakDetectionThreshold = leakDetectionThreshold;
        }

        public Duration getHousekeepingPeriod() {
            return this.housekeepingPeriod;
        }

        public void setHousekeepingPeriod(Duration housekeepingPeriod) {
            this.housekeepingPeriod = housekeepingPeriod;
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

        public int getBlockRows() {
            return this.blockRows;
        }

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
         * discriminators) may build in one block, or 32 bytes per byte received for the block when more.
         */
        private DataSize maxExpansionSize = DataSize.ofMegabytes(256);

        public int getMaxRowsPerBlock() {
            return this.maxRowsPerBlock;
        }

        public void setMaxRowsPerBlock(int maxRowsPerBlock) {
            this.maxRowsPerBlock = maxRowsPerBlock;
        }

        public DataSize getMaxStringSize() {
            return this.maxStringSize;
        }

        public void setMaxStringSize(DataSize maxStringSize) {
            this.maxStringSize = maxStringSize;
        }

        public DataSize getMaxColumnSize() {
            return this.maxColumnSize;
        }

        public void setMaxColumnSize(DataSize maxColumnSize) {
            this.maxColumnSize = maxColumnSize;
        }

        public int getMaxArrayElements() {
            return this.maxArrayElements;
        }

        public void setMaxArrayElements(int maxArrayElements) {
            this.maxArrayElements = maxArrayElements;
        }

        public int getMaxColumns() {
            return this.maxColumns;
        }

        public void setMaxColumns(int maxColumns) {
            this.maxColumns = maxColumns;
        }

        public DataSize getMaxFrameSize() {
            return this.maxFrameSize;
        }

        public void setMaxFrameSize(DataSize maxFrameSize) {
            this.maxFrameSize = maxFrameSize;
        }

        public DataSize getMaxExpansionSize() {
            return this.maxExpansionSize;
        }

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

        public AccessMode getAccessMode() {
            return this.accessMode;
        }

        public void setAccessMode(AccessMode accessMode) {
            this.accessMode = accessMode;
        }

        public UnmappedColumns getUnmappedColumns() {
            return this.unmappedColumns;
        }

        public void setUnmappedColumns(UnmappedColumns unmappedColumns) {
            this.unmappedColumns = unmappedColumns;
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

        public @Nullable Boolean getEnabled() {
            return this.enabled;
        }

        public void setEnabled(@Nullable Boolean enabled) {
            this.enabled = enabled;
        }

        public @Nullable String getBundle() {
            return this.bundle;
        }

        public void setBundle(@Nullable String bundle) {
            this.bundle = bundle;
        }

        public boolean isVerifyHostname() {
            return this.verifyHostname;
        }

        public void setVerifyHostname(boolean verifyHostname) {
            this.verifyHostname = verifyHostname;
        }

        public @Nullable String getServerName() {
            return this.serverName;
        }

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
