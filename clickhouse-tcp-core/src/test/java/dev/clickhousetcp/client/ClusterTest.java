package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.testsupport.ClickHouseCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The client against a real three-node ClickHouse cluster ({@link ClickHouseCluster}: shard 1 on node 1,
 * shard 2 replicated on nodes 2 and 3 by the Distributed table itself): Distributed inserts land on the
 * shards the sharding key names and read back whole through every node; the multi-endpoint pool spreads
 * its connections per load-balancing strategy; a node stopped mid-workload costs at most the queries
 * in flight on it (each failing with a connection error, never a short or wrong answer) while the other
 * nodes carry on, and the pool uses the node again once it is back. Tagged {@code cluster}: run by
 * {@code mvn -Pcluster-tests} (see docs/scaling.md), not by the default build.
 */
@Tag("cluster")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterTest {
    private static final int ROWS = 100_000;
    private static ClickHouseCluster cluster;
    private static final List<String> TABLES = new ArrayList<>();

    @BeforeAll
    static void startCluster() {
        try {
            cluster = ClickHouseCluster.get();
        } catch (IllegalStateException e) {
            if ("true".equals(System.getenv("CI"))) {
                throw e;
            }
            Assumptions.abort("the local ClickHouse cluster cannot start here: " + e.getMessage());
        }
    }

    @AfterAll
    static void dropTables() {
        if (cluster == null) {
            return;
        }
        for (int n = 1; n <= ClickHouseCluster.NODES; n++) {
            if (!cluster.node(n).isAlive()) {
                continue;
            }
            try (ClickHouseTcpClient c = node(n)) {
                for (String t : TABLES) {
                    c.execute("DROP TABLE IF EXISTS " + t);
                }
            }
        }
    }

    /** A client of one node only. */
    private static ClickHouseTcpClient node(int n) {
        return TestClients.builder(cluster.node(n)).build();
    }

    /** A client of the whole cluster. */
    private static ClickHouseTcpClient.Builder clusterClient(LoadBalancing strategy) {
        return ClickHouseTcpClient.builder()
                .endpoints(cluster.nativeEndpoints())
                .loadBalancing(strategy)
                .connectTimeout(Duration.ofSeconds(5))
                .socketTimeout(Duration.ofSeconds(60))
                .acquireTimeout(Duration.ofSeconds(20));
    }

    /** Creates {@code <name>_local} (MergeTree) and {@code <name>} (Distributed by id) on every node. */
    private static String distributedTable(String prefix) {
        String name = TestClients.table(prefix);
        TABLES.add(name);
        TABLES.add(name + "_local");
        for (int n = 1; n <= ClickHouseCluster.NODES; n++) {
            try (ClickHouseTcpClient c = node(n)) {
                c.execute("CREATE TABLE " + name + "_local (id Int64, s String) ENGINE = MergeTree ORDER BY id");
                c.execute("CREATE TABLE " + name + " AS " + name + "_local ENGINE = Distributed("
                        + ClickHouseCluster.NAME + ", currentDatabase(), " + name + "_local, id)");
            }
        }
        return name;
    }

    /** Count, sum of ids and an order-independent digest of the strings of some rows. */
    record Digest(long count, long idSum, long textSum) {
        static final Digest EMPTY = new Digest(0, 0, 0);

        Digest plus(long id, String s) {
            return new Digest(count + 1, idSum + id, textSum + s.hashCode() * 31L + s.length());
        }
    }

    private static String text(long id) {
        return "row-" + id + "-" + Long.toHexString(id * 0x9E3779B97F4A7C15L);
    }

    /** Every row of {@code table} read directly from one node, on the block tier. */
    private static Digest readBlocks(ClickHouseTcpClient c, String sql) {
        Digest d = Digest.EMPTY;
        try (QueryResult r = c.query(sql)) {
            for (Block b : r) {
                for (int i = 0; i < b.rowCount(); i++) {
                    d = d.plus(b.column(0).getLong(i), b.column(1).getString(i));
                }
            }
        }
        return d;
    }

    record Item(long id, String s) {
    }

    @Test
    @Order(1)
    void distributedInsertsLandOnTheirShardsAndReadBackWholeThroughEveryNode() {
        String t = distributedTable("cluster_dist");
        long[] ids = new long[ROWS];
        List<String> texts = new ArrayList<>(ROWS);
        Digest all = Digest.EMPTY;
        Digest[] shard = {Digest.EMPTY, Digest.EMPTY};
        for (int i = 0; i < ROWS; i++) {
            ids[i] = i;
            texts.add(text(i));
            all = all.plus(i, text(i));
            // Distributed picks the shard by sharding key modulo the total weight (1 + 1)
            shard[i % 2] = shard[i % 2].plus(i, text(i));
        }
        // a second batch: Object[] rows, through the Distributed table's default background sending
        List<Object[]> more = new ArrayList<>();
        for (int i = ROWS; i < ROWS + 1000; i++) {
            more.add(new Object[] {(long) i, text(i)});
            all = all.plus(i, text(i));
            shard[i % 2] = shard[i % 2].plus(i, text(i));
        }
        try (ClickHouseTcpClient c = clusterClient(LoadBalancing.ROUND_ROBIN).build()) {
            QueryOptions foreground = QueryOptions.builder().setting("distributed_foreground_insert", 1).build();
            assertThat(c.insertColumns(t, Map.of("id", ids, "s", texts), foreground)).isEqualTo(ROWS);
        }
        try (ClickHouseTcpClient c2 = node(2)) {
            assertThat(c2.insert(t, List.of("id", "s"), more)).isEqualTo(1000);
            c2.execute("SYSTEM FLUSH DISTRIBUTED " + t); // the background sends, done now
        }

        // each node holds exactly its shard's rows: node 1 the even ids, nodes 2 and 3 both the odd ones
        for (int n = 1; n <= ClickHouseCluster.NODES; n++) {
            try (ClickHouseTcpClient c = node(n)) {
                Digest local = readBlocks(c, "SELECT id, s FROM " + t + "_local");
                assertThat(local).as("rows on node %d", n).isEqualTo(shard[ClickHouseCluster.shardOf(n) - 1]);
                assertThat(c.query("SELECT count(), sum(id) FROM " + t + "_local", (row, i) -> row.getLong(0) + "/"
                        + row.getLong(1))).containsExactly(local.count() + "/" + local.idSum());
            }
        }
        // the Distributed table gives every row once, through any node and on every read tier
        for (int n = 1; n <= ClickHouseCluster.NODES; n++) {
            try (ClickHouseTcpClient c = node(n)) {
                assertThat(readBlocks(c, "SELECT id, s FROM " + t)).as("blocks via node %d", n).isEqualTo(all);
                Digest records = Digest.EMPTY;
                for (Item item : c.query("SELECT id, s FROM " + t, Item.class)) {
                    records = records.plus(item.id(), item.s());
                }
                assertThat(records).as("records via node %d", n).isEqualTo(all);
                Digest rows = Digest.EMPTY;
                for (Object[] row : c.queryRows("SELECT id, s FROM " + t)) {
                    rows = rows.plus((Long) row[0], (String) row[1]);
                }
                assertThat(rows).as("Object[] rows via node %d", n).isEqualTo(all);
            }
        }
    }

    /** The node ({@code 19101..19103}) of each of {@code n} connections held at once from one pool. */
    private static Map<Integer, Integer> spreadOfConnections(LoadBalancing strategy, int n) {
        Map<Integer, Integer> perPort = new TreeMap<>();
        List<ClickHouseSession> sessions = new ArrayList<>();
        try (ClickHouseTcpClient c = clusterClient(strategy).maxPoolSize(n).build()) {
            try {
                for (int i = 0; i < n; i++) {
                    ClickHouseSession s = c.openSession();
                    sessions.add(s);
                    int port = s.query("SELECT toInt32(tcpPort())", (row, j) -> row.getInt(0)).get(0);
                    perPort.merge(port, 1, Integer::sum);
                }
            } finally {
                sessions.forEach(ClickHouseSession::close);
            }
        }
        System.out.println("connections per node, " + strategy + ", " + n + " connections: " + perPort);
        return perPort;
    }

    @Test
    @Order(2)
    void thePoolSpreadsItsConnectionsOverTheNodesPerStrategy() {
        List<Integer> ports = cluster.nodes().stream().map(s -> s.tcpPort()).toList();

        Map<Integer, Integer> roundRobin = spreadOfConnections(LoadBalancing.ROUND_ROBIN, 12);
        assertThat(roundRobin.keySet()).containsExactlyElementsOf(ports);
        assertThat(Collections.max(roundRobin.values()) - Collections.min(roundRobin.values())).isLessThanOrEqualTo(1);

        Map<Integer, Integer> random = spreadOfConnections(LoadBalancing.RANDOM, 30);
        assertThat(random.keySet()).containsExactlyElementsOf(ports); // each node missed: (2/3)^30, about 1e-5

        Map<Integer, Integer> inOrder = spreadOfConnections(LoadBalancing.IN_ORDER, 6);
        assertThat(inOrder).containsOnlyKeys(ports.get(0));

        // queries of concurrent callers follow their connections: each node answers some (the queries
        // last 50 ms each, so the six callers overlap and the pool opens all six connections)
        Map<Integer, AtomicInteger> queries = new ConcurrentHashMap<>();
        try (ClickHouseTcpClient c = clusterClient(LoadBalancing.ROUND_ROBIN).maxPoolSize(6).build()) {
            ExecutorService pool = Executors.newFixedThreadPool(6);
            CountDownLatch start = new CountDownLatch(1);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < 6; w++) {
                    done.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < 20; i++) {
                            long[] answer = c.query("SELECT toInt32(tcpPort()), sum(number), sleep(0.05)"
                                    + " FROM numbers(10000)",
                                    (row, j) -> new long[] {row.getInt(0), row.getLong(1)}).get(0);
                            assertThat(answer[1]).isEqualTo(49_995_000L);
                            queries.computeIfAbsent((int) answer[0], k -> new AtomicInteger()).incrementAndGet();
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> f : done) {
                    f.get(5, TimeUnit.MINUTES);
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            } finally {
                pool.shutdownNow();
            }
        }
        System.out.println("queries per node, 6 callers, ROUND_ROBIN pool of 6: " + new TreeMap<>(queries));
        assertThat(queries.values().stream().mapToInt(AtomicInteger::get).sum()).isEqualTo(120);
        assertThat(queries.keySet()).containsExactlyInAnyOrderElementsOf(ports);
    }

    /** What the workers of the node-stop test saw. */
    static final class Workload {
        final AtomicInteger phase = new AtomicInteger();
        final Map<String, AtomicInteger> answers = new ConcurrentHashMap<>(); // "phase/port" -> count
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        final AtomicLong firstAnswerAfterStop = new AtomicLong();
        final AtomicLong firstAnswerFromRestarted = new AtomicLong();
        final AtomicBoolean stop = new AtomicBoolean();

        int answers(int phase, int port) {
            AtomicInteger n = answers.get(phase + "/" + port);
            return n == null ? 0 : n.get();
        }

        int answers(int phase) {
            return answers.entrySet().stream().filter(e -> e.getKey().startsWith(phase + "/"))
                    .mapToInt(e -> e.getValue().get()).sum();
        }
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Test
    @Order(3)
    void aNodeStoppedMidWorkloadCostsOnlyItsQueriesInFlightAndIsUsedAgainOnceBack() throws Exception {
        String t = distributedTable("cluster_stop");
        try (ClickHouseTcpClient c1 = node(1)) {
            c1.execute("INSERT INTO " + t + " SELECT number, toString(number) FROM numbers(20000)",
                    QueryOptions.builder().setting("distributed_foreground_insert", 1).build());
        }
        int workers = 4;
        Duration backoff = Duration.ofSeconds(2);
        Workload w = new Workload();
        int stopped = 3;
        int stoppedPort = cluster.node(stopped).tcpPort();
        // connections live 1 s, so the pool keeps opening new ones and follows the endpoints' state
        try (ClickHouseTcpClient c = clusterClient(LoadBalancing.ROUND_ROBIN).maxPoolSize(workers)
                .failoverBackoff(backoff).maxLifetime(Duration.ofSeconds(1)).connectTimeout(Duration.ofSeconds(2))
                .build()) {
            ExecutorService pool = Executors.newFixedThreadPool(workers);
            long[] stopTime = new long[1];
            long[] restartTime = new long[1];
            long[] readyTime = new long[1];
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int i = 0; i < workers; i++) {
                    done.add(pool.submit(() -> work(c, w, stoppedPort)));
                }
                await("answers from every node", () -> cluster.nodes().stream()
                        .allMatch(s -> w.answers(0, s.tcpPort()) > 0));

                cluster.stopNode(stopped);
                stopTime[0] = System.nanoTime();
                w.phase.set(1);
                await("40 answers with node " + stopped + " down", () -> w.answers(1) >= 40);
                // the Distributed table still answers whole: shard 2's other replica serves it
                try (ClickHouseTcpClient c1 = node(1)) {
                    assertThat(c1.query("SELECT count(), sum(id) FROM " + t, (row, i) -> row.getLong(0) + "/"
                            + row.getLong(1))).containsExactly("20000/199990000");
                }

                w.phase.set(2); // before the start: the node answers before the script returns
                restartTime[0] = System.nanoTime();
                cluster.startNode(stopped);
                readyTime[0] = System.nanoTime();
                await("answers from node " + stopped + " after its restart", () -> w.answers(2, stoppedPort) > 0);
                w.stop.set(true);
                for (Future<?> f : done) {
                    f.get(2, TimeUnit.MINUTES);
                }
            } finally {
                w.stop.set(true);
                pool.shutdownNow();
                cluster.startNode(stopped); // a no-op when it is up
            }
            System.out.println("node stop: answers per phase/port " + new TreeMap<>(w.answers) + ", failures "
                    + w.failures.size() + " " + w.failures.stream().distinct().collect(Collectors.toList())
                    + ", first answer " + TimeUnit.NANOSECONDS.toMillis(w.firstAnswerAfterStop.get() - stopTime[0])
                    + " ms after the stop, the restarted node answering after "
                    + TimeUnit.NANOSECONDS.toMillis(readyTime[0] - restartTime[0])
                    + " ms and first answering the pool after "
                    + TimeUnit.NANOSECONDS.toMillis(w.firstAnswerFromRestarted.get() - restartTime[0])
                    + " ms (failover backoff " + backoff.toMillis() + " ms); pool " + c.poolStats());
        }
        assertThat(w.wrong).as("short or wrong answers").isEmpty();
        assertThat(w.answers(1, stoppedPort)).as("answers from the stopped node").isZero();
        assertThat(w.answers(1, cluster.node(1).tcpPort())).isPositive();
        assertThat(w.answers(1, cluster.node(2).tcpPort())).isPositive();
        // a connection to the stopped node fails at most the one query it carries, and is then discarded:
        // the connections open when it stopped (at most the pool's size) and any opened while it was going
        // down; each fails as a connection error
        assertThat(w.failures.size()).as("failed queries: %s", w.failures).isLessThanOrEqualTo(2 * workers);
        assertThat(w.failures).allMatch(f -> f.startsWith(ClickHouseConnectionException.class.getSimpleName()));
        // the restarted node kept its rows
        try (ClickHouseTcpClient c3 = node(stopped)) {
            assertThat(c3.query("SELECT count() FROM " + t + "_local", (row, i) -> row.getLong(0))).containsExactly(10000L);
        }
    }

    /** Runs a streamed query (many blocks) until told to stop, checking every answer in full. */
    private static Void work(ClickHouseTcpClient c, Workload w, int stoppedPort) {
        while (!w.stop.get()) {
            int phase = w.phase.get();
            long count = 0;
            long sum = 0;
            int port = -1;
            try (QueryResult r = c.query("SELECT number, toInt32(tcpPort()) FROM numbers(200000)"
                    + " SETTINGS max_block_size = 10000")) {
                for (Block b : r) {
                    for (int i = 0; i < b.rowCount(); i++) {
                        sum += b.column(0).getLong(i);
                        port = (int) b.column(1).getLong(i);
                    }
                    count += b.rowCount();
                }
            } catch (ClickHouseConnectionException | ClickHouseServerException e) {
                w.failures.add(e.getClass().getSimpleName() + ": " + e.getMessage());
                continue;
            }
            if (count != 200_000 || sum != 19_999_900_000L) {
                w.wrong.add("port " + port + ": " + count + " rows, sum " + sum);
                continue;
            }
            w.answers.computeIfAbsent(phase + "/" + port, k -> new AtomicInteger()).incrementAndGet();
            long now = System.nanoTime();
            if (phase == 1) {
                w.firstAnswerAfterStop.compareAndSet(0, now);
            }
            if (phase == 2 && port == stoppedPort) {
                w.firstAnswerFromRestarted.compareAndSet(0, now);
            }
        }
        return null;
    }

    @Test
    @Order(4)
    void onClusterDdlIsRefusedByTheEmbeddedEngineAndTheConnectionStaysUsable() {
        // clickhouse-local runs no DDL worker and no Keeper (docs/scaling.md): pinned so that an engine
        // which gains them shows up here
        try (ClickHouseTcpClient c = node(1)) {
            ClickHouseServerException e = catchThrowableOfType(ClickHouseServerException.class,
                    () -> c.execute("CREATE TABLE " + TestClients.table("on_cluster") + " ON CLUSTER "
                            + ClickHouseCluster.NAME + " (x UInt8) ENGINE = MergeTree ORDER BY x"));
            assertThat(e).isNotNull();
            assertThat(e.code()).isEqualTo(392); // QUERY_IS_PROHIBITED: "Replicated DDL queries are disabled"
            assertThat(c.query("SELECT 1", (row, i) -> row.getInt(0))).containsExactly(1);
        }
    }
}
