package dev.clickhousetcp.client;

import java.util.stream.LongStream;

/**
 * A quick local measurement of object-insert throughput per {@code maxRowsPerBlock} against the
 * 26.7 test server on 127.0.0.1:19000 (not a test; run its main method).
 */
public final class InsertWindowBench {
    public record Light(long id, String name, double x) {
    }

    public static void main(String[] args) {
        int n = 2_000_000;
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host("127.0.0.1").port(19000).build()) {
            String t = "window_bench_" + Long.toHexString(System.nanoTime());
            client.execute("CREATE TABLE " + t + " (id UInt64, name String, x Float64) ENGINE = Null");
            try {
                for (int round = 0; round < 3; round++) {
                    for (int window : new int[] {4_096, 16_384, 65_536, 262_144, 1_048_576}) {
                        InsertOptions o = InsertOptions.builder().maxRowsPerBlock(window).build();
                        long t0 = System.nanoTime();
                        client.insert(t, Light.class, LongStream.range(0, n).mapToObj(i -> new Light(i, "name-" + i, i * 0.5)), o);
                        long ms = (System.nanoTime() - t0) / 1_000_000;
                        System.out.printf("round %d window %9d: %5d ms, %5.2f M rows/s%n", round, window, ms, n / 1000.0 / ms);
                    }
                }
            } finally {
                client.execute("DROP TABLE " + t);
            }
        }
    }
}
