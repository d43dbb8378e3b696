package dev.clickhousetcp.spring.actuate.endpoint;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import javax.management.JMException;
import javax.management.ObjectName;

import dev.clickhousetcp.client.ClickHouseConnection;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.Compression;
import dev.clickhousetcp.client.ConnectionConfig;
import dev.clickhousetcp.client.InsertStream;
import dev.clickhousetcp.client.PoolStats;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.BufferPool;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.Int64Column;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Checks {@link ClickHouseMemoryBudget} against a measurement: a pool filled to its maximum size by a
 * known workload (every connection reads blocks of eight 8 MiB UInt64 columns, so the column buffer pool
 * the connections share fills close to its cap, and inserts LZ4-compressed blocks, so every frame buffer
 * exists), then the heap the client retains, measured after full collections. The measured figure must be
 * within the budget's retained bytes, and at least what is known to be held (the column buffers the pool
 * reports and the connections' socket buffers), so the measurement is not vacuous. Two figures are
 * checked: the bytes of the live objects (from the JVM's class histogram) against the budget without its G1
 * terms, and the heap occupied (used heap after full collections, which counts G1's humongous regions
 * whole) against the whole budget.
 */
@ClickHouseTest
class ClickHouseMemoryBudgetMeasurementTests {

    private static final int CONNECTIONS = 8;

    private static final int BLOCK_ROWS = 1 << 20;

    private static final String SELECT = "SELECT number AS c0, number + 1 AS c1, number + 2 AS c2, number + 3 AS c3, "
            + "number + 4 AS c4, number + 5 AS c5, number + 6 AS c6, number + 7 AS c7 FROM numbers(" + BLOCK_ROWS
            + ") SETTINGS max_block_size = " + BLOCK_ROWS;

    @Test
    void aFullPoolRetainsNoMoreThanItsBudget(ClickHouseServer server) {
        // twice what the pool retains, and the blocks of all connections in flight at once (8 columns of 8 MiB)
        long needed = 2L * ClickHouseMemoryBudget
            .of(ConnectionConfig.builder().compression(Compression.LZ4).build(), CONNECTIONS)
            .retainedBytes() + CONNECTIONS * 8L * 8 * BLOCK_ROWS;
        assumeTrue(Runtime.getRuntime().maxMemory() >= needed,
                () -> "needs a maximum heap of at least " + (needed >> 20) + " MiB");
        String table = "memory_budget_" + Long.toHexString(System.nanoTime());
        try (ClickHouseTcpClient setup = builder(server, 1).build()) {
            setup.execute("CREATE TABLE " + table + " (id UInt64, s String) ENGINE = Null");
            workload(setup, table, 1); // loads the classes and caches of the path, outside the measurement
        }
        long baselineUsed = settledHeapUsed();
        long baselineLive = liveHeapBytes();
        ClickHouseTcpClient client = builder(server, CONNECTIONS).build();
        try {
            workload(client, table, CONNECTIONS);
            PoolStats stats = client.poolStats();
            assertThat(stats.created()).isEqualTo(CONNECTIONS);
            assertThat(stats.idle()).isEqualTo(CONNECTIONS);

            long occupied = settledHeapUsed() - baselineUsed;
            long live = liveHeapBytes() - baselineLive;
            List<BufferPool> pools = distinct(onEveryConnection(client, CONNECTIONS, ClickHouseConnection::bufferPool));
            long columnBuffers = pools.stream().mapToLong(BufferPool::retainedBytes).sum();
            long known = columnBuffers + 2L * CONNECTIONS * client.config().bufferSize();
            ClickHouseMemoryBudget budget = ClickHouseMemoryBudget.of(client);
            long g1Rounding = g1(budget.perClient()) + CONNECTIONS * g1(budget.perConnection());
            System.out.printf("memory budget check: %d connections: live objects %d bytes, heap occupied %d bytes, "
                    + "known held %d (column buffer pool %d, %d pool(s)); budget retained %d, of which G1 rounding %d; "
                    + "terms per client %s, per connection %s%n", CONNECTIONS, live, occupied, known, columnBuffers,
                    pools.size(), budget.retainedBytes(), g1Rounding, budget.perClient(), budget.perConnection());
            // the connections share one column buffer pool, filled close to its cap by the workload (buffers
            // of growing columns are recycled in power-of-two classes, at most half the cap in one class)
            long cap = client.config().blockBufferPoolSize();
            assertThat(pools).hasSize(1);
            assertThat(columnBuffers).isBetween(cap / 2, cap);
            assertThat(live).isBetween(known, budget.retainedBytes() - g1Rounding);
            assertThat(occupied).isBetween(known, budget.retainedBytes());
            assertThat(budget.retainedBytes())
                .isEqualTo(budget.perClientBytes() + CONNECTIONS * budget.perConnectionBytes());
        }
        finally {
            Reference.reachabilityFence(client);
            client.close();
        }
        try (ClickHouseTcpClient cleanup = builder(server, 1).build()) {
            cleanup.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    private static ClickHouseTcpClient.Builder builder(ClickHouseServer server, int maxConnections) {
        return ClickHouseTcpClient.builder()
            .host(server.host())
            .port(server.tcpPort())
            .compression(Compression.LZ4)
            .maxPoolSize(maxConnections)
            .acquireTimeout(Duration.ofSeconds(30));
    }

    /** Fills the pool to {@code connections}: reads on all at once, then inserts on all at once. */
    private static void workload(ClickHouseTcpClient client, String table, int connections) {
        List<QueryResult> results = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                results.add(client.query(SELECT));
            }
            for (QueryResult result : results) {
                long sum = 0;
                for (Block block : result) {
                    for (int c = 0; c < block.columnCount(); c++) {
                        sum += ((Int64Column) block.column(c)).getLong(block.rowCount() - 1);
                    }
                }
                assertThat(sum).isPositive();
            }
        }
        finally {
            results.forEach(QueryResult::close);
        }
        insertOnEach(client, "INSERT INTO " + table + " (id, s) VALUES", connections);
    }

    /** One insert per connection, all open at once, so each goes to its own connection. */
    private static void insertOnEach(ClickHouseTcpClient client, String sql, int remaining) {
        if (remaining == 0) {
            return;
        }
        client.withInsert(sql, QueryOptions.DEFAULT, (InsertStream insert) -> {
            insertOnEach(client, sql, remaining - 1);
            ColumnWriter[] writers = insert.newWriters();
            int rows = 200_000;
            for (int block = 0; block < 2; block++) {
                for (int row = 0; row < rows; row++) {
                    writers[0].appendLong(row);
                    writers[1].append("value-" + row);
                }
                insert.sendBlock(writers, rows);
            }
            return null;
        });
    }

    /** The G1 rounding term of {@code terms}, 0 when there is none. */
    private static long g1(List<ClickHouseMemoryBudget.Term> terms) {
        return terms.stream()
            .filter((term) -> term.name().equals("g1HumongousRounding"))
            .mapToLong(ClickHouseMemoryBudget.Term::bytes)
            .sum();
    }

    /** The distinct objects of {@code values}, by identity. */
    private static <T> List<T> distinct(List<T> values) {
        Set<T> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        return values.stream().filter(seen::add).toList();
    }

    /** Applies {@code fn} to each of the pool's {@code connections} connections, holding all at once. */
    private static <T> List<T> onEveryConnection(ClickHouseTcpClient client, int connections,
            Function<ClickHouseConnection, T> fn) {
        List<T> values = new ArrayList<>();
        if (connections > 0) {
            client.withConnection((connection) -> {
                values.add(fn.apply(connection));
                values.addAll(onEveryConnection(client, connections - 1, fn));
                return null;
            });
        }
        return values;
    }

    /** Bytes of the live objects on the heap (a full collection first), from the JVM's class histogram. */
    static long liveHeapBytes() {
        try {
            Object histogram = ManagementFactory.getPlatformMBeanServer()
                .invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                        new Object[] { new String[0] }, new String[] { String[].class.getName() });
            String[] lines = histogram.toString().strip().split("\n");
            String[] total = lines[lines.length - 1].trim().split("\\s+");
            assertThat(total[0]).isEqualTo("Total");
            return Long.parseLong(total[2]);
        }
        catch (JMException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * The heap in use after full collections, once two collections in a row agree within 64 KiB (or after
     * 30 seconds of trying, then the lower reading).
     */
    static long settledHeapUsed() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        long previous = Long.MAX_VALUE;
        while (true) {
            System.gc();
            long used = memory.getHeapMemoryUsage().getUsed();
            if (Math.abs(previous - used) < (64 << 10) || System.nanoTime() - deadline > 0) {
                return Math.min(previous, used);
            }
            previous = used;
        }
    }

}
