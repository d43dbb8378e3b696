package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.StringColumn;
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

import java.util.concurrent.TimeUnit;

/**
 * 1,000,000 strings ({@code toString(number)}) read three ways: offsets only (length per row), raw
 * UTF-8 bytes (every byte visited through {@code rawData()} + {@code start}/{@code length}), and
 * decoded {@code java.lang.String}s. Every arm returns the total byte count (ASCII digits).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class StringReadBenchmark {
    static final int ROWS = 1_000_000;
    static final String SQL = "SELECT toString(number) FROM numbers(" + ROWS + ")";

    private ClickHouseTcpClient client;

    @Setup
    public void setUp() {
        client = BenchmarkServer.newClient();
        long expected = BenchmarkServer.digitsBelow(ROWS);
        BenchmarkServer.check("offsets", expected, offsets());
        BenchmarkServer.check("raw bytes (non-zero bytes)", expected, rawBytes());
        BenchmarkServer.check("decoded", expected, decoded());
    }

    @TearDown
    public void tearDown() {
        client.close();
    }

    @Benchmark
    public long offsets() {
        long sum = 0;
        try (QueryResult r = client.query(SQL)) {
            Block b;
            while ((b = r.next()) != null) {
                StringColumn s = (StringColumn) b.column(0);
                for (int i = 0, n = b.rowCount(); i < n; i++) {
                    sum += s.length(i);
                }
            }
        }
        return sum;
    }

    /** Counts the bytes by visiting them (each is an ASCII digit, so non-zero). */
    @Benchmark
    public long rawBytes() {
        long sum = 0;
        try (QueryResult r = client.query(SQL)) {
            Block b;
            while ((b = r.next()) != null) {
                StringColumn s = (StringColumn) b.column(0);
                byte[] data = s.rawData();
                for (int i = 0, n = b.rowCount(); i < n; i++) {
                    for (int p = s.start(i), e = p + s.length(i); p < e; p++) {
                        sum += data[p] != 0 ? 1 : 0;
                    }
                }
            }
        }
        return sum;
    }

    @Benchmark
    public long decoded() {
        long sum = 0;
        try (QueryResult r = client.query(SQL)) {
            Block b;
            while ((b = r.next()) != null) {
                StringColumn s = (StringColumn) b.column(0);
                for (int i = 0, n = b.rowCount(); i < n; i++) {
                    sum += s.getString(i).length();
                }
            }
        }
        return sum;
    }
}
