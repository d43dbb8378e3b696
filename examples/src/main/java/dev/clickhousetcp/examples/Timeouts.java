package dev.clickhousetcp.examples;

import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;

import java.time.Duration;

/**
 * Timeouts: connection-level ones on the builder ({@code connectTimeout}, {@code handshakeTimeout},
 * {@code socketTimeout}, {@code acquireTimeout}), a default for every call ({@code defaultQueryTimeout}),
 * and one per call ({@code QueryOptions.timeout}). An expired timeout throws
 * {@link ClickHouseTimeoutException}; {@code deadline()} says which one it was. The query is cancelled on
 * the server.
 */
public final class Timeouts {

    private Timeouts() {
    }

    public record Expired(ClickHouseTimeoutException.Deadline deadline, Duration timeout, Duration took) {
    }

    public static void main(String[] args) {
        System.out.println(run(System.getProperty("clickhouse.host", "127.0.0.1"),
                Integer.getInteger("clickhouse.port", 19000)));
    }

    public static Expired run(String host, int port) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host(host).port(port)
                .connectTimeout(Duration.ofSeconds(3))
                .acquireTimeout(Duration.ofSeconds(5))
                .defaultQueryTimeout(Duration.ofSeconds(30))        // calls without a timeout of their own
                .build()) {
            long start = System.nanoTime();
            try {
                // 100 blocks of one row, 50 ms each: about 5 s, far beyond the 300 ms this call allows
                client.queryRows("SELECT sleepEachRow(0.05) FROM numbers(100) SETTINGS max_block_size = 1",
                        QueryOptions.builder().timeout(Duration.ofMillis(300)).build());
                throw new IllegalStateException("the query should have timed out");
            } catch (ClickHouseTimeoutException e) {
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                client.ping();                                       // the client stays usable
                return new Expired(e.deadline(), e.timeout(), took);
            }
        }
    }
}
