package dev.clickhousetcp.protocol;

/** Server-to-client packet type codes, per ClickHouse {@code src/Core/Protocol.h} ({@code Protocol::Server}). */
public final class ServerPacket {
    /** Hello: the server's answer to the client Hello (see {@link ServerHello}). */
    public static final int HELLO = 0;
    /**
     * Data: a temporary table name (empty) followed by a result Block; the first, possibly empty, Block of a
     * query carries the header (column names and types).
     */
    public static final int DATA = 1;
    /** Exception: the query or the handshake failed (see {@link ServerExceptionCodec}); ends the response. */
    public static final int EXCEPTION = 2;
    /** Progress: rows and bytes processed since the previous Progress (see {@link Progress}). */
    public static final int PROGRESS = 3;
    /** Pong: the answer to a Ping. */
    public static final int PONG = 4;
    /** EndOfStream: the query's response is complete; the connection is ready for the next query. */
    public static final int END_OF_STREAM = 5;
    /** ProfileInfo: result statistics such as rows before LIMIT (see {@link ProfileInfo}). */
    public static final int PROFILE_INFO = 6;
    /** Totals: a Block with the {@code WITH TOTALS} row. */
    public static final int TOTALS = 7;
    /** Extremes: a Block with the minimum and maximum rows when the {@code extremes} setting is on. */
    public static final int EXTREMES = 8;
    /** TablesStatusResponse: the answer to a TablesStatusRequest (not requested by this client). */
    public static final int TABLES_STATUS_RESPONSE = 9;
    /** Log: a Block of server log entries for the query, sent when the {@code send_logs_level} setting is set. */
    public static final int LOG = 10;
    /**
     * TableColumns: for an INSERT, an external table name and the target table's columns description,
     * including DEFAULT expressions (revision 54410+).
     */
    public static final int TABLE_COLUMNS = 11;
    /** PartUUIDs: UUIDs of the data parts read (server-to-server). */
    public static final int PART_UUIDS = 12;
    /** ReadTaskRequest: asks the initiator for the next task of a {@code *Cluster} table function. */
    public static final int READ_TASK_REQUEST = 13;
    /** ProfileEvents: a Block of ProfileEvents counters and gauges for the query (revision 54451+). */
    public static final int PROFILE_EVENTS = 14;
    /** MergeTreeAllRangesAnnouncement: parallel replicas coordination (server-to-server). */
    public static final int MERGE_TREE_ALL_RANGES_ANNOUNCEMENT = 15;
    /** MergeTreeReadTaskRequest: parallel replicas coordination (server-to-server). */
    public static final int MERGE_TREE_READ_TASK_REQUEST = 16;
    /** TimezoneUpdate: the session time zone changed during the query (revision 54464+); carries its name. */
    public static final int TIMEZONE_UPDATE = 17;
    /** SSHChallenge: the challenge string of SSH key authentication. */
    public static final int SSH_CHALLENGE = 18;

    private static final String[] NAMES = {
        "Hello", "Data", "Exception", "Progress", "Pong", "EndOfStream", "ProfileInfo", "Totals", "Extremes",
        "TablesStatusResponse", "Log", "TableColumns", "PartUUIDs", "ReadTaskRequest", "ProfileEvents",
        "MergeTreeAllRangesAnnouncement", "MergeTreeReadTaskRequest", "TimezoneUpdate", "SSHChallenge"};

    /**
     * Human-readable packet name for messages.
     *
     * @param code a packet type code as read from the wire; any value is accepted
     * @return the packet's name as in ClickHouse {@code Protocol::Server::toString}, e.g. {@code EndOfStream},
     *         or {@code Unknown(<code>)} for a code outside this table
     */
    public static String name(long code) {
        return code >= 0 && code < NAMES.length ? NAMES[(int) code] : "Unknown(" + code + ")";
    }

    private ServerPacket() {
    }
}
