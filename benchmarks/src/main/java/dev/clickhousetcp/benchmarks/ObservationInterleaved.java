package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;

/**
 * A check of {@link ObservationBenchmark} that load on a shared machine cannot skew one arm against another:
 * three clients (no observations, a registry with a handler that does nothing, Micrometer's meter handler)
 * in one JVM, their calls alternating, timed one by one; prints min, first quartile and median per arm.
 * Run with {@code java -cp benchmarks/target/benchmarks.jar dev.clickhousetcp.benchmarks.ObservationInterleaved}
 * (server from {@code -Dclickhouse.host} / {@code -Dclickhouse.port}, default 127.0.0.1:19000).
 */
public final class ObservationInterleaved {
    private ObservationInterleaved() {
    }

    static long read(ClickHouseTcpClient c, String sql) {
        long s = 0;
        try (QueryResult r = c.query(sql)) {
            Block b;
            while ((b = r.next()) != null) { s += b.rowCount(); }
        }
        return s;
    }
    /** Runs the check. */
    public static void main(String[] args) {
        String big = "SELECT number, toString(number), toFloat64(number) FROM numbers(1000000)";
        ClickHouseTcpClient off = BenchmarkServer.builder().build();
        ObservationRegistry h = ObservationRegistry.create();
        h.observationConfig().observationHandler(ctx -> true);
        ClickHouseTcpClient handler = BenchmarkServer.builder().observationRegistry(h).build();
        ObservationRegistry m = ObservationRegistry.create();
        m.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
        ClickHouseTcpClient metrics = BenchmarkServer.builder().observationRegistry(m).build();
        ClickHouseTcpClient[] cs = {off, handler, metrics};
        String[] names = {"off", "handler", "metrics"};
        for (String sql : new String[] {"SELECT 1", big}) {
            int rounds = sql.equals(big) ? 40 : 600;
            long[][] t = new long[3][rounds];
            for (int w = 0; w < rounds / 4; w++) for (ClickHouseTcpClient c : cs) read(c, sql);
            for (int i = 0; i < rounds; i++) {
                for (int k = 0; k < 3; k++) {
                    int j = (i + k) % 3;
                    long t0 = System.nanoTime();
                    read(cs[j], sql);
                    t[j][i] = System.nanoTime() - t0;
                }
            }
            for (int k = 0; k < 3; k++) {
                long[] x = t[k].clone(); java.util.Arrays.sort(x);
                System.out.printf(java.util.Locale.ROOT, "%s %-8s min %8.1f us  p25 %8.1f us  median %8.1f us%n", sql.equals(big) ? "blockRead" : "selectOne", names[k], x[0] / 1e3, x[rounds / 4] / 1e3, x[rounds / 2] / 1e3);
            }
        }
        for (ClickHouseTcpClient c : cs) c.close();
    }
}
