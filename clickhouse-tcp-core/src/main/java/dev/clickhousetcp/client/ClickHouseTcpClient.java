package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.mapping.Mappers;
import dev.clickhousetcp.mapping.MappingConfig;
import dev.clickhousetcp.observe.ClickHouseTcpObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import dev.clickhousetcp.protocol.ServerHello;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

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
 *
 * <p>Every call gets a connection in the state the configuration gives it: statements that would change
 * the server session of the pooled connection running them ({@code USE}, {@code SET}, {@code SET ROLE},
 * temporary tables, transactions) are refused with a
 * {@link dev.clickhousetcp.ClickHouseSessionRequiredException}; run them in a session ({@link #openSession()}).
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
                b.failoverBackoff, b.housekeepingPeriod, b.shutdownGrace));
    }

    /**
     * A builder with the defaults ({@code localhost:9000}, user {@code default}, up to 20 pooled connections).
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The client's name ({@link Builder#name(String)}), as its observations report it.
     *
     * @return the name, never blank (default {@code default})
     */
    public String name() {
        return name;
    }

    /**
     * Whether calls make observations (an {@link ObservationRegistry} other than the no-op one was given).
     *
     * @return {@code true} when each call is observed
     */
    public boolean isObserved() {
        return instrumentation != null;
    }

    /**
     * The connection settings (password hidden in {@code toString}).
     *
     * @return the configuration every pooled connection is opened with (with several endpoints, each
     *         connection uses its own endpoint's host and port instead of these)
     */
    public ConnectionConfig config() {
        return pool.config();
    }

    /**
     * The pool settings: size limits, timeouts, the endpoints and how connections spread over them.
     *
     * @return the pool configuration
     */
    public PoolConfig poolConfig() {
        return pool.poolConfig();
    }

    /**
     * Pool statistics snapshot.
     *
     * @return the counts of this moment (open, idle, in use, waiting...); not updated afterwards
     */
    public PoolStats poolStats() {
        return pool.stats();
    }

    /**
     * Per endpoint, the server's Hello to the most recent connection the pool opened to it; endpoints
     * not connected to yet are absent. Never opens a connection (unlike {@link #serverInfo()}).
     * Thread-safe; the map is a snapshot.
     *
     * @return endpoint to the last Hello received from it
     */
    public Map<Endpoint, ServerHello> serverHellos() {
        return pool.serverHellos();
    }

    /**
     * The timeout of calls whose options set none, or {@code null} for none.
     *
     * @return the default timeout, or {@code null}
     */
    public Duration defaultQueryTimeout() {
        return defaultQueryTimeout;
    }

    /**
     * Rows per native block sent by row and object inserts.
     *
     * @return the block size used when {@link InsertOptions#maxRowsPerBlock()} is 0, at least 1
     */
    public int insertBlockRows() {
        return insertBlockRows;
    }

    /**
     * Opens a session: one connection pinned for the session's lifetime, so temporary tables and
     * {@code SET} statements persist across its calls. Closing the session closes that connection
     * (its state must not leak into other borrowers); {@link ClickHouseSession#release()} gives it back for
     * reuse instead when no statement changed that state. Not thread-safe: one caller at a time.
     *
     * @return the session, holding one of the pool's connections until it is closed
     */
    public ClickHouseSession openSession() {
        return new ClickHouseSession(pool.acquire(), insertBlockRows, mappers(), defaultQueryTimeout, instrumentation);
    }

    /**
     * Runs {@code fn} with a pooled connection only if one is to be had without waiting for another
     * borrower: an idle one, or a new one when the pool is below its maximum size, opened (connect and
     * handshake) within {@code timeout} as well as the acquire, connect and handshake timeouts. The
     * connection goes back to the pool afterwards, or is discarded when no longer usable, as for
     * {@link #withConnection}. For checks that must not queue behind a busy pool, such as health checks.
     * Thread-safe.
     *
     * @param <T>     the callback's result type
     * @param timeout the longest time to open a new connection; it acts as this call's acquire timeout
     *                (the exception then names {@code acquireTimeout} with this value)
     * @param fn      the callback; the connection must not escape it
     * @return what {@code fn} returned, or empty when every pooled connection is in use and the pool is at
     *         its maximum size (saturated); {@code fn} then did not run
     * @throws ClickHouseTimeoutException when opening a new connection took longer than allowed
     * @throws ClickHouseException        when opening one failed on every endpoint, or the pool is closed
     */
    public <T> Optional<T> tryWithConnection(Duration timeout, Function<ClickHouseConnection, T> fn) {
        Objects.requireNonNull(fn, "fn");
        try (ConnectionLease lease = pool.tryAcquire(Budget.of(Objects.requireNonNull(timeout, "timeout"),
                Deadline.ACQUIRE))) {
            return (lease == null) ? Optional.empty() : Optional.ofNullable(fn.apply(lease.connection()));
        }
    }

    /**
     * Runs {@code fn} with a connection of its own, outside the pool: opened on an endpoint picked (and
     * failed over) as for pooled connections, within {@code timeout} as well as the connect and handshake
     * timeouts, and closed afterwards. It does not count towards the pool's maximum size, its statistics or
     * its limits, so it works while every pooled connection is busy. For checks that must reach the server
     * whatever the pool is doing, such as health checks; everything else should use the pool. Thread-safe.
     *
     * @param <T>     the callback's result type
     * @param timeout the longest time to open the connection (the exception then names
     *                {@code acquireTimeout} with this value)
     * @param fn      the callback; the connection must not escape it
     * @return what {@code fn} returned
     * @throws ClickHouseTimeoutException when opening the connection took longer than allowed
     * @throws ClickHouseException        when opening it failed on every endpoint, or the client is closed
     */
    public <T> T withUnpooledConnection(Duration timeout, Function<ClickHouseConnection, T> fn) {
        Objects.requireNonNull(fn, "fn");
        try (ClickHouseConnection connection = pool.openUnpooled(Budget.of(Objects.requireNonNull(timeout,
                "timeout"), Deadline.ACQUIRE))) {
            return fn.apply(connection);
        }
    }

    /**
     * {@link #withUnpooledConnection(Duration, Function)} on a given server: the connection goes to
     * {@code endpoint} (one of {@link PoolConfig#endpoints()}, or any other), with no failover; the
     * pool's back-off of that endpoint is left as it is. For checks of one endpoint among several.
     * Thread-safe.
     *
     * @param <T>      the callback's result type
     * @param endpoint the server to connect to, with this client's credentials, TLS and other settings
     * @param timeout  the longest time to open the connection (the exception then names
     *                 {@code acquireTimeout} with this value)
     * @param fn       the callback; the connection must not escape it
     * @return what {@code fn} returned
     * @throws ClickHouseTimeoutException when opening the connection took longer than allowed
     * @throws ClickHouseException        when opening it failed, or the client is closed
     */
    public <T> T withUnpooledConnection(Endpoint endpoint, Duration timeout, Function<ClickHouseConnection, T> fn) {
        Objects.requireNonNull(fn, "fn");
        try (ClickHouseConnection connection = pool.openUnpooled(Objects.requireNonNull(endpoint, "endpoint"),
                Budget.of(Objects.requireNonNull(timeout, "timeout"), Deadline.ACQUIRE))) {
            return fn.apply(connection);
        }
    }

    @Override
    ConnectionLease acquire(Budget budget) {
        return pool.acquire(budget);
    }

    @Override
    boolean retriesUnansweredReads() {
        return true;
    }

    @Override
    boolean runsSessionStatements() {
        return false;
    }

    /**
     * Closes the client: from now on calls that need a pooled connection fail ("connection pool is
     * closed") and idle connections are closed; then it waits up to the shutdown grace
     * ({@link Builder#shutdownGrace(Duration)}, 10 s by default) for the borrowed ones to be given back, so
     * queries, inserts and sessions under way finish (their calls are not cut short, and a session may go
     * on until it is closed). Connections still in use when the grace has passed are ended (a FIN, never a
     * reset), which makes the server cancel their queries (ClickHouse cancels a query whose client has
     * gone); their borrowers get a {@link dev.clickhousetcp.ClickHouseConnectionException} saying the client
     * was closed past its grace (for an insert, {@code insertMayHaveBeenApplied()} says whether rows had
     * reached the server: blocks it had received may stay written), and a warning logs their query ids.
     * Returns within about the grace. The connections the closing thread borrowed itself (close called
     * inside {@code withConnection} or a row callback, or with a session opened on this thread still open)
     * are not waited for, as it cannot give them back meanwhile: they are ended with the others, and its
     * next use of one throws a {@link dev.clickhousetcp.ClickHouseConnectionException}. Idempotent; a second
     * call while the first waits returns at once.
     * An interrupt during the wait ends it early (the connections are then ended) and stays set.
     */
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
        private Duration shutdownGrace = PoolConfig.DEFAULT_SHUTDOWN_GRACE;
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
         *
         * @param name the name; not blank
         * @return this builder
         * @throws IllegalArgumentException when {@code name} is {@code null} or blank
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
         *
         * @param registry the registry, or {@code null} for none
         * @return this builder
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
         *
         * @param convention the convention, or {@code null} for the default one
         * @return this builder
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
         * @param url a {@code clickhouse://} URL
         * @return this builder
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
         *
         * @param timeout a positive duration, or {@code null} for none
         * @return this builder
         * @throws IllegalArgumentException when {@code timeout} is zero or negative
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
         *
         * @param mapping the mapping configuration; not {@code null}
         * @return this builder
         */
        public Builder mapping(MappingConfig mapping) {
            this.mapping = java.util.Objects.requireNonNull(mapping, "mapping");
            return this;
        }

        /**
         * Several servers (replicas) as {@code host[:port]} strings; the port defaults to
         * {@link #port(int)}'s value (9000). Replaces {@link #host(String)}/{@link #port(int)} as the
         * connection target. See {@link #loadBalancing(LoadBalancing)}.
         *
         * @param hostPorts at least one {@code host[:port]}; IPv6 addresses in brackets
         *                  ({@code [::1]:9000}); they replace the endpoints given before
         * @return this builder
         * @throws IllegalArgumentException when the list is {@code null} or empty, or an entry is malformed
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

        /**
         * How connections spread over {@link #endpoints(List)} (default {@link LoadBalancing#IN_ORDER}).
         *
         * @param strategy the strategy
         * @return this builder
         */
        public Builder loadBalancing(LoadBalancing strategy) {
            this.loadBalancing = strategy;
            return this;
        }

        /**
         * How long an endpoint that failed to connect is skipped (default 10 s).
         *
         * @param d the backoff
         * @return this builder
         */
        public Builder failoverBackoff(Duration d) {
            this.failoverBackoff = d;
            return this;
        }

        /**
         * Idle connections kept open (default 0).
         *
         * @param n how many idle connections the housekeeping keeps open, at most {@code maxPoolSize}
         * @return this builder
         */
        public Builder minIdle(int n) {
            this.minIdle = n;
            return this;
        }

        /**
         * Idle connections above min idle are closed after this (default 10 min; zero = never).
         *
         * @param d the idle time
         * @return this builder
         */
        public Builder idleTimeout(Duration d) {
            this.idleTimeout = d;
            return this;
        }

        /**
         * Connections are retired after this age (default 30 min; zero = never). Above 10 s each
         * connection's lifetime is this less a random variance of up to 2.5 % of it, so connections
         * opened together are not all retired at once; a lent connection is retired when given back.
         *
         * @param d the longest lifetime of a connection
         * @return this builder
         */
        public Builder maxLifetime(Duration d) {
            this.maxLifetime = d;
            return this;
        }

        /**
         * Warn (with the borrower's stack) about connections held longer than this (default zero = off).
         *
         * @param d the threshold, or zero to turn the check off
         * @return this builder
         */
        public Builder leakDetectionThreshold(Duration d) {
            this.leakDetectionThreshold = d;
            return this;
        }

        /**
         * How often the pool's housekeeping runs (default 5 s).
         *
         * @param d the period between two runs
         * @return this builder
         */
        public Builder housekeepingPeriod(Duration d) {
            this.housekeepingPeriod = d;
            return this;
        }

        /**
         * Prefer chunked packet framing where the server leaves the choice to the client (default false).
         *
         * @param chunked {@code true} to ask for chunked framing
         * @return this builder
         */
        public Builder preferChunked(boolean chunked) {
            config.preferChunked(chunked);
            return this;
        }

        /**
         * Connects with TLS (see {@link TlsConfig}); remember the secure port (9440 by default).
         *
         * @param tls the TLS settings, or {@code null} for plain TCP
         * @return this builder
         */
        public Builder tls(TlsConfig tls) {
            config.tls(tls);
            return this;
        }

        /**
         * Upper bounds for sizes read from the wire.
         *
         * @param limits the limits (default {@link dev.clickhousetcp.data.DecodeLimits#DEFAULT}); not {@code null}
         * @return this builder
         */
        public Builder limits(dev.clickhousetcp.data.DecodeLimits limits) {
            config.limits(limits);
            return this;
        }

        /**
         * Socket buffer size in bytes (default 64 KiB).
         *
         * @param bytes at least 1024
         * @return this builder
         * @throws IllegalArgumentException when {@code bytes} is below 1024
         */
        public Builder bufferSize(int bytes) {
            config.bufferSize(bytes);
            return this;
        }

        /**
         * Most bytes of idle column buffers the client keeps for later blocks, one budget shared by all its
         * connections (default 32 MiB; 0 keeps none); see {@link ConnectionConfig.Builder#blockBufferPoolSize(long)}.
         *
         * @param bytes at least 0
         * @return this builder
         * @throws IllegalArgumentException when {@code bytes} is negative
         */
        public Builder blockBufferPoolSize(long bytes) {
            config.blockBufferPoolSize(bytes);
            return this;
        }

        /**
         * Network compression of query data blocks (default LZ4); see {@link ConnectionConfig.Builder#compression}.
         *
         * @param compression the compression; not {@code null}
         * @return this builder
         */
        public Builder compression(Compression compression) {
            config.compression(compression);
            return this;
        }

        /**
         * The server's host (default {@code localhost}); ignored when {@link #endpoints(List)} names several.
         *
         * @param host the host name or address
         * @return this builder
         */
        public Builder host(String host) {
            config.host(host);
            return this;
        }

        /**
         * The server's native port (default 9000; the TLS port is 9440), also the default port of
         * {@link #endpoints(List)} given afterwards.
         *
         * @param port 1 to 65535
         * @return this builder
         */
        public Builder port(int port) {
            config.port(port);
            return this;
        }

        /**
         * The default database of every connection (default {@code default}).
         *
         * @param database the database name; {@code null} or empty for the user's default database on the server
         * @return this builder
         */
        public Builder database(String database) {
            config.database(database);
            return this;
        }

        /**
         * The user to authenticate as (default {@code default}).
         *
         * @param user the user name; {@code null} means {@code default}
         * @return this builder
         */
        public Builder user(String user) {
            config.user(user);
            return this;
        }

        /**
         * The user's password (default empty).
         *
         * @param password the password; {@code null} means empty
         * @return this builder
         */
        public Builder password(String password) {
            config.password(password);
            return this;
        }

        /**
         * The client name reported to the server (visible in {@code system.query_log.client_name}).
         *
         * @param name the name (default {@code clickhouse-tcp})
         * @return this builder
         */
        public Builder clientName(String name) {
            config.clientName(name);
            return this;
        }

        /**
         * Time allowed to establish a TCP connection (default 10 s).
         *
         * @param d a positive duration
         * @return this builder
         * @throws IllegalArgumentException when {@code d} is {@code null}, zero or negative
         */
        public Builder connectTimeout(Duration d) {
            config.connectTimeout(d);
            return this;
        }

        /**
         * Time allowed for the TLS handshake and the Hello exchange after TCP connect (default 30 s).
         *
         * @param d a positive duration
         * @return this builder
         * @throws IllegalArgumentException when {@code d} is {@code null}, zero or negative
         */
        public Builder handshakeTimeout(Duration d) {
            config.handshakeTimeout(d);
            return this;
        }

        /**
         * Longest silence allowed while waiting for the next bytes of a response (default 300 s).
         *
         * @param d a positive duration
         * @return this builder
         * @throws IllegalArgumentException when {@code d} is {@code null}, zero or negative
         */
        public Builder socketTimeout(Duration d) {
            config.socketTimeout(d);
            return this;
        }

        /**
         * Adds a ClickHouse setting sent with every query; per-query settings override it.
         *
         * @param name  the setting name (e.g. {@code max_threads})
         * @param value the value, not {@code null}; sent as its {@code String.valueOf} text
         * @return this builder
         * @throws IllegalArgumentException when the name is {@code null} or blank, or the value is {@code null}
         */
        public Builder setting(String name, Object value) {
            config.setting(name, value);
            return this;
        }

        /**
         * Adds ClickHouse settings sent with every query, as {@link #setting(String, Object)} for each entry.
         *
         * @param settings setting name to value; added to the settings so far
         * @return this builder
         */
        public Builder settings(Map<String, ?> settings) {
            config.settings(settings);
            return this;
        }

        /**
         * Maximum pooled connections (default 20).
         *
         * @param n at least 1; sessions count against it
         * @return this builder
         * @throws IllegalArgumentException when {@code n} is below 1
         */
        public Builder maxPoolSize(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxPoolSize must be at least 1");
            }
            this.maxPoolSize = n;
            return this;
        }

        /**
         * How long a call waits for a pooled connection (default 30 s), opening a new one included (its
         * connect and handshake); past it, a {@link dev.clickhousetcp.ClickHouseTimeoutException} with
         * deadline {@code ACQUIRE} names it. A shorter query timeout bounds the wait instead.
         *
         * @param d the longest wait, which also bounds opening a new connection
         * @return this builder
         */
        public Builder acquireTimeout(Duration d) {
            this.acquireTimeout = d;
            return this;
        }

        /**
         * Idle time after which a pooled connection is pinged before reuse (default 30 s).
         *
         * @param d the idle time
         * @return this builder
         */
        public Builder validateAfterIdle(Duration d) {
            this.validateAfterIdle = d;
            return this;
        }

        /**
         * How long {@link ClickHouseTcpClient#close()} waits for borrowed connections (running queries and
         * inserts, open results and sessions) to be given back before it ends the ones still in use, which
         * cancels their server queries (default 10 s; zero ends them at once).
         *
         * @param d the longest wait, zero or positive
         * @return this builder
         * @throws IllegalArgumentException when {@code d} is {@code null} or negative
         */
        public Builder shutdownGrace(Duration d) {
            if (d == null || d.isNegative()) {
                throw new IllegalArgumentException("shutdownGrace must be zero or positive, got " + d);
            }
            this.shutdownGrace = d;
            return this;
        }

        /**
         * Rows per wire block for row inserts (default 65 536).
         *
         * @param rows at least 1; {@link InsertOptions.Builder#maxRowsPerBlock(int)} overrides it per insert
         * @return this builder
         * @throws IllegalArgumentException when {@code rows} is below 1
         */
        public Builder insertBlockRows(int rows) {
            if (rows < 1) {
                throw new IllegalArgumentException("insertBlockRows must be at least 1");
            }
            this.insertBlockRows = rows;
            return this;
        }

        /**
         * Builds the client and starts its pool's housekeeping thread. No connection is opened on this
         * thread; the pool opens them as calls need them (and in the background up to {@code minIdle}).
         *
         * @return a new client, to be closed when no longer used
         * @throws IllegalArgumentException when a setting is invalid (a port outside 1 to 65535,
         *                                  {@code minIdle} above {@code maxPoolSize}...)
         */
        public ClickHouseTcpClient build() {
            ConnectionConfig cc = config.build();
            List<Endpoint> all = endpoints.isEmpty() ? List.of(new Endpoint(cc.host(), cc.port())) : List.copyOf(endpoints);
            return new ClickHouseTcpClient(this, cc, all);
        }
    }
}
