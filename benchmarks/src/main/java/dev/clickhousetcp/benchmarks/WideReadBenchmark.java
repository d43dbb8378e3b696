package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Int64Column;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A wide read on the block tier: 200,000 rows of 100 UInt64 columns (four blocks of 65,409 rows, 160 MB
 * of column data), every value summed. {@code one} reads it on one connection; {@code fourAtOnce} opens
 * four such results at once (four pooled connections) and then reads them one after the other, so the
 * column buffers the client keeps for reuse are shared by four connections. The allocation per read
 * ({@code gc.alloc.rate.norm}) shows how much of the column data came from recycled buffers.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class WideReadBenchmark {
    static final int ROWS = 200_000;
    static final int COLUMNS = 100;

    private ClickHouseTcpClient client;
    private String sql;
    private long expected;

    @Setup
    public void setUp() {
        client = BenchmarkServer.track(BenchmarkServer.builder().maxPoolSize(4).build());
        StringBuilder s = new StringBuilder("SELECT ");
        for (int c = 0; c < COLUMNS; c++) {
            s.append(c == 0 ? "" : ", ").append("number + ").append(c).append(" AS c").append(c);
        }
        sql = s.append(" FROM numbers(").append(ROWS).append(')').toString();
        // sum over rows r and columns c of (r + c)
        expected = (long) COLUMNS * ((long) ROWS * (ROWS - 1) / 2) + (long) ROWS * ((long) COLUMNS * (COLUMNS - 1) / 2);
        BenchmarkServer.check("wide read checksum", expected, sum(client.query(sql)));
    }

    @TearDown
    public void tearDown() {
        client.close();
    }

    private static long sum(QueryResult result) {
        try (QueryResult r = result) {
            long sum = 0;
            for (Block b : r) {
                int n = b.rowCount();
                for (int c = 0; c < b.columnCount(); c++) {
                    Int64Column col = (Int64Column) b.column(c);
                    for (int i = 0; i < n; i++) {
                        sum += col.getLong(i);
                    }
                }
            }
            return sum;
        }
    }

    @Benchmark
    public long one() {
        return sum(client.query(sql));
    }

    @Benchmark
    public long fourAtOnce() {
        List<QueryResult> results = new ArrayList<>(4);
        try {
            for (int i = 0; i < 4; i++) {
                results.add(client.query(sql));
            }
            long total = 0;
            for (QueryResult r : results) {
                total += sum(r);
            }
            return total;
        } finally {
            results.forEach(QueryResult::close);
        }
    }
}
