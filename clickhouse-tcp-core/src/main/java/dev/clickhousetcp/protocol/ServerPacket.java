package dev.clickhousetcp.protocol;

/** Server-to-client packet type codes, per ClickHouse {@code src/Core/Protocol.h} ({@code Protocol::Server}). */
public final class ServerPacket {
    public static final int HELLO = 0;
    public static final int DATA = 1;
    public static final int EXCEPTION = 2;
    public static final int PROGRESS = 3;
    public static final int PONG = 4;
    public static final int END_OF_STREAM = 5;
    public static final int PROFILE_INFO = 6;
    public static final int TOTALS = 7;
    public static final int EXTREMES = 8;
    public static final int TABLES_STATUS_RESPONSE = 9;
    public static final int LOG = 10;
    public static final int TABLE_COLUMNS = 11;
    public static final int PART_UUIDS = 12;
    public static final int READ_TASK_REQUEST = 13;
    public static final int PROFILE_EVENTS = 14;
    public static final int MERGE_TREE_ALL_RANGES_ANNOUNCEMENT = 15;
    public static final int MERGE_TREE_READ_TASK_REQUEST = 16;
    public static final int TIMEZONE_UPDATE = 17;
    public static final int SSH_CHALLENGE = 18;

    private static final String[] NAMES = {
        "Hello", "Data", "Exception", "Progress", "Pong", "EndOfStream", "ProfileInfo", "Totals", "Extremes",
        "TablesStatusResponse", "Log", "TableColumns", "PartUUIDs", "ReadTaskRequest", "ProfileEvents",
        "MergeTreeAllRangesAnnouncement", "MergeTreeReadTaskRequest", "TimezoneUpdate", "SSHChallenge"};

    /** Human-readable packet name for messages. */
    public static String name(long code) {
        return code >= 0 && code < NAMES.length ? NAMES[(int) code] : "Unknown(" + code + ")";
    }

    private ServerPacket() {
    }
}
