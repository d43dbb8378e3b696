package dev.clickhousetcp.protocol;

import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.util.Map;
import java.util.Set;

/**
 * Writes the client Query packet, field order per ClickHouse {@code Connection::sendQuery}: query_id,
 * ClientInfo (54032+), settings, external roles (54472+), inter-server secret hash (54441+), stage,
 * compression flag, query text, parameters (54459+).
 */
public final class QueryPacket {
    /** Setting flag "important" (BaseSettings: an unknown important setting is an error, not skipped). */
    static final int FLAG_IMPORTANT = 0x01;
    /** Setting flag "custom" (a user-defined setting or a query parameter). */
    static final int FLAG_CUSTOM = 0x02;

    /**
     * Settings whose value is not an integer in the pre-54429 binary settings format (strings and
     * floats, whose binary form is their text), so that format writes them as strings; every other setting
     * is written as VarUInt (per 18.16's dbms/src/Interpreters/Settings.h and SettingsCommon.h).
     */
    private static final Set<String> LEGACY_STRING_SETTINGS = Set.of(
            "network_compression_method", "load_balancing", "totals_mode", "totals_auto_threshold",
            "distributed_product_mode", "count_distinct_implementation", "format_csv_delimiter",
            "max_streams_to_max_threads_ratio", "send_logs_level", "join_default_strictness",
            "timeout_overflow_mode", "read_overflow_mode", "group_by_overflow_mode", "sort_overflow_mode",
            "result_overflow_mode", "set_overflow_mode", "join_overflow_mode", "transfer_overflow_mode",
            "distinct_overflow_mode", "insert_quorum_timeout", "format_schema", "input_format_skip_unknown_fields",
            "date_time_input_format", "log_queries_cut_to_length", "memory_profiler_step",
            "memory_tracker_fault_probability", "input_format_allow_errors_ratio");

    private QueryPacket() {
    }

    /**
     * Writes the Query packet of an initial query; same as the full {@code write} with {@code secondary}
     * {@code false}.
     *
     * @param out             the connection's writer; not flushed here
     * @param revision        the negotiated revision; it selects the fields and the settings format
     * @param queryId         the query id (empty: the server generates one)
     * @param clientInfo      the ClientInfo to embed (54032+)
     * @param startTimeMicros the query's start time in microseconds since the Unix epoch
     * @param settings        settings for this query, name to value as text; sent in iteration order
     * @param stage           the processing stage to run to, {@link QueryStage#COMPLETE} for ordinary queries
     * @param compression     whether Data blocks of this query are compressed in both directions
     * @param sql             the query text
     * @param parameters      query parameters, name to value as text (54459+; ignored below)
     * @throws IOException    when writing fails
     */
    public static void write(BinaryWriter out, long revision, String queryId, ClientInfo clientInfo,
                             long startTimeMicros, Map<String, String> settings, QueryStage stage, boolean compression,
                             String sql, Map<String, String> parameters) throws IOException {
        write(out, revision, queryId, clientInfo, startTimeMicros, settings, stage, compression, sql, parameters, false);
    }

    /**
     * Writes the Query packet; {@code secondary} marks it a secondary query (ClientInfo query_kind 2),
     * as a ClickHouse initiator sends the per-shard part of a distributed query.
     *
     * <p>At 54429+ every setting is flagged "important", so a server that does not know one rejects the
     * query instead of ignoring it.
     *
     * @param out             the connection's writer; not flushed here
     * @param revision        the negotiated revision; it selects the fields and the settings format
     * @param queryId         the query id (empty: the server generates one)
     * @param clientInfo      the ClientInfo to embed (54032+)
     * @param startTimeMicros the query's start time in microseconds since the Unix epoch
     * @param settings        settings for this query, name to value as text; sent in iteration order
     * @param stage           the processing stage to run to, {@link QueryStage#COMPLETE} for ordinary queries
     * @param compression     whether Data blocks of this query are compressed in both directions
     * @param sql             the query text
     * @param parameters      query parameters, name to value as text (54459+; ignored below)
     * @param secondary       {@code true} to send query_kind SECONDARY_QUERY instead of INITIAL_QUERY
     * @throws IOException    when writing fails
     */
    public static void write(BinaryWriter out, long revision, String queryId, ClientInfo clientInfo,
                             long startTimeMicros, Map<String, String> settings, QueryStage stage, boolean compression,
                             String sql, Map<String, String> parameters, boolean secondary) throws IOException {
        checkSettings(revision, settings); // before the first byte, so a refusal leaves the stream intact
        out.writeVarUInt(ClientPacket.QUERY);
        out.writeString(queryId);
        if (ProtocolFeature.CLIENT_INFO.in(revision)) {
            clientInfo.write(out, revision, startTimeMicros, secondary);
        }
        writeSettings(out, revision, settings);
        if (ProtocolFeature.INTERSERVER_EXTERNALLY_GRANTED_ROLES.in(revision)) {
            out.writeString("\0"); // serialized empty role list: VarUInt 0 inside a String
        }
        if (ProtocolFeature.INTERSERVER_SECRET.in(revision)) {
            out.writeString("");
        }
        out.writeVarUInt(stage.code());
        out.writeVarUInt(compression ? 1 : 0);
        out.writeString(sql);
        if (ProtocolFeature.PARAMETERS.in(revision)) {
            for (Map.Entry<String, String> p : parameters.entrySet()) {
                out.writeString(p.getKey());
                out.writeVarUInt(FLAG_CUSTOM);
                out.writeString(p.getValue());
            }
            out.writeString("");
        }
    }

    /**
     * Settings list: at 54429+ {@code (name, flags, value as string)}; before that each value in the
     * setting's binary form, for which this client writes the settings in {@link #LEGACY_STRING_SETTINGS} as
     * strings and every other one, an integer or boolean after {@link #checkSettings}, as VarUInt.
     */
    /**
     * Refuses a setting value the pre-54429 binary form cannot carry: a setting written as VarUInt (see
     * {@link #writeSettings}) whose value is not an unsigned integer or a boolean. Such a value written as a
     * string is misread by the server as the start of the next setting, and the query is never answered.
     *
     * @param revision the negotiated revision; at 54429 and later every value is sent as text and nothing is refused
     * @param settings setting name to value (its text is what would be sent)
     * @throws IllegalArgumentException naming the setting and its value
     */
    public static void checkSettings(long revision, Map<String, ?> settings) {
        if (ProtocolFeature.SETTINGS_SERIALIZED_AS_STRINGS.in(revision)) {
            return;
        }
        for (Map.Entry<String, ?> s : settings.entrySet()) {
            if (!LEGACY_STRING_SETTINGS.contains(s.getKey()) && legacyInteger(String.valueOf(s.getValue())) == null) {
                throw new IllegalArgumentException("setting " + s.getKey() + " = '" + s.getValue() + "' cannot be sent"
                        + " to a server of protocol revision " + revision + ": below 54429 it takes this setting as an"
                        + " unsigned integer (or true/false), in binary form");
            }
        }
    }

    static void writeSettings(BinaryWriter out, long revision, Map<String, String> settings) throws IOException {
        boolean strings = ProtocolFeature.SETTINGS_SERIALIZED_AS_STRINGS.in(revision);
        for (Map.Entry<String, String> s : settings.entrySet()) {
            out.writeString(s.getKey());
            String v = s.getValue();
            if (strings) {
                // "important": a server that does not know the setting rejects the query (UNKNOWN_SETTING)
                // instead of silently ignoring it, as it does for the HTTP interface
                out.writeVarUInt(FLAG_IMPORTANT);
                out.writeString(v);
            } else if (LEGACY_STRING_SETTINGS.contains(s.getKey())) {
                out.writeString(v);
            } else {
                out.writeVarUInt(legacyInteger(v)); // checkSettings refused every other value
            }
        }
        out.writeString("");
    }

    private static Long legacyInteger(String v) {
        if (v.equalsIgnoreCase("true")) {
            return 1L;
        }
        if (v.equalsIgnoreCase("false")) {
            return 0L;
        }
        try {
            return Long.parseUnsignedLong(v);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
