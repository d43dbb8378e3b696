package dev.clickhousetcp.benchmarks;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.data_formats.ClickHouseBinaryFormatReader;
import com.clickhouse.client.api.query.QueryResponse;
import dev.clickhousetcp.client.ClickHouseTcpClient;
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

/** Warm {@code SELECT 1}: our block tier on a pooled connection against client-v2 on its pooled HTTP connection. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class TransportLatencyBenchmark {
    @Param({"false", "true"})
    public boolean compressed;

    private ClickHouseTcpClient tcp;
    private Client http;

    @Setup
    public void setUp() {
        tcp = HttpPeer.newTcpClient(compressed);
        http = HttpPeer.newHttpClient(compressed);
        BenchmarkServer.check("tcp SELECT 1", 1, tcpSelectOne());
        BenchmarkServer.check("client-v2 SELECT 1", 1, httpClientV2());
    }

    @TearDown
    public void tearDown() {
        tcp.close();
        http.close();
    }

    @Benchmark
    public long tcpSelectOne() {
        return ConnectionCostBenchmark.selectOne(tcp);
    }

    @Benchmark
    @SuppressWarnings("try") // client-v2's close() declares InterruptedException
    public long httpClientV2() {
        try (QueryResponse response = http.query("SELECT 1").get(10, TimeUnit.SECONDS);
             ClickHouseBinaryFormatReader reader = http.newBinaryFormatReader(response)) {
            long v = -1;
            while (reader.hasNext()) {
                reader.next();
                v = reader.getLong(1);
            }
            return v;
        } catch (Exception e) {
            throw new IllegalStateException("client-v2 SELECT 1 failed", e);
        }
    }
}
