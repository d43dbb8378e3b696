package dev.clickhousetcp.benchmarks;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.data_formats.RowBinaryFormatWriter;
import com.clickhouse.client.api.insert.InsertResponse;
import com.clickhouse.client.api.insert.InsertSettings;
import com.clickhouse.client.api.metadata.TableSchema;
import com.clickhouse.data.ClickHouseFormat;
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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * 1,000,000 rows of (UInt64, String, Float64) from the same primitive arrays into a {@code Null}-engine
 * table: our columnar insert ({@code insertColumns}) against client-v2 streaming RowBinary written by its
 * {@link RowBinaryFormatWriter} (client-v2 has no columnar API; this is its fastest typed path).
 * {@link #setUp} sends both into a Memory table first and checks count() and checksum.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class TransportInsertBenchmark {
    static final int ROWS = 1_000_000;

    @Param({"false", "true"})
    public boolean compressed;

    private final String table = "bench_tinsert_null_" + ProcessHandle.current().pid();
    private final String checkTable = "bench_tinsert_check_" + ProcessHandle.current().pid();
    private ClickHouseTcpClient tcp;
    private Client http;
    private long[] ids;
    private String[] names;
    private double[] values;
    private Map<String, Object> columns;
    private TableSchema schema;
    private final InsertSettings settings = new InsertSettings().serverSetting("async_insert", "0");

    @Setup
    public void setUp() {
        tcp = HttpPeer.newTcpClient(compressed);
        http = HttpPeer.newHttpClient(compressed);
        ids = Data.ids(ROWS);
        names = Data.names(ROWS);
        values = Data.values(ROWS);
        columns = new LinkedHashMap<>();
        columns.put("id", ids);
        columns.put("name", names);
        columns.put("value", values);
        tcp.execute("DROP TABLE IF EXISTS " + checkTable);
        tcp.execute("CREATE TABLE " + checkTable + " " + Data.TABLE_COLUMNS + " ENGINE = Memory");
        try {
            schema = http.getTableSchema(checkTable);
            BenchmarkServer.check("tcp rows", ROWS, insertTcp(checkTable));
            Data.verifyTable(tcp, checkTable, ROWS, "tcp columnar insert");
            tcp.execute("TRUNCATE TABLE " + checkTable);
            BenchmarkServer.check("client-v2 rows", ROWS, insertHttp(checkTable));
            Data.verifyTable(tcp, checkTable, ROWS, "client-v2 RowBinary insert");
        } finally {
            tcp.execute("DROP TABLE IF EXISTS " + checkTable);
        }
        tcp.execute("DROP TABLE IF EXISTS " + table);
        tcp.execute("CREATE TABLE " + table + " " + Data.TABLE_COLUMNS + " ENGINE = Null");
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
    public long tcpColumnar() {
        return insertTcp(table);
    }

    @Benchmark
    public long httpClientV2() {
        return insertHttp(table);
    }

    private long insertTcp(String t) {
        return tcp.insertColumns(t, columns);
    }

    private long insertHttp(String t) {
        try (InsertResponse r = http.insert(t, out -> {
            RowBinaryFormatWriter w = new RowBinaryFormatWriter(out, schema, ClickHouseFormat.RowBinary);
            for (int i = 0; i < ROWS; i++) {
                w.setLong(1, ids[i]);
                w.setString(2, names[i]);
                w.setDouble(3, values[i]);
                w.commitRow();
            }
        }, ClickHouseFormat.RowBinary, settings).get(120, TimeUnit.SECONDS)) {
            return r.getWrittenRows();
        } catch (Exception e) {
            throw new IllegalStateException("client-v2 insert failed", e);
        }
    }

    static final List<String> COLUMNS = List.of("id", "name", "value");
}
