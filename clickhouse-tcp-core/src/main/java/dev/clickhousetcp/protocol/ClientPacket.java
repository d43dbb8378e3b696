package dev.clickhousetcp.protocol;

/** Client-to-server packet type codes, per ClickHouse {@code src/Core/Protocol.h} ({@code Protocol::Client}). */
public final class ClientPacket {
    public static final int HELLO = 0;
    public static final int QUERY = 1;
    public static final int DATA = 2;
    public static final int CANCEL = 3;
    public static final int PING = 4;
    public static final int TABLES_STATUS_REQUEST = 5;
    public static final int KEEP_ALIVE = 6;
    public static final int SCALAR = 7;
    public static final int IGNORED_PART_UUIDS = 8;
    public static final int READ_TASK_RESPONSE = 9;
    public static final int MERGE_TREE_READ_TASK_RESPONSE = 10;
    public static final int SSH_CHALLENGE_REQUEST = 11;
    public static final int SSH_CHALLENGE_RESPONSE = 12;
    public static final int QUERY_PLAN = 13;

    private ClientPacket() {
    }
}
