package dev.clickhousetcp.client;

import dev.clickhousetcp.protocol.QueryStage;
import dev.clickhousetcp.protocol.TraceContext;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-query options: query_id, settings, server-side parameters ({@code {name:Type}} placeholders),
 * network compression, quota key, trace context, and a listener. Immutable; build with {@link #builder()}.
 */
public final class QueryOptions {
    /** No options. */
    public static final QueryOptions DEFAULT = builder().build();

    private final String queryId;
    private final Map<String, String> settings;
    private final Map<String, String> parameters;
    private final String quotaKey;
    private final TraceContext traceContext;
    private final QueryListener listener;
    private final java.time.Duration timeout;
    private final boolean serverTimeout;
    private final java.util.List<ExternalTable> externalTables;
    private final String database;
    private final Compression compression;
    private final QueryStage stage;
    private final boolean secondary;

    private QueryOptions(Builder b) {
        this.compression = b.compression;
        this.stage = b.stage;
        this.secondary = b.secondary;
        this.timeout = b.timeout;
        this.serverTimeout = b.serverTimeout;
        this.externalTables = java.util.List.copyOf(b.externalTables);
        this.database = b.database;
        this.queryId = b.queryId;
        this.settings = Collections.unmodifiableMap(new LinkedHashMap<>(b.settings));
        this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(b.parameters));
        this.quotaKey = b.quotaKey;
        this.traceContext = b.traceContext;
        this.listener = b.listener;
    }

    /**
     * A builder with no options set.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The query_id, or {@code null} to have one generated (a random UUID).
     *
     * @return the query_id sent with the Query packet, or {@code null}
     */
    public String queryId() {
        return queryId;
    }

    /**
     * The ClickHouse settings of this query, sent after (and overriding) the connection's settings.
     *
     * @return setting name to value as text, in insertion order; unmodifiable
     */
    public Map<String, String> settings() {
        return settings;
    }

    /**
     * The values of the query's {@code {name:Type}} placeholders.
     *
     * @return parameter name to the value already rendered and quoted for the Query packet; unmodifiable
     */
    public Map<String, String> parameters() {
        return parameters;
    }

    /**
     * The quota key sent in this query's ClientInfo.
     *
     * @return the quota key, or {@code null} for the connection's (empty) one
     */
    public String quotaKey() {
        return quotaKey;
    }

    /**
     * The W3C trace context sent in this query's ClientInfo, so the server's spans join the caller's trace.
     * Only a sampled context ({@link TraceContext#sampled()}, W3C flag bit 0) is sent; with the flag clear the
     * query carries no trace context, as ClickHouse records spans for any trace id it receives whatever the
     * flags say.
     *
     * @return the trace context, or {@code null} for none (an observed call then sends its own span's)
     */
    public TraceContext traceContext() {
        return traceContext;
    }

    /**
     * The listener of the query's side packets.
     *
     * @return the listener, {@link QueryListener#NONE} when none was set; never {@code null}
     */
    public QueryListener listener() {
        return listener;
    }

    /**
     * Client-side limit on the whole query, or {@code null}.
     *
     * @return the timeout, positive, or {@code null} for the client's default query timeout
     */
    public java.time.Duration timeout() {
        return timeout;
    }

    /**
     * Whether the timeout is also sent to the server as {@code max_execution_time}.
     *
     * @return {@code true} when set by {@link Builder#timeoutOnServerToo(java.time.Duration)}
     */
    public boolean serverTimeout() {
        return serverTimeout;
    }

    /**
     * Network compression for this query, or {@code null} for the connection's default.
     *
     * @return the compression, or {@code null}
     */
    public Compression compression() {
        return compression;
    }

    /** The processing stage the server runs the query to (normally {@link QueryStage#COMPLETE}). */
    QueryStage stage() {
        return stage;
    }

    /** Whether the query is sent as a secondary (distributed-subquery) query instead of an initial one. */
    boolean secondary() {
        return secondary;
    }

    /**
     * The default database for this query, or {@code null} for the connection's configured one.
     *
     * @return the database name, or {@code null}
     */
    public String database() {
        return database;
    }

    /**
     * Temporary tables sent with the query.
     *
     * @return the external tables in the order they are sent; unmodifiable, empty when none
     */
    public java.util.List<ExternalTable> externalTables() {
        return externalTables;
    }

    /**
     * A builder starting from these options (for derived options such as an insert's deduplication token).
     *
     * @return a new builder holding every option of this object
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.queryId = queryId;
        b.settings.putAll(settings);
        b.parameters.putAll(parameters);
        b.quotaKey = quotaKey;
        b.traceContext = traceContext;
        b.listener = listener;
        b.timeout = timeout;
        b.serverTimeout = serverTimeout;
        b.externalTables.addAll(externalTables);
        b.database = database;
        b.compression = compression;
        b.stage = stage;
        b.secondary = secondary;
        return b;
    }

    /** Builder; not thread-safe. */
    public static final class Builder {
        private String queryId;
        private final Map<String, String> settings = new LinkedHashMap<>();
        private final Map<String, String> parameters = new LinkedHashMap<>();
        private String quotaKey;
        private TraceContext traceContext;
        private QueryListener listener = QueryListener.NONE;
        private java.time.Duration timeout;
        private boolean serverTimeout;
        private final java.util.List<ExternalTable> externalTables = new java.util.ArrayList<>();
        private String database;
        private Compression compression;
        private QueryStage stage = QueryStage.COMPLETE;
        private boolean secondary;

        /**
         * The query_id of the query (visible in {@code system.query_log} and {@code system.processes}).
         *
         * @param queryId the id; {@code null} to have a random UUID generated per query
         * @return this builder
         */
        public Builder queryId(String queryId) {
            this.queryId = queryId;
            return this;
        }

        /**
         * Adds a ClickHouse setting for this query (e.g. {@code max_threads}), overriding the connection's.
         *
         * @param name  the setting name
         * @param value the value, not {@code null}; sent as its {@code String.valueOf} text
         * @return this builder
         * @throws IllegalArgumentException when the name is {@code null} or blank, or the value is {@code null}
         */
        public Builder setting(String name, Object value) {
            settings.put(SqlSettings.checkedName(name), SqlSettings.checkedValue(name, value));
            return this;
        }

        /**
         * Adds ClickHouse settings for this query, as {@link #setting(String, Object)} does for each entry.
         *
         * @param s setting name to value; added to the settings so far
         * @return this builder
         */
        public Builder settings(Map<String, ?> s) {
            s.forEach(this::setting);
            return this;
        }

        /**
         * A value for a {@code {name:Type}} placeholder of the query. The server parses the value's text
         * form as the placeholder's type, so give the Java value ({@code 5}, {@code "it's"},
         * {@code LocalDate.of(2024, 1, 2)}, a {@code List} for an Array...): it is rendered as
         * ClickHouse text and quoted as the protocol requires (native protocol parameters are
         * quoted strings whose content is the value in escaped text format). {@code null} is NULL.
         * Needs a server of protocol revision 54459 or newer; the query fails before it is sent otherwise.
         *
         * @param name  the placeholder's name
         * @param value the value, or {@code null} for NULL
         * @return this builder
         */
        public Builder parameter(String name, Object value) {
            parameters.put(name, ParameterFormat.encode(value));
            return this;
        }

        /**
         * Same as {@link #parameter(String, Object)} with a String value.
         *
         * @param name  the placeholder's name
         * @param value the text, or {@code null} for NULL
         * @return this builder
         */
        public Builder stringParameter(String name, String value) {
            return parameter(name, value);
        }

        /**
         * The quota key of this query (for quotas keyed by {@code client_key}).
         *
         * @param quotaKey the key, or {@code null} for the connection's
         * @return this builder
         */
        public Builder quotaKey(String quotaKey) {
            this.quotaKey = quotaKey;
            return this;
        }

        /**
         * The W3C trace context to send in ClientInfo, so the server's spans join that trace. It wins over the
         * context of an observed call's span. An unsampled context (flag bit 0 clear) is not sent: the server
         * then records nothing for the query's trace.
         *
         * @param traceContext the context, or {@code null} for none
         * @return this builder
         */
        public Builder traceContext(TraceContext traceContext) {
            this.traceContext = traceContext;
            return this;
        }

        /**
         * Receives the query's Progress, ProfileInfo, ProfileEvents and Log packets as they arrive.
         *
         * @param listener the listener, or {@code null} for none
         * @return this builder
         */
        public Builder listener(QueryListener listener) {
            this.listener = listener == null ? QueryListener.NONE : listener;
            return this;
        }

        /**
         * Limits the whole call on the client, from the call on: waiting for and opening a pooled
         * connection (the earlier of this and the acquire timeout applies), sending, and the whole
         * response; for an insert also producing its rows and the server's confirmation. When it passes,
         * a query is sent Cancel and the server gets a grace of {@code max(10 % of timeout, 100 ms)}, less
         * 10 ms the client keeps to return, to end its response: if it does, the connection is kept. If it
         * does not, the call still throws on time; a pool then closes the connection, and a session's or
         * an unpooled connection's next request first reads and discards the rest of the cancelled response
         * (at most 10 s, that request's deadline, the socket timeout and 64 MiB; nothing of it reaches that
         * request) and fails as on a broken connection only when the rest does not come (the connection is
         * then closed). A wait that ends in the middle of a packet, or a chunked response, drops the
         * connection at once. An insert cannot be cancelled halfway: it is abandoned at once and its
         * connection dropped. Either way a {@link dev.clickhousetcp.ClickHouseTimeoutException} with
         * deadline {@code QUERY} is thrown, within {@code timeout + max(10 %, 100 ms)}; for an insert it
         * says whether the insert may have been applied. A caller that reads the result slower than the
         * timeout meets it at its first {@code QueryResult.next()} after the deadline.
         *
         * @param timeout a positive duration, or {@code null} for the client's default query timeout
         * @return this builder
         * @throws IllegalArgumentException when {@code timeout} is zero or negative
         */
        public Builder timeout(java.time.Duration timeout) {
            if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
                throw new IllegalArgumentException("timeout must be positive: " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Like {@link #timeout(java.time.Duration)}, and also sends the limit to the server as
         * {@code max_execution_time} (whole seconds, rounded up), so the server stops on its own too.
         *
         * @param timeout a positive duration; not {@code null}
         * @return this builder
         * @throws IllegalArgumentException when {@code timeout} is zero or negative
         * @throws NullPointerException     when {@code timeout} is {@code null}
         */
        public Builder timeoutOnServerToo(java.time.Duration timeout) {
            timeout(java.util.Objects.requireNonNull(timeout, "timeout"));
            this.serverTimeout = true;
            long secs = (timeout.toMillis() + 999) / 1000;
            settings.put("max_execution_time", Long.toString(Math.max(1, secs)));
            return this;
        }

        /**
         * Network compression for this query, overriding {@link ConnectionConfig#compression()}
         * ({@code null} = the connection's default).
         *
         * @param compression the compression, or {@code null}
         * @return this builder
         */
        public Builder compression(Compression compression) {
            this.compression = compression;
            return this;
        }

        /**
         * Runs the query as a secondary query up to {@code stage}, the way a ClickHouse initiator sends
         * the per-shard part of a distributed query (ClientInfo query_kind SECONDARY_QUERY). Package
         * private: blocks at an intermediate stage are server-internal (e.g. aggregate states), and
         * ClickHouse only marshals blocks in parallel (DETACHED columns) for such queries.
         */
        Builder secondary(QueryStage stage) {
            this.stage = java.util.Objects.requireNonNull(stage);
            this.secondary = true;
            return this;
        }

        /**
         * Runs the query with this default database (unqualified table names resolve in it). The
         * native protocol has no per-query database: the connection switches with {@code USE} when
         * its current database differs, and later queries without this option switch back.
         *
         * @param database the database name, or {@code null} for the connection's configured one
         * @return this builder
         */
        public Builder database(String database) {
            this.database = database;
            return this;
        }

        /**
         * Sends {@code table} with the query as temporary data the query can read by its name.
         *
         * @param table the external table; added after those added before
         * @return this builder
         */
        public Builder externalTable(ExternalTable table) {
            externalTables.add(table);
            return this;
        }

        /**
         * Builds the options.
         *
         * @return immutable options
         */
        public QueryOptions build() {
            return new QueryOptions(this);
        }
    }
}
