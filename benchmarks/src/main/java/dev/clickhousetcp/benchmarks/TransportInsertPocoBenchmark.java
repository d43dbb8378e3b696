package dev.clickhousetcp.benchmarks;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.insert.InsertResponse;
import com.clickhouse.client.api.insert.InsertSettings;
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
 * 1,000,000 beans ({@link Data.Item}) into a {@code Null}-engine table: our object insert
 * ({@code insert(table, Iterable)}) against client-v2's POJO insert ({@code insert(table, List)} with the
 * class registered for the table schema).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class TransportInsertPocoBenchmark {
    static final int ROWS = 1_000_000;

    @Param({"false", "true"})
    public boolean compressed;

    private final String table = "bench_tpinsert_null_" + ProcessHandle.current().pid();
    private final String checkTable = "bench_tpinsert_check_" + ProcessHandle.current().pid();
    private ClickHouseTcpClient tcp;
    private Client http;
    private List<Data.Item> items;
    private final InsertSettings settings = new InsertSettings().serverSetting("async_insert", "0");

    @Setup
    public void setUp() {
        tcp = HttpPeer.newTcpClient(compressed);
        http = HttpPeer.newHttpClient(compressed);
        items = Data.items(ROWS);
        tcp.execute("DROP TABLE IF EXISTS " + checkTable);
        tcp.execute("CREATE TABLE " + checkTable + " " + Data.TABLE_COLUMNS + " ENGINE = Memory");
        try {
            http.register(Data.Item.class, http.getTableSchema(checkTable));
            BenchmarkServer.check("tcp rows", ROWS, tcp.insert(checkTable, items));
            Data.verifyTable(tcp, checkTable, ROWS, "tcp POCO insert");
            tcp.execute("TRUNCATE TABLE " + checkTable);
            BenchmarkServer.check("client-v2 rows", ROWS, insertHttp(checkTable));
            Data.verifyTable(tcp, checkTable, ROWS, "client-v2 POJO insert");
        } finally {
            tcp.execute("DROP TABLE IF EXISTS " + checkTable);
        }
        tcp.execute("DROP TABLE IF EXISTS " + table);
        tcp.execute("CREATE TABLE " + table + " " + Data.TABLE_COLUMNS + " ENGINE = Null");
        // client-v2 keys its POJO serializers by table schema: register the class for the timed table too
        http.register(Data.Item.class, http.getTableSchema(table));
        BenchmarkServer.check("client-v2 rows into the Null table", ROWS, insertHttp(table));
    }

    @TearDown
    public void tearDown() {
        try {
            tcp.execute("DROP TABLE IF EXISTS " + table);
        } finally {
            tcp.close();
            http.close();
        }
    }

    @Benchmark
    public long tcpPoco() {
        return tcp.insert(table, items);
    }

    @Benchmark
    public long httpClientV2() {
        return insertHttp(table);
    }

    private long insertHttp(String t) {
        try (InsertResponse r = http.insert(t, items, settings).get(120, TimeUnit.SECONDS)) {
            return r.getWrittenRows();
        } catch (Exception e) {
            throw new IllegalStateException("client-v2 POJO insert failed", e);
        }
    }
}
