package dev.clickhousetcp.protocol;

/**
 * Named revision gates of the native protocol: a feature is active when the negotiated revision is
 * at least its minimum. Values per ClickHouse {@code src/Core/ProtocolDefines.h}
 * ({@code DBMS_MIN_REVISION_WITH_*} / {@code DBMS_MIN_PROTOCOL_VERSION_WITH_*}).
 *
 * <p>Every revision-dependent field in this client is read or written behind one of these gates,
 * never behind a bare number.
 */
public enum ProtocolFeature {
    /** The Query packet carries ClientInfo ({@code DBMS_MIN_REVISION_WITH_CLIENT_INFO}). */
    CLIENT_INFO(54032),
    /** The server Hello carries the server's time zone. */
    SERVER_TIMEZONE(54058),
    /** ClientInfo carries the quota key. */
    QUOTA_KEY_IN_CLIENT_INFO(54060),
    /** The TablesStatusRequest and TablesStatusResponse packets exist (not used by this client). */
    TABLES_STATUS(54226),
    /**
     * Type names may carry a time zone parameter, e.g. {@code DateTime('Europe/Berlin')}
     * ({@code DBMS_MIN_REVISION_WITH_TIME_ZONE_PARAMETER_IN_DATETIME_DATA_TYPE}).
     */
    TIME_ZONE_PARAMETER_IN_DATETIME(54337),
    /** The server Hello carries the server's display name. */
    SERVER_DISPLAY_NAME(54372),
    /** The server Hello and ClientInfo carry the patch component of the version. */
    VERSION_PATCH(54401),
    /** The server may send Log packets (server log entries of the query, per {@code send_logs_level}). */
    SERVER_LOGS(54406),
    /** The server sends {@code LowCardinality} columns as such instead of converting them to the nested type. */
    LOW_CARDINALITY_TYPE(54405),
    /** The server may send a TableColumns packet (columns and DEFAULT expressions) for an INSERT. */
    COLUMN_DEFAULTS_METADATA(54410),
    /** Progress carries written rows and written bytes. */
    CLIENT_WRITE_INFO(54420),
    /**
     * Query settings are written as {@code (name, VarUInt flags, value as String)} instead of each
     * setting's binary form.
     */
    SETTINGS_SERIALIZED_AS_STRINGS(54429),
    /** The Scalar client packet exists (scalar subquery results sent between servers; not used by this client). */
    SCALARS(54429),
    /**
     * The nearest gate to ClickHouse 20.1, the first release whose server still reads a failed query's
     * external tables when the query failed before it read them (a syntax error, an unknown or refused
     * setting, too many queries): ClickHouse PR #8084, {@code initializeExternalTablesIfSet} after the
     * exception in {@code TCPHandler::runImpl}. An older server (18.16) leaves the Data packet that ends
     * them unread and parses its bytes as the next packets: Data and Hello are refused with code 101
     * without reading their payload, and the bytes of a compressed frame are an unknown packet (code 99),
     * on which the server closes the connection. Below this gate the client ends the external tables
     * with Cancel instead: while the server reads them, Cancel ends them as the empty block does
     * ({@code receivePacket} returns false for it); after a failure, it is a stray Cancel the server ignores.
     */
    EXTERNAL_TABLES_READ_AFTER_FAILURE(54429),
    /** The Query packet carries the inter-server secret hash, written empty by this client. */
    INTERSERVER_SECRET(54441),
    /** ClientInfo carries an OpenTelemetry trace context (see {@link TraceContext}). */
    OPENTELEMETRY(54442),
    /** ClientInfo carries {@code X-Forwarded-For}, for the HTTP interface only (no TCP field). */
    X_FORWARDED_FOR_IN_CLIENT_INFO(54443),
    /** ClientInfo carries the HTTP {@code Referer}, for the HTTP interface only (no TCP field). */
    REFERER_IN_CLIENT_INFO(54447),
    /** ClientInfo carries the distributed query depth, written as 0 by this client. */
    DISTRIBUTED_DEPTH(54448),
    /**
     * ClientInfo carries the initial query's start time in microseconds since the epoch; also the
     * nearest gate to ClickHouse 21.9, used to tell how a server formats Decimal values.
     */
    INITIAL_QUERY_START_TIME(54449),
    /** The server sends ProfileEvents packets during a query: counter increments since the previous one, and gauges. */
    INCREMENTAL_PROFILE_EVENTS(54451),
    /** Aggregate function states are serialized in the version that the peer's revision knows. */
    AGGREGATE_FUNCTIONS_VERSIONING(54452),
    /**
     * ClientInfo carries the parallel replicas fields (collaborate_with_initiator, count_participating_replicas,
     * number_of_current_replica), written as 0 by this client.
     */
    PARALLEL_REPLICAS(54453),
    /** Each column of a Block carries a has_custom_serialization byte and, when set, its serialization kinds. */
    CUSTOM_SERIALIZATION(54454),
    /** The server sends ProfileEvents packets during an INSERT too. */
    PROFILE_EVENTS_IN_INSERT(54456),
    /** Servers may send the {@code viewIfPermitted} table function to each other; no field here depends on it. */
    VIEW_IF_PERMITTED(54457),
    /** The client sends an Addendum right after reading the server Hello (see {@link Handshake#writeAddendum}). */
    ADDENDUM(54458),
    /** The Addendum carries the quota key. */
    QUOTA_KEY(54458),
    /** The Query packet carries query parameters (the values of {@code {name:Type}} placeholders). */
    PARAMETERS(54459),
    /** Progress carries the server's elapsed query time in nanoseconds. */
    SERVER_QUERY_TIME_IN_PROGRESS(54460),
    /** The server Hello carries the password complexity rules (pattern and message pairs). */
    PASSWORD_COMPLEXITY_RULES(54461),
    /** The server Hello carries a nonce for the inter-server secret hash. */
    INTERSERVER_SECRET_V2(54462),
    /** Progress carries the estimated total bytes to read. */
    TOTAL_BYTES_IN_PROGRESS(54463),
    /** The server may send TimezoneUpdate packets when the session time zone changes. */
    TIMEZONE_UPDATES(54464),
    /** The server may send columns in sparse serialization instead of materializing them. */
    SPARSE_SERIALIZATION(54465),
    /** SSH key authentication (SSHChallenge packets) is available; not used by this client. */
    SSH_AUTHENTICATION(54466),
    /** TablesStatusResponse carries the read-only flag of Replicated tables (not used by this client). */
    TABLE_READ_ONLY_CHECK(54467),
    /** The server has the {@code system.keywords} table. */
    SYSTEM_KEYWORDS_TABLE(54468),
    /** ProfileInfo carries applied_aggregation and rows_before_aggregation. */
    ROWS_BEFORE_AGGREGATION(54469),
    /**
     * The server Hello and the Addendum carry the chunked framing preferences of each direction
     * (see {@link ChunkedMode}).
     */
    CHUNKED_PACKETS(54470),
    /** The server Hello and the Addendum carry the parallel replicas protocol version. */
    VERSIONED_PARALLEL_REPLICAS_PROTOCOL(54471),
    /** The Query packet carries externally granted roles, written as an empty list by this client. */
    INTERSERVER_EXTERNALLY_GRANTED_ROLES(54472),
    /** {@code Dynamic} and {@code JSON} columns use their V2 serialization; below it, V1. */
    V2_DYNAMIC_AND_JSON_SERIALIZATION(54473),
    /** The server Hello carries the server's non-default settings. */
    SERVER_SETTINGS(54474),
    /** ClientInfo carries the script query number and line number, written as 0 by this client. */
    QUERY_AND_LINE_NUMBERS(54475),
    /** ClientInfo carries the inter-server JWT flag, written as 0 by this client. */
    JWT_IN_INTERSERVER(54476),
    /** The server Hello carries the query plan serialization version. */
    QUERY_PLAN_SERIALIZATION(54477),
    /** Columns may arrive in detached serialization (compressed queries only), decoded by {@link BlockCodec}. */
    PARALLEL_BLOCK_MARSHALLING(54478),
    /** The server Hello carries the cluster function protocol version. */
    VERSIONED_CLUSTER_FUNCTION_PROTOCOL(54479),
    /**
     * BlockInfo may carry field 3, the out-of-order buckets of two-level aggregation (sent between servers);
     * {@link BlockCodec} skips it.
     */
    OUT_OF_ORDER_BUCKETS_IN_AGGREGATION(54480),
    /**
     * With compression on, the Log, ProfileEvents and TableColumns bodies are compressed like
     * Data blocks.
     */
    COMPRESSED_LOGS_PROFILE_EVENTS_COLUMNS(54481),
    /** The server may send columns in replicated serialization. */
    REPLICATED_SERIALIZATION(54482),
    /** Sparse serialization applies to {@code Nullable} columns too. */
    NULLABLE_SPARSE_SERIALIZATION(54483),
    /** The server sends Progress for asynchronous inserts. */
    PROGRESS_IN_ASYNC_INSERT(54484),
    /** ClientInfo carries a client agent string, written empty by this client. */
    CLIENT_AGENT_IN_CLIENT_INFO(54485),
    /** ClientInfo carries the internal query flag, written as 0 by this client. */
    INTERNAL_QUERY_FLAG(54486),
    /** TablesStatusRequest is authenticated with the cluster secret hash (not used by this client). */
    INTERSERVER_SECRET_TABLES_STATUS(54487),
    /**
     * ClientInfo carries the initiator's current roles, written as none by this client; the
     * highest gate known here and the revision this client announces ({@link ProtocolRevision#CLIENT}).
     */
    INTERSERVER_CURRENT_ROLES(54488);

    private final int minRevision;

    ProtocolFeature(int minRevision) {
        this.minRevision = minRevision;
    }

    /**
     * The first protocol revision that has this feature.
     *
     * @return the {@code DBMS_MIN_*} value of ClickHouse {@code ProtocolDefines.h}, e.g. 54470
     */
    public int minRevision() {
        return minRevision;
    }

    /**
     * Whether this feature is active at {@code revision}.
     *
     * @param revision the negotiated revision, {@code min(client's, server's)}
     * @return {@code true} when {@code revision} is at least {@link #minRevision()}
     */
    public boolean in(long revision) {
        return revision >= minRevision;
    }
}
