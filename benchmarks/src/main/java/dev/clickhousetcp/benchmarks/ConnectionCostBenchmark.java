package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseConnection;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;
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

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Fixed per-call costs on a warm pool: a Ping/Pong round trip, the smallest query ({@code SELECT 1})
 * read on the block tier and through {@code queryRows}, and, for contrast, opening a new connection
 * (TCP connect + Hello/Addendum handshake) and closing it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class ConnectionCostBenchmark {
    /** Network compression: {@code default} (the client's), {@code none}, {@code lz4}, {@code zstd}. */
    @Param(BenchmarkServer.DEFAULT_COMPRESSION)
    public String compression;

    private ClickHouseTcpClient client;

    @Setup
    public void setUp() {
        client = BenchmarkServer.newClient(compression);
        BenchmarkServer.check("SELECT 1 on the block tier", 1, selectOne(client));
        List<Object[]> rows = client.queryRows("SELECT 1");
        BenchmarkServer.check("SELECT 1 row count", 1, rows.size());
        BenchmarkServer.check("SELECT 1 via queryRows", 1, ((Number) rows.get(0)[0]).longValue());
        client.ping();
    }

    @TearDown
    public void tearDown() {
        client.close();
    }

    /** One Ping/Pong round trip on a pooled connection (pool acquire + release included). */
    @Benchmark
    public void ping() {
        client.ping();
    }

    /** {@code SELECT 1}: Query packet out, header + data block + progress/profile packets + EndOfStream in. */
    @Benchmark
    public long selectOne() {
        return selectOne(client);
    }

    /** {@code SELECT 1} through the Object[] tier. */
    @Benchmark
    public Object selectOneRows() {
        return client.queryRows("SELECT 1").get(0)[0];
    }

    /** A fresh connection: TCP connect, handshake, then close (no pool). */
    @Benchmark
    public long openConnection() {
        try (ClickHouseConnection c = ClickHouseConnection.open(client.config())) {
            return c.revision();
        }
    }

    /** A new client per operation: build, connect + handshake on the first ping, close. */
    @Benchmark
    public void newClientPing() {
        try (ClickHouseTcpClient c = BenchmarkServer.newClient()) {
            c.ping();
        }
    }

    static long selectOne(ClickHouseTcpClient client) {
        try (QueryResult r = client.query("SELECT 1")) {
            long v = -1;
            Block b;
            while ((b = r.next()) != null) {
                v = b.column(0).getLong(0);
            }
            return v;
        }
    }
}
