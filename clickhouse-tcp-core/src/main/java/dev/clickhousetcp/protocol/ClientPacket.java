package dev.clickhousetcp.protocol;

/** Client-to-server packet type codes, per ClickHouse {@code src/Core/Protocol.h} ({@code Protocol::Client}). */
public final class ClientPacket {
    /** Hello: the first packet of a connection, naming the client, its revision and the credentials. */
    public static final int HELLO = 0;
    /** Query: query id, ClientInfo, settings, stage, compression flag and the query text. */
    public static final int QUERY = 1;
    /**
     * Data: a Block sent after the Query packet (INSERT rows, external tables), ended by an empty Block;
     * compressed when the query enabled compression.
     */
    public static final int DATA = 2;
    /** Cancel: asks the server to stop the running query; the server then ends the response as usual. */
    public static final int CANCEL = 3;
    /** Ping: a liveness check between queries, answered with Pong. */
    public static final int PING = 4;
    /** TablesStatusRequest: asks for replication status of tables (used between servers; not sent by this client). */
    public static final int TABLES_STATUS_REQUEST = 5;
    /** KeepAlive: keeps a connection alive during a long INSERT (not sent by this client). */
    public static final int KEEP_ALIVE = 6;
    /** Scalar: a Block with a scalar subquery result (server-to-server; not sent by this client). */
    public static final int SCALAR = 7;
    /** IgnoredPartUUIDs: data part UUIDs to skip (server-to-server; not sent by this client). */
    public static final int IGNORED_PART_UUIDS = 8;
    /** ReadTaskResponse: answer to a ReadTaskRequest of the {@code *Cluster} table functions (server-to-server). */
    public static final int READ_TASK_RESPONSE = 9;
    /** MergeTreeReadTaskResponse: parallel replicas coordination (server-to-server). */
    public static final int MERGE_TREE_READ_TASK_RESPONSE = 10;
    /** SSHChallengeRequest: asks for the challenge of SSH key authentication (not sent by this client). */
    public static final int SSH_CHALLENGE_REQUEST = 11;
    /** SSHChallengeResponse: the signed challenge of SSH key authentication (not sent by this client). */
    public static final int SSH_CHALLENGE_RESPONSE = 12;
    /** QueryPlan: a serialized query plan (server-to-server; not sent by this client). */
    public static final int QUERY_PLAN = 13;

    private ClientPacket() {
    }
}
