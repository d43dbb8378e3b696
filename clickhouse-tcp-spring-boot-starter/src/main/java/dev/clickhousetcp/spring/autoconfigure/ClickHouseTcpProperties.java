package dev.clickhousetcp.spring.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for the ClickHouse native TCP client, bound from {@code clickhouse.tcp.*}.
 *
 * <pre>{@code
 * clickhouse:
 *   tcp:
 *     host: clickhouse.example.com
 *     port: 9000
 *     database: analytics
 *     username: app
 *     password: ${CLICKHOUSE_PASSWORD}
 *     connection:
 *       socket-timeout: 60s
 *     pool:
 *       max-size: 10
 *     settings:
 *       max_threads: 4
 * }</pre>
 *
 * <p>Where the server is ({@code host}, {@code port}, {@code database}, {@code username},
 * {@code password}) is read through {@link ClickHouseTcpConnectionDetails}: these properties apply
 * only when no other {@code ClickHouseTcpConnectionDetails} bean is defined. Everything else (timeouts,
 * pool, insert block size, settings) always comes from here.
 *
 * <p>Mutable bean, as Spring binding requires; not thread-safe, but only mutated while the context
 * starts. {@link #toString()} never shows the password.
 */
@ConfigurationProperties("clickhouse.tcp")
public class ClickHouseTcpProperties {

    /** Host name or IP address of the ClickHouse server. */
    private String host = "localhost";

    /** Native protocol (TCP) port of the ClickHouse server; not the HTTP port 8123. */
    private int port = 9000;

    /** Default database of every connection. */
    private String database = "default";

    /** User name to authenticate as. */
    private String username = "default";

    /** Password of the user; empty or unset for none. Never logged. */
    private @Nullable String password;

    /**
     * Client name reported to the server (visible as client_name in system.query_log). Unset means
     * the client's own default, "clickhouse-tcp".
     */
    private @Nullable String clientName;

    /** Connection timeouts. */
    private final Connection connection = new Connection();

    /** Connection pool. */
    private final Pool pool = new Pool();

    /** Row inserts. */
    private final Insert insert = new Insert();

    /**
     * ClickHouse settings sent with every query, for example max_threads=4 or
     * max_execution_time=60. Settings given per query override them.
     */
    private final Map<String, String> settings = new LinkedHashMap<>();

    public String getHost() {
        return this.host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public int getPort() {
        return this.port;
    }

    public void setPort(int port) {
        this.port = port;
    }

    public String getDatabase() {
        return this.database;
    }

    public void setDatabase(String database) {
        this.database = database;
    }

    public String getUsername() {
        return this.username;
    }

    public void setUsername(String username) {
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

    public Connection getConnection() {
        return this.connection;
    }

    public Pool getPool() {
        return this.pool;
    }

    public Insert getInsert() {
        return this.insert;
    }

    /**
     * Network compression of data blocks: {@code lz4} (the default, like the server's own network
     * codec), {@code zstd} or {@code none} (fastest on loopback or a fast LAN).
     */
    private String compression = "lz4";

    /**
     * Several servers as {@code host[:port]}; when set, they replace host and port and connections
     * spread over them per {@code load-balancing}.
     */
    private java.util.List<String> endpoints = new java.util.ArrayList<>();

    /** How new connections pick one of several endpoints. */
    private dev.clickhousetcp.client.LoadBalancing loadBalancing = dev.clickhousetcp.client.LoadBalancing.IN_ORDER;

    public String getCompression() {
        return this.compression;
    }

    public void setCompression(String compression) {
        this.compression = compression;
    }

    public java.util.List<String> getEndpoints() {
        return this.endpoints;
    }

    public void setEndpoints(java.util.List<String> endpoints) {
        this.endpoints = endpoints;
    }

    public dev.clickhousetcp.client.LoadBalancing getLoadBalancing() {
        return this.loadBalancing;
    }

    public void setLoadBalancing(dev.clickhousetcp.client.LoadBalancing loadBalancing) {
        this.loadBalancing = loadBalancing;
    }

    public Map<String, String> getSettings() {
        return this.settings;
    }

    @Override
    public String toString() {
        return "ClickHouseTcpProperties[" + this.username + "@" + this.host + ":" + this.port + "/" + this.database
                + ", password=" + PropertiesClickHouseTcpConnectionDetails.mask(this.password)
                + ", clientName=" + this.clientName + ", " + this.connection + ", " + this.pool + ", "
                + this.insert + ", settings=" + this.settings.keySet() + "]";
    }

    /** Timeouts of a single connection. */
    public static class Connection {

        /** Maximum time to establish the TCP connection. */
        private Duration connectTimeout = Duration.ofSeconds(10);

        /**
         * Maximum time to wait for the server's Hello after connecting (idle cloud services can take
         * 20-30 seconds to wake up).
         */
        private Duration handshakeTimeout = Duration.ofSeconds(30);

        /**
         * Longest silence allowed while waiting for the next bytes of a response; long-running queries
         * send progress packets, so this bounds a stalled server, not a slow query.
         */
        private Duration socketTimeout = Duration.ofSeconds(300);

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

        @Override
        public String toString() {
            return "connection[connectTimeout=" + this.connectTimeout + ", handshakeTimeout="
                    + this.handshakeTimeout + ", socketTimeout=" + this.socketTimeout + "]";
        }
    }

    /** The client's connection pool. */
    public static class Pool {

        /** Maximum number of pooled connections, busy and idle together. */
        private int maxSize = 20;

        /** Maximum time a call waits for a free connection when all are busy. */
        private Duration acquireTimeout = Duration.ofSeconds(30);

        /** Idle time after which a pooled connection is validated with a ping before it is reused. */
        private Duration validateAfterIdle = Duration.ofSeconds(30);

        /** Idle connections the pool keeps open. */
        private int minIdle = 0;

        /** Idle connections above the minimum are closed after this long; zero keeps them. */
        private Duration idleTimeout = Duration.ofMinutes(10);

        /** Connections are retired after this age; zero keeps them. */
        private Duration maxLifetime = Duration.ofMinutes(30);

        /** A connection held longer than this is logged as a possible leak; zero turns detection off. */
        private Duration leakDetectionThreshold = Duration.ZERO;

        public int getMinIdle() {
            return this.minIdle;
        }

        public void setMinIdle(int minIdle) {
            this.minIdle = minIdle;
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

        public int getMaxSize() {
            return this.maxSize;
        }

        public void setMaxSize(int maxSize) {
            this.maxSize = maxSize;
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

        @Override
        public String toString() {
            return "pool[maxSize=" + this.maxSize + ", acquireTimeout=" + this.acquireTimeout
                    + ", validateAfterIdle=" + this.validateAfterIdle + "]";
        }
    }

    /** Row-wise inserts ({@code ClickHouseTcpClient.insert}). */
    public static class Insert {

        /** Number of rows sent per native block during a row insert. */
        private int blockRows = 65536;

        public int getBlockRows() {
            return this.blockRows;
        }

        public void setBlockRows(int blockRows) {
            this.blockRows = blockRows;
        }

        @Override
        public String toString() {
            return "insert[blockRows=" + this.blockRows + "]";
        }
    }
}
