package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.mapping.Mappers;
import dev.clickhousetcp.mapping.MappingConfig;
import dev.clickhousetcp.observe.ClickHouseTcpObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import dev.clickhousetcp.protocol.ServerHello;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The entry point: a thread-safe client for one ClickHouse server over the native TCP protocol, with
 * a bounded connection pool.
 *
 * <pre>{@code
 * try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host("localhost").port(9000).build()) {
 *     client.execute("CREATE TABLE t (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
 *     client.insert("t", List.of("id", "name"), List.of(new Object[] {1L, "a"}, new Object[] {2L, "b"}));
 *     try (QueryResult r = client.query("SELECT id, name FROM t")) {
 *         for (Block b : r) {
 *             Int64Column ids = (Int64Column) b.column(0);   // no boxing
 *             ...
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>All methods may be called from any thread concurrently; each call borrows a pooled connection
 * for its duration ({@link #query(String)} until the returned result is closed). Errors are
 * {@link ClickHouseException} subtypes; a server error carries ClickHouse's code and name.
 */
public final class ClickHouseTcpClient extends QueryOperations implements AutoCloseable {
    private final ConnectionPool pool;
    private final String name;

    private ClickHouseTcpClient(Builder b, ConnectionConfig cc, List<Endpoint> endpoints) {
        super(b.insertBlockRows, new Mappers(b.mapping), b.defaultQueryTimeout,
                Instrumentation.of(b.observationRegistry, b.observationConvention, b.name, cc, endpoints));
        this.name = b.name;
        this.pool = new ConnectionPool(cc, new PoolConfig(b.maxPoolSize, b.minIdle, b.acquireTimeout, b.idleTimeout,
                b.maxLifetime, b.validateAfterIdle, b.leakDetectionThreshold, endpoints, b.loadBalancing,
                b.failoverBackoff, b.housekeepingPeriod));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The client's name ({@link Builder#name(String)}), as its observations report it. */
    public String name() {
        return name;
    }

    /** Whether calls make observations (an {@link ObservationRegistry} other than the no-op one was given). */
    public boolean isObserved() {
        return instrumentation != null;
    }

    /** The connection settings (password hidden in {@code toString}). */
    public ConnectionConfig config() {
        return pool.config();
    }

    /** The pool settings: size limits, timeouts, the endpoints and how connections spread over them. */
    public PoolConfig poolConfig() {
        return pool.poolConfig();
    }

    /** Pool statistics snapshot. */
    public PoolStats poolStats() {
        return pool.stats();
    }

    /**
     * Per endpoint, the server's Hello to the most recent connection the pool opened to it; endpoints
     * not connected to yet are absent. Never opens a connection (unlike {@link #serverInfo()}).
     * Thread-safe; the map is a snapshot.
     */
    public Map<Endpoint, ServerHello> serverHellos() {
        return pool.serverHellos();
    }

    /** The timeout of calls whose options set none, or {@code null} for none. */
    public Duration defaultQueryTimeout() {
        return defaultQueryTimeout;
    }

    /** Rows per native block sent by row and object inserts. */
    public int insertBlockRows() {
        return insertBlockRows;
    }

    /**
     * Opens a session: one connection pinned for the session's lifetime, so temporary tables and
     * {@code SET} statements persist across its calls. Closing the session closes that connection
     * (its state must not leak into other borrowers). Not thread-safe: one caller at a time.
     */
    public ClickHouseSession openSession() {
        return new ClickHouseSession(pool.acquire(), insertBlockRows, mappers(), defaultQueryTimeout, instrumentation);
    }

    @Override
    ConnectionLease acquire(Budget budget) {
        return pool.acquire(budget);
    }

    @Override
    boolean retriesUnansweredReads() {
        return true;
    }

    /** Closes idle pooled connections; connections in use close when released. */
    @Override
    public void close() {
        pool.close();
    }

    @Override
    public String toString() {
        return "ClickHouseTcpClient[" + pool.config() + "]";
    }

    /** Builder; not thread-safe. */
    public static final class Builder {
        private final ConnectionConfig.Builder config = ConnectionConfig.builder();
        private int maxPoolSize = 20;
        private int minIdle;
        private Duration acquireTimeout = Duration.ofSeconds(30);
        private Duration validateAfterIdle = Duration.ofSeconds(30);
        private Duration idleTimeout = Duration.ofMinutes(10);
        private Duration maxLifetime = Duration.ofMinutes(30);
        private Duration leakDetectionThreshold = Duration.ZERO;
        private Duration failoverBackoff = Duration.ofSeconds(10);
        private Duration housekeepingPeriod = Duration.ofSeconds(5);
        private final List<Endpoint> endpoints = new ArrayList<>();
        private LoadBalancing loadBalancing = LoadBalancing.IN_ORDER;
        private int insertBlockRows = 65_536;
        private MappingConfig mapping = MappingConfig.DEFAULT;
        private Duration defaultQueryTimeout;
        private String name = "default";
        private ObservationRegistry observationRegistry;
        private ClickHouseTcpObservationConvention observationConvention;

        /**
         * The client's name, reported by its observations as {@code clickhouse.client.name} to tell
         * clients apart (default {@code default}; Spring Boot's auto-configuration uses the bean name).
         * Keep it to a few fixed values: it becomes a metric tag.
         */
        public Builder name(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("name must not be blank");
            }
            this.name = name;
            return this;
        }

        /**
         * Makes one Micrometer {@link io.micrometer.observation.Observation} per client call (query,
         * statement, insert, ping; sessions' calls too), documented by
         * {@link dev.clickhousetcp.observe.ClickHouseTcpObservationDocumentation}; with Micrometer
         * Tracing's propagating handler registered, the call's span context also reaches the server
         * (see {@code docs/observability.md}). {@code null} or {@link ObservationRegistry#NOOP} (the
         * default): no observations, and no cost beyond a null check per call.
         */
        public Builder observationRegistry(ObservationRegistry registry) {
            this.observationRegistry = registry;
            return this;
        }

        /**
         * Replaces the default observation convention
         * ({@link dev.clickhousetcp.observe.DefaultClickHouseTcpObservationConvention}): observation
         * name, span name and key values. It takes precedence over conventions registered globally on the
         * registry (Micrometer's order: this one, else a matching global one, else the default).
         * {@code null}: the default.
         */
        public Builder observationConvention(ClickHouseTcpObservationConvention convention) {
            this.observationConvention = convention;
            return this;
        }

        /**
         * Configures the client from a URL such as
         * {@code clickhouse://user:password@host1:9000,host2:9000/db?compression=lz4&secure=true&max_threads=4}:
         * hosts (several become {@link #endpoints(List)}), user, password, database, the client options
         * {@code secure}, {@code compression}, {@code zstd_level} and {@code client_name}, and every other
         * query parameter as a ClickHouse setting. See {@link ClickHouseUrl} for the syntax and defaults.
         * The URL's parts replace what was configured before; call other methods afterwards to override
         * them. {@code secure=true} connects with TLS through the JVM's trust store unless
         * {@link #tls(TlsConfig)} was set before; hosts without a port then use 9440 (else 9000).
         *
         * @throws IllegalArgumentException for a malformed URL (the message never contains the password)
         */
        public Builder url(String url) {
            ClickHouseUrl parsed = ClickHouseUrl.parse(url);
            boolean tls = config.build().tls() != null;
            if (parsed.secure().isPresent() && parsed.secure().get() != tls) {
                tls = parsed.secure().get();
                config.tls(tls ? TlsConfig.builder().build() : null); // the JVM's trust store
            }
            int defaultPort = tls ? ClickHouseUrl.DEFAULT_SECURE_PORT : ClickHouseUrl.DEFAULT_PORT;
            List<Endpoint> hosts = parsed.endpoints(defaultPort);
            if (hosts.size() == 1) {
                config.host(hosts.get(0).host()).port(hosts.get(0).port());
                endpoints.clear();
            } else if (hosts.size() > 1) {
                endpoints.clear();
                endpoints.addAll(hosts);
            }
            parsed.user().ifPresent(config::user);
            parsed.password().ifPresent(config::password);
            parsed.database().ifPresent(config::database);
            parsed.clientName().ifPresent(config::clientName);
            parsed.compression().ifPresent(config::compression);
            config.settings(parsed.settings());
            return this;
        }

        /**
         * Timeout of every call whose {@link QueryOptions} (or {@link InsertOptions}) set none, with the
         * same meaning as {@link QueryOptions.Builder#timeout(Duration)} (default none; {@code null}
         * turns it off). It applies to sessions opened from this client too.
         */
        public Builder defaultQueryTimeout(Duration timeout) {
            if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
                throw new IllegalArgumentException("defaultQueryTimeout must be positive: " + timeout);
            }
            this.defaultQueryTimeout = timeout;
            return this;
        }

        /**
         * How {@code query(sql, Class)} and object inserts reach constructors and properties, and what
         * happens to result columns no property matches (default {@link MappingConfig#DEFAULT}).
         */
        public Builder mapping(MappingConfig mapping) {
            this.mapping = java.util.Objects.requireNonNull(mapping, "mapping");
            return this;
        }

        /**
         * Several servers (replicas) as {@code host[:port]} strings; the port defaults to
         * {@link #port(int)}'s value (9000). Replaces {@link #host(String)}/{@link #port(int)} as the
         * connection target. See {@link #loadBalancing(LoadBalancing)}.
         */
        public Builder endpoints(List<String> hostPorts) {
            if (hostPorts == null || hostPorts.isEmpty()) {
                throw new IllegalArgumentException("endpoints must name at least one host[:port]");
            }
            endpoints.clear();
            int defaultPort = config.build().port();
            for (String hp : hostPorts) {
                endpoints.add(Endpoint.parse(hp, defaultPort));
            }
            return this;
        }

        /** How connections spread over {@link #endpoints(List)} (default {@link LoadBalancing#IN_ORDER}). */
        public Builder loadBalancing(LoadBalancing strategy) {
            this.loadBalancing = strategy;
            return this;
        }

        /** How long an endpoint that failed to connect is skipped (default 10 s). */
        public Builder failoverBackoff(Duration d) {
            this.failoverBackoff = d;
            return this;
        }

        /** Idle connections kept open (default 0). */
        public Builder minIdle(int n) {
            this.minIdle = n;
            return this;
        }

        /** Idle connections above min idle are closed after this (default 10 min; zero = never). */
        public Builder idleTimeout(Duration d) {
            this.idleTimeout = d;
            return this;
        }

        /** Connections are retired after this age (default 30 min; zero = never). */
        public Builder maxLifetime(Duration d) {
            this.maxLifetime = d;
            return this;
        }

        /** Warn (with the borrower's stack) about connections held longer than this (default zero = off). */
        public Builder leakDetectionThreshold(Duration d) {
            this.leakDetectionThreshold = d;
            return this;
        }

        /** How often the pool's housekeeping runs (default 5 s). */
        public Builder housekeepingPeriod(Duration d) {
            this.housekeepingPeriod = d;
            return this;
        }

        /** Prefer chunked packet framing where the server leaves the choice to the client (default false). */
        public Builder preferChunked(boolean chunked) {
            config.preferChunked(chunked);
            return this;
        }

        /** Connects with TLS (see {@link TlsConfig}); remember the secure port (9440 by default). */
        public Builder tls(TlsConfig tls) {
            config.tls(tls);
            return this;
        }

        /** Upper bounds for sizes read from the wire. */
        public Builder limits(dev.clickhousetcp.types.DecodeLimits limits) {
            config.limits(limits);
            return this;
        }

        /** Socket buffer size in bytes (default 64 KiB). */
        public Builder bufferSize(int bytes) {
            config.bufferSize(bytes);
            return this;
        }

        /**
         * Most bytes of idle column buffers each connection keeps for later blocks (default 64 MiB; 0 keeps
         * none); see {@link ConnectionConfig.Builder#blockBufferPoolSize(long)}.
         *
         * @throws IllegalArgumentException when {@code bytes} is negative
         */
        public Builder blockBufferPoolSize(long bytes) {
            config.blockBufferPoolSize(bytes);
            return this;
        }

        /** Network compression of query data blocks (default LZ4); see {@link ConnectionConfig.Builder#compression}. */
        public Builder compression(Compression compression) {
            config.compression(compression);
            return this;
        }

        public Builder host(String host) {
            config.host(host);
            return this;
        }

        public Builder port(int port) {
            config.port(port);
            return this;
        }

        public Builder database(String database) {
            config.database(database);
            return this;
        }

        public Builder user(String user) {
            config.user(user);
            return this;
        }

        public Builder password(String password) {
            config.password(password);
            return this;
        }

        public Builder clientName(String name) {
            config.clientName(name);
            return this;
        }

        public Builder connectTimeout(Duration d) {
            config.connectTimeout(d);
            return this;
        }

        public Builder handshakeTimeout(Duration d) {
            config.handshakeTimeout(d);
            return this;
        }

        public Builder socketTimeout(Duration d) {
            config.socketTimeout(d);
            return this;
        }

        public Builder setting(String name, Object value) {
            config.setting(name, value);
            return this;
        }

        public Builder settings(Map<String, ?> settings) {
            config.settings(settings);
            return this;
        }

        /** Maximum pooled connections (default 20). */
        public Builder maxPoolSize(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxPoolSize must be at least 1");
            }
            this.maxPoolSize = n;
            return this;
        }

        /** How long {@code acquire} waits for a free connection (default 30 s). */
        public Builder acquireTimeout(Duration d) {
            this.acquireTimeout = d;
            return this;
        }

        /** Idle time after which a pooled connection is pinged before reuse (default 30 s). */
        public Builder validateAfterIdle(Duration d) {
            this.validateAfterIdle = d;
            return this;
        }

        /** Rows per wire block for row inserts (default 65 536). */
        public Builder insertBlockRows(int rows) {
            if (rows < 1) {
                throw new IllegalArgumentException("insertBlockRows must be at least 1");
            }
            this.insertBlockRows = rows;
            return this;
        }

        public ClickHouseTcpClient build() {
            ConnectionConfig cc = config.build();
            List<Endpoint> all = endpoints.isEmpty() ? List.of(new Endpoint(cc.host(), cc.port())) : List.copyOf(endpoints);
            return new ClickHouseTcpClient(this, cc, all);
        }
    }
}
