package dev.clickhousetcp.benchmarks;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.metadata.TableSchema;
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

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * 1,000,000 rows (Int64, String, Float64) mapped to beans ({@link Data.Item}: id, name, value): our compiled mapper
 * ({@code query(sql, Item.class)}) against client-v2's {@code queryAll(sql, Item.class, schema)} with
 * the class registered for the query's schema.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@State(Scope.Benchmark)
public class TransportReadPocoBenchmark {
    static final int ROWS = 1_000_000;
    /**
     * {@code id} as Int64 here: client-v2 0.10.0's POJO reader fails to set a {@code long} property from a
     * UInt64 column (ClassCastException in {@code readToPOJO}), so both clients read Int64.
     */
    static final String SQL = "SELECT toInt64(number) AS id, toString(number) AS name, toFloat64(number) AS value FROM numbers("
            + ROWS + ")";

    @Param({"false", "true"})
    public boolean compressed;

    private ClickHouseTcpClient tcp;
    private Client http;
    private TableSchema schema;

    @Setup
    public void setUp() {
        tcp = HttpPeer.newTcpClient(compressed);
        http = HttpPeer.newHttpClient(compressed);
        schema = http.getTableSchemaFromQuery(SQL);
        http.register(Data.Item.class, schema);
        long expected = Data.checksum(ROWS);
        List<Data.Item> a = tcp.query(SQL, Data.Item.class);
        BenchmarkServer.check("tcp POCO rows", ROWS, a.size());
        BenchmarkServer.check("tcp POCO checksum", expected, Data.checksumOf(a));
        List<Data.Item> b = http.queryAll(SQL, Data.Item.class, schema);
        BenchmarkServer.check("client-v2 POJO rows", ROWS, b.size());
        BenchmarkServer.check("client-v2 POJO checksum", expected, Data.checksumOf(b));
    }

    @TearDown
    public void tearDown() {
        tcp.close();
        http.close();
    }

    @Benchmark
    public long tcpPoco() {
        return Data.checksumOf(tcp.query(SQL, Data.Item.class));
    }

    @Benchmark
    public long httpClientV2() {
        return Data.checksumOf(http.queryAll(SQL, Data.Item.class, schema));
    }
}
