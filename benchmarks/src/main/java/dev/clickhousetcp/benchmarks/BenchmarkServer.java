package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.Compression;

import java.util.Locale;

/**
 * Where the benchmarks find ClickHouse: {@code -Dclickhouse.host} (default {@code 127.0.0.1}) and
 * {@code -Dclickhouse.port} (native protocol, default {@code 19000}). JMH forks inherit the host JVM's
 * {@code -D} options, so {@code java -Dclickhouse.port=9000 -jar benchmarks.jar} reaches the forks too.
 *
 * <p>Network compression is a JMH parameter of every benchmark ({@code -p compression=none,lz4,zstd}):
 * {@value #DEFAULT_COMPRESSION} keeps the client's own default.
 */
final class BenchmarkServer {
    static final String HOST_PROPERTY = "clickhouse.host";
    static final String PORT_PROPERTY = "clickhouse.port";
    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_PORT = 19000;
    /** The value of the {@code compression} benchmark parameter that leaves the client's default alone. */
    static final String DEFAULT_COMPRESSION = "default";

    private BenchmarkServer() {
    }

    static String host() {
        return System.getProperty(HOST_PROPERTY, DEFAULT_HOST);
    }

    static int port() {
        return Integer.getInteger(PORT_PROPERTY, DEFAULT_PORT);
    }

    /** A client with the client's default compression, checked with a ping. */
    static ClickHouseTcpClient newClient() {
        return newClient(DEFAULT_COMPRESSION);
    }

    /**
     * Network compression named by a benchmark parameter: {@code default} (the client's default),
     * {@code none}, {@code lz4}, {@code zstd} or {@code checksum_only}.
     */
    static Compression compression(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "none" -> Compression.NONE;
            case "lz4" -> Compression.LZ4;
            case "zstd" -> Compression.ZSTD;
            case "checksum_only" -> Compression.CHECKSUM_ONLY;
            default -> throw new IllegalArgumentException("unknown compression '" + name
                    + "': use default, none, lz4, zstd or checksum_only");
        };
    }

    /**
     * A client with a small pool (the benchmarks are single-threaded), checked with a ping.
     *
     * @param compression a {@link #compression(String)} name or {@value #DEFAULT_COMPRESSION}
     */
    static ClickHouseTcpClient newClient(String compression) {
        ClickHouseTcpClient.Builder builder = builder();
        if (!DEFAULT_COMPRESSION.equalsIgnoreCase(compression)) {
            builder.compression(compression(compression));
        }
        ClickHouseTcpClient client = track(builder.build());
        try {
            client.ping();
        } catch (RuntimeException e) {
            client.close();
            throw new IllegalStateException("no ClickHouse answering on " + host() + ":" + port()
                    + " (start one with scripts/clickhouse-server.sh start modern, or set -D" + HOST_PROPERTY
                    + " / -D" + PORT_PROPERTY + ")", e);
        }
        return client;
    }

    private static final java.util.List<ClickHouseTcpClient> OPEN = new java.util.concurrent.CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (ClickHouseTcpClient c : OPEN) {
                try {
                    c.close();
                } catch (RuntimeException ignored) {
                    // closing on exit: nothing else to do
                }
            }
        }, "close-benchmark-clients"));
    }

    /**
     * Closes the client when the JVM exits even if a failed {@code @Setup} skipped {@code @TearDown}, so the
     * server sees its connections end in order (the embedded server must not see a reset).
     */
    static ClickHouseTcpClient track(ClickHouseTcpClient client) {
        OPEN.add(client);
        return client;
    }

    /** The benchmarks' client settings (pool of 2), ready for per-benchmark changes. */
    static ClickHouseTcpClient.Builder builder() {
        return ClickHouseTcpClient.builder()
                .host(host())
                .port(port())
                .maxPoolSize(2)
                .clientName("clickhouse-tcp-benchmarks");
    }

    /** HTTP port of the same server ({@code -Dclickhouse.httpPort}, default 18123), for client-v2. */
    static int httpPort() {
        return Integer.getInteger("clickhouse.httpPort", 18123);
    }

    /** Throws when a benchmark's one-off verification run got a wrong answer. */
    static void check(String what, long expected, long actual) {
        if (expected != actual) {
            throw new IllegalStateException(what + ": expected " + expected + " but got " + actual
                    + " - the benchmark would time a wrong answer");
        }
    }

    static void check(String what, double expected, double actual) {
        if (Double.compare(expected, actual) != 0) {
            throw new IllegalStateException(what + ": expected " + expected + " but got " + actual
                    + " - the benchmark would time a wrong answer");
        }
    }

    /** Sum of 0..n-1. */
    static long sumBelow(long n) {
        return n * (n - 1) / 2;
    }

    /** Total number of decimal digits in the numbers 0..n-1 (the bytes of {@code toString(number)}). */
    static long digitsBelow(long n) {
        long total = 0;
        long lo = 0;
        long hi = 10;
        int digits = 1;
        while (lo < n) {
            total += (Math.min(hi, n) - lo) * digits;
            lo = hi;
            hi *= 10;
            digits++;
        }
        return total;
    }
}
