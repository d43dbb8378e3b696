package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
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

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/**
 * The Java native-protocol peer on the table users read: the {@value TableScanBenchmark#ROWS} rows of
 * {@link TableScanBenchmark} ({@code id UInt64, s String, f Float64} from a MergeTree table, created and
 * checked there), read whole by housepower {@code clickhouse-native-jdbc} through a {@code ResultSet}
 * ({@code getLong}, {@code getString}, {@code getDouble}) and by our block tier with every string decoded
 * ({@code getString}), both without compression (housepower's default). Every arm returns sum(id) +
 * sum(string length) + (long) sum(f), checked in setup. Milliseconds per full read; one benchmark thread.
 *
 * <p>The fork's heap is fixed and touched at start ({@code -XX:+AlwaysPreTouch}): an arm that allocates a few
 * hundred MB per read would otherwise spend most of each read in the kernel's first-touch page faults of a heap it
 * has not collected yet (measured: records through {@code forEach} 2.1 s per read without it, 0.23–0.26 s with it),
 * while an arm that allocates GBs cycles through the heap and soon stops paying them.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class TableHousepowerBenchmark {
    private ClickHouseTcpClient tcp;
    private Connection jdbc;

    @Setup
    public void setUp() throws SQLException {
        tcp = HttpPeer.newTcpClient(false);
        jdbc = HousepowerBenchmark.openJdbc();
        TableScanBenchmark.ensureTable(tcp);
        long expected = Data.checksum(TableScanBenchmark.ROWS);
        long[] n = new long[1];
        BenchmarkServer.check("block decoded checksum", expected, blockDecoded());
        BenchmarkServer.check("housepower checksum", expected, HousepowerBenchmark.read(jdbc, TableScanBenchmark.SQL, n));
        BenchmarkServer.check("housepower rows", TableScanBenchmark.ROWS, n[0]);
    }

    @TearDown
    public void tearDown() throws SQLException {
        try {
            jdbc.close();
        } finally {
            tcp.close();
        }
    }

    @Benchmark
    public long blockDecoded() {
        return Data.readBlocksDecoded(tcp, TableScanBenchmark.SQL, QueryOptions.DEFAULT);
    }

    @Benchmark
    public long housepower() throws SQLException {
        return HousepowerBenchmark.read(jdbc, TableScanBenchmark.SQL, null);
    }
}
