package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * 1,000,000 rows of (UInt64, String, Float64) inserted in three shapes: columnar (long[], String[],
 * double[]), Object[] rows and beans (POCO), into a {@code Null}-engine table. {@link #setUp} first
 * inserts every shape into a Memory table and checks count() and the checksum.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class InsertShapesBenchmark {
    static final int ROWS = 1_000_000;
    static final List<String> COLUMNS = List.of("id", "name", "value");

    private final String table = "bench_shapes_null_" + ProcessHandle.current().pid();
    private final String checkTable = "bench_shapes_check_" + ProcessHandle.current().pid();

    private ClickHouseTcpClient client;
    private Map<String, Object> columns;
    private List<Object[]> rows;
    private List<Data.Item> items;

    @Setup
    public void setUp() {
        client = BenchmarkServer.newClient();
        columns = new LinkedHashMap<>();
        columns.put("id", Data.ids(ROWS));
        columns.put("name", Data.names(ROWS));
        columns.put("value", Data.values(ROWS));
        rows = new ArrayList<>(ROWS);
        for (int i = 0; i < ROWS; i++) {
            rows.add(new Object[] {(long) i, Integer.toString(i), (double) i});
        }
        items = Data.items(ROWS);
        client.execute("DROP TABLE IF EXISTS " + checkTable);
        client.execute("CREATE TABLE " + checkTable + " " + Data.TABLE_COLUMNS + " ENGINE = Memory");
        try {
            client.insertColumns(checkTable, columns);
            Data.verifyTable(client, checkTable, ROWS, "columnar insert");
            client.execute("TRUNCATE TABLE " + checkTable);
            client.insert(checkTable, COLUMNS, rows);
            Data.verifyTable(client, checkTable, ROWS, "Object[] insert");
            client.execute("TRUNCATE TABLE " + checkTable);
            client.insert(checkTable, items);
            Data.verifyTable(client, checkTable, ROWS, "POCO insert");
        } finally {
            client.execute("DROP TABLE IF EXISTS " + checkTable);
        }
        client.execute("DROP TABLE IF EXISTS " + table);
        client.execute("CREATE TABLE " + table + " " + Data.TABLE_COLUMNS + " ENGINE = Null");
    }

    @TearDown
    public void tearDown() {
        try {
            client.execute("DROP TABLE IF EXISTS " + table);
        } finally {
            client.close();
        }
    }

    @Benchmark
    public long columnar() {
        return client.insertColumns(table, columns);
    }

    @Benchmark
    public long objectRows() {
        return client.insert(table, COLUMNS, rows);
    }

    @Benchmark
    public long poco() {
        return client.insert(table, items);
    }
}
