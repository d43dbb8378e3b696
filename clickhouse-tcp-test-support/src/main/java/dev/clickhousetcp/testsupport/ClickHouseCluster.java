package dev.clickhousetcp.testsupport;

import dev.clickhousetcp.testsupport.ClickHouseServer.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The optional local ClickHouse cluster that {@code scripts/clickhouse-server.sh start cluster} runs: three
 * ClickHouse 26.7 nodes on {@code 127.0.0.1} (native ports {@code CLICKHOUSE_CLUSTER_TCP_BASE} + 1..3, default
 * 19101-19103; HTTP {@code CLICKHOUSE_CLUSTER_HTTP_BASE} + 1..3, default 18101-18103), each with a
 * {@code remote_servers} entry named {@value #NAME}: shard 1 is node 1, shard 2 is nodes 2 and 3 (two
 * replicas of plain MergeTree tables, both written by a {@code Distributed} table because the shards have
 * {@code internal_replication = false}; the embedded engine runs no Keeper). Each node also has the macros
 * {@code shard}, {@code replica} and {@code node} ({@code cluster1} .. {@code cluster3}).
 *
 * <p>{@link #get()} starts the nodes that do not answer {@code /ping} (through the script, at most 20
 * minutes; about 5 s and 220-330 MB of memory per node). The cluster is separate from the shared
 * {@link ClickHouseServers#modern() modern} and {@link ClickHouseServers#legacy() legacy} servers, so tests
 * may stop and start its nodes ({@link #stopNode(int)}, {@link #startNode(int)}); the script stops a node by
 * killing its process, which closes its connections cleanly.
 *
 * <p>Thread-safety: all methods are thread-safe; starts and stops are serialized.
 */
public final class ClickHouseCluster {
    /** The cluster's name in {@code remote_servers} (and its {@code cluster} macro). */
    public static final String NAME = "tcp_cluster";
    /** How many nodes the cluster has. */
    public static final int NODES = 3;

    private static final String LOOPBACK = "127.0.0.1";
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static ClickHouseCluster instance;

    private final List<ClickHouseServer> nodes;

    private ClickHouseCluster(List<ClickHouseServer> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /**
     * The local cluster, with every node answering; nodes that do not answer are started first (all
     * of them through {@code scripts/clickhouse-server.sh start cluster}).
     *
     * @return the running cluster
     * @throws IllegalStateException if a node cannot be started (the message has the script's exit code
     *     and the end of its output) or a port variable is not a number
     */
    public static ClickHouseCluster get() {
        LOCK.lock();
        try {
            if (instance == null) {
                instance = configured(System.getenv());
            }
            if (!instance.allAlive()) {
                ClickHouseServers.runScript(List.of("start", "cluster"), Map.of(), "cluster", true);
                if (!instance.allAlive()) {
                    throw new IllegalStateException("scripts/clickhouse-server.sh start cluster succeeded, but "
                            + instance + " does not answer /ping on every node");
                }
            }
            return instance;
        } finally {
            LOCK.unlock();
        }
    }

    /** The cluster whose ports {@code env} names (the script's variables), else the script's defaults. */
    static ClickHouseCluster configured(Map<String, String> env) {
        int tcpBase = base(env, "CLICKHOUSE_CLUSTER_TCP_BASE", 19100);
        int httpBase = base(env, "CLICKHOUSE_CLUSTER_HTTP_BASE", 18100);
        List<ClickHouseServer> nodes = new ArrayList<>();
        for (int n = 1; n <= NODES; n++) {
            nodes.add(new ClickHouseServer(Kind.MODERN, LOOPBACK, tcpBase + n, httpBase + n, -1, null));
        }
        return new ClickHouseCluster(nodes);
    }

    private static int base(Map<String, String> env, String name, int defaultValue) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalStateException(name + " is not a port number: " + v, e);
        }
    }

    /** @return the three nodes, node 1 first */
    public List<ClickHouseServer> nodes() {
        return nodes;
    }

    /**
     * @param node 1 to {@value #NODES}
     * @return that node
     * @throws IllegalArgumentException if {@code node} is out of range
     */
    public ClickHouseServer node(int node) {
        check(node);
        return nodes.get(node - 1);
    }

    /**
     * @param node 1 to {@value #NODES}
     * @return the shard that node holds: 1 for node 1, 2 for nodes 2 and 3
     * @throws IllegalArgumentException if {@code node} is out of range
     */
    public static int shardOf(int node) {
        check(node);
        return node == 1 ? 1 : 2;
    }

    /** @return {@code host:port} of every node's native port, node 1 first */
    public List<String> nativeEndpoints() {
        List<String> out = new ArrayList<>();
        for (ClickHouseServer s : nodes) {
            out.add(s.host() + ":" + s.tcpPort());
        }
        return out;
    }

    /** @return whether every node answers {@code /ping} */
    public boolean allAlive() {
        for (ClickHouseServer s : nodes) {
            if (!s.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Stops one node ({@code scripts/clickhouse-server.sh stop clusterN}: its process is killed and its
     * ports are closed when this returns). A no-op for a stopped node.
     *
     * @param node 1 to {@value #NODES}
     * @throws IllegalArgumentException if {@code node} is out of range
     * @throws IllegalStateException if the script fails
     */
    public void stopNode(int node) {
        check(node);
        script("stop", node);
    }

    /**
     * Starts one node again ({@code scripts/clickhouse-server.sh start clusterN}), with the tables and data it
     * had; returns when it answers. A no-op for a running node.
     *
     * @param node 1 to {@value #NODES}
     * @throws IllegalArgumentException if {@code node} is out of range
     * @throws IllegalStateException if the script fails
     */
    public void startNode(int node) {
        check(node);
        script("start", node);
    }

    private static void script(String action, int node) {
        LOCK.lock();
        try {
            ClickHouseServers.runScript(List.of(action, "cluster" + node), Map.of(), "cluster" + node, true);
        } finally {
            LOCK.unlock();
        }
    }

    private static void check(int node) {
        if (node < 1 || node > NODES) {
            throw new IllegalArgumentException("cluster nodes are 1.." + NODES + ": " + node);
        }
    }

    @Override
    public String toString() {
        return "ClickHouseCluster" + nativeEndpoints();
    }
}
