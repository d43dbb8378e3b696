package dev.clickhousetcp.benchmarks;

import com.clickhouse.client.api.Client;
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

import java.util.concurrent.TimeUnit;

/**
 * 1,000,000 rows of (UInt64, String, Float64): our block tier (strings as byte lengths), our block
 * tier with every string decoded, and client-v2 reading RowBinaryWithNamesAndTypes with its binary
 * reader (getLong, getString, getDouble). Same server, same process, same compression on both sides.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class TransportReadBenchmark {
    static final int ROWS = 1_000_000;
    static final String SQL = Data.select(ROWS);

    @Param({"false", "true"})
    public boolean compressed;

    private ClickHouseTcpClient tcp;
    private Client http;

    @Setup
    public void setUp() {
        tcp = HttpPeer.newTcpClient(compressed);
        http = HttpPeer.newHttpClient(compressed);
        long expected = Data.checksum(ROWS);
        long[] n = new long[1];
        BenchmarkServer.check("tcp block checksum", expected, Data.readBlocks(tcp, SQL, QueryOptions.DEFAULT, n));
        BenchmarkServer.check("tcp block rows", ROWS, n[0]);
        BenchmarkServer.check("tcp decoded checksum", expected, tcpBlockDecoded());
        BenchmarkServer.check("client-v2 checksum", expected, HttpPeer.read(http, SQL, n));
        BenchmarkServer.check("client-v2 rows", ROWS, n[0]);
    }

    @TearDown
    public void tearDown() {
        tcp.close();
        http.close();
    }

    @Benchmark
    public long tcpBlock() {
        return Data.readBlocks(tcp, SQL, QueryOptions.DEFAULT, null);
    }

    @Benchmark
    public long tcpBlockDecoded() {
        return Data.readBlocksDecoded(tcp, SQL, QueryOptions.DEFAULT);
    }

    @Benchmark
    public long httpClientV2() {
        return HttpPeer.read(http, SQL, null);
    }
}
