package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * 64 queries (each 10,000 rows of UInt64, String, Float64 on the block tier) submitted at once to
 * {@code width} threads sharing one client whose pool holds {@code width} connections. One operation
 * is all 64 finished; every query's checksum is checked.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class PoolConcurrencyBenchmark {
    static final int QUERIES = 64;
    static final int ROWS = 10_000;
    static final String SQL = Data.select(ROWS);
    static final long EXPECTED = Data.checksum(ROWS);

    @Param({"1", "8", "32"})
    public int width;

    private ClickHouseTcpClient client;
    private ExecutorService pool;

    @Setup
    public void setUp() throws Exception {
        client = BenchmarkServer.track(BenchmarkServer.builder().maxPoolSize(width).build());
        client.ping();
        pool = Executors.newFixedThreadPool(width);
        BenchmarkServer.check("64 queries", QUERIES, run());
    }

    @TearDown
    public void tearDown() {
        pool.shutdownNow();
        client.close();
    }

    @Benchmark
    public long run() throws InterruptedException, ExecutionException {
        List<Future<Long>> futures = new ArrayList<>(QUERIES);
        for (int i = 0; i < QUERIES; i++) {
            futures.add(pool.submit(() -> Data.readBlocks(client, SQL, QueryOptions.DEFAULT, null)));
        }
        long ok = 0;
        for (Future<Long> f : futures) {
            BenchmarkServer.check("query checksum", EXPECTED, f.get());
            ok++;
        }
        return ok;
    }
}
