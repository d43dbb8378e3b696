package dev.clickhousetcp.benchmarks;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.AbstractCollection;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@value #ROWS} rows of (UInt64, String, Float64) through Spring's
 * {@code JdbcTemplate.batchUpdate(sql, rows, }{@value #BATCH}{@code , setter)} over our driver, in a JVM
 * with {@code -Xmx256m}: the rows are generated as the template iterates them (none is kept by the caller),
 * so what the heap holds is the driver's batch of {@value #BATCH} rows, its column writers, and the
 * template's {@code int[][]} of update counts.
 *
 * <p>One single-shot iteration into a fresh MergeTree table (a new one per iteration when more are asked for). After it the table's count() and checksum are
 * checked, and {@code system.query_log} must show exactly {@code ROWS / BATCH} = 200 finished INSERT queries
 * into it. The secondary results are {@code peakHeapAfterGcMB}, the largest heap in use after any garbage
 * collection during the operation (the live heap, garbage excluded), and {@code gcCount} (JMH adds such counters
 * up over iterations: with the default single iteration they are that operation's own). Seconds per operation;
 * uncompressed.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(value = 1, jvmArgs = {"-Xmx256m"})
@State(Scope.Benchmark)
public class JdbcBatchUpdateBenchmark {
    static final int ROWS = 20_000_000;
    static final int BATCH = 100_000;

    private final String prefix = "bench_jdbc_w2_" + ProcessHandle.current().pid() + "_";
    private int iteration;
    /** This iteration's table: a new name each time, so that query_log counts only its own INSERTs. */
    private String table;

    private ClickHouseTcpClient tcp;
    private Connection jdbc;
    private JdbcTemplate template;

    /** The heap measured during the operation, reported beside its time. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Heap {
        private static final AtomicLong PEAK = new AtomicLong();
        private static final AtomicLong GCS = new AtomicLong();
        private static final NotificationListener LISTENER = (n, handback) -> {
            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                GarbageCollectionNotificationInfo info =
                        GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                long used = 0;
                for (MemoryUsage u : info.getGcInfo().getMemoryUsageAfterGc().values()) {
                    used += u.getUsed();
                }
                PEAK.accumulateAndGet(used, Math::max);
                GCS.incrementAndGet();
            }
        };

        /** Megabytes of heap in use after the fullest garbage collection of the operation. */
        public long peakHeapAfterGcMB;
        /** Garbage collections during the operation. */
        public long gcCount;

        @Setup(Level.Trial)
        public void listen() {
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                ((NotificationEmitter) gc).addNotificationListener(LISTENER, null, null);
            }
        }

        @Setup(Level.Iteration)
        public void reset() {
            System.gc();
            PEAK.set(0);
            GCS.set(0);
        }

        void record() {
            peakHeapAfterGcMB = PEAK.get() >> 20;
            gcCount = GCS.get();
        }

        @TearDown(Level.Trial)
        public void unlisten() throws Exception {
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                ((NotificationEmitter) gc).removeNotificationListener(LISTENER);
            }
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws SQLException {
        tcp = HttpPeer.newTcpClient(false);
        jdbc = JdbcPeers.ours();
        template = new JdbcTemplate(new SingleConnectionDataSource(jdbc, true));
    }

    @Setup(Level.Iteration)
    public void createTable() {
        table = prefix + iteration++;
        tcp.execute("DROP TABLE IF EXISTS " + table);
        tcp.execute("CREATE TABLE " + table + " " + Data.TABLE_COLUMNS + " ENGINE = MergeTree ORDER BY tuple()");
    }

    /** Checks what the operation wrote: count(), checksum, and the number of INSERT queries the server ran. */
    @TearDown(Level.Iteration)
    public void verify() {
        Data.verifyTable(tcp, table, ROWS, "batchUpdate");
        tcp.execute("SYSTEM FLUSH LOGS");
        long inserts = ((Number) tcp.queryRows("SELECT count() FROM system.query_log WHERE type = 'QueryFinish'"
                + " AND query_kind = 'Insert' AND has(tables, currentDatabase() || '." + table + "')"
                + " AND event_date >= yesterday()").get(0)[0]).longValue();
        BenchmarkServer.check("batchUpdate INSERT queries", ROWS / BATCH, inserts);
        tcp.execute("DROP TABLE IF EXISTS " + table);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        try {
            jdbc.close();
        } finally {
            tcp.close();
        }
    }

    @Benchmark
    public long batchUpdate(Heap heap) {
        int[][] counts = template.batchUpdate("INSERT INTO " + table + " (id, name, value) VALUES (?, ?, ?)",
                new Generated(), BATCH, (ps, i) -> {
                    ps.setLong(1, i);
                    ps.setString(2, Integer.toString(i));
                    ps.setDouble(3, i);
                });
        heap.record();
        long total = 0;
        for (int[] batch : counts) {
            for (int n : batch) {
                total += n;
            }
        }
        BenchmarkServer.check("batchUpdate update counts", ROWS, total);
        return total;
    }

    /** The row numbers {@code 0 .. ROWS-1}, made as they are iterated. */
    private static final class Generated extends AbstractCollection<Integer> {
        @Override
        public Iterator<Integer> iterator() {
            return new Iterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < ROWS;
                }

                @Override
                public Integer next() {
                    if (next >= ROWS) {
                        throw new NoSuchElementException();
                    }
                    return next++;
                }
            };
        }

        @Override
        public int size() {
            return ROWS;
        }
    }
}
