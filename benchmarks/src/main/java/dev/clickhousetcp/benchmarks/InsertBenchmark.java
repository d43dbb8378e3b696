package dev.clickhousetcp.benchmarks;

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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Inserting: 1,000,000 rows of UInt64 + Float64 from primitive arrays ({@code insertColumns}) into a
 * {@code Null}-engine table, so the server parses and discards the data and the client side dominates;
 * and, for contrast, 100,000 of the same rows as {@code Object[]} ({@code insert}). {@link #setUp}
 * first sends both shapes into a Memory table once and checks count and sums.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class InsertBenchmark {
    /** Network compression: {@code default} (the client's), {@code none}, {@code lz4}, {@code zstd}. */
    @Param(BenchmarkServer.DEFAULT_COMPRESSION)
    public String compression;

    static final int ROWS = 1_000_000;
    static final int OBJECT_ROWS = 100_000;

    private final String table = "bench_insert_null_" + ProcessHandle.current().pid();
    private final String checkTable = "bench_insert_check_" + ProcessHandle.current().pid();

    private ClickHouseTcpClient client;
    private Map<String, Object> columns;
    private List<Object[]> objectRows;

    @Setup
    public void setUp() {
        client = BenchmarkServer.newClient(compression);
        long[] ids = new long[ROWS];
        double[] values = new double[ROWS];
        for (int i = 0; i < ROWS; i++) {
            ids[i] = i;
            values[i] = i * 0.5;
        }
        columns = new LinkedHashMap<>();
        columns.put("id", ids);
        columns.put("value", values);
        objectRows = new ArrayList<>(OBJECT_ROWS);
        for (int i = 0; i < OBJECT_ROWS; i++) {
            objectRows.add(new Object[] {(long) i, i * 0.5});
        }

        client.execute("DROP TABLE IF EXISTS " + checkTable);
        client.execute("CREATE TABLE " + checkTable + " (id UInt64, value Float64) ENGINE = Memory");
        try {
            BenchmarkServer.check("rows reported by insertColumns", ROWS, client.insertColumns(checkTable, columns));
            verify(ROWS);
            client.execute("TRUNCATE TABLE " + checkTable);
            BenchmarkServer.check("rows reported by insert", OBJECT_ROWS,
                    client.insert(checkTable, List.of("id", "value"), objectRows));
            verify(OBJECT_ROWS);
        } finally {
            client.execute("DROP TABLE IF EXISTS " + checkTable);
        }

        client.execute("DROP TABLE IF EXISTS " + table);
        client.execute("CREATE TABLE " + table + " (id UInt64, value Float64) ENGINE = Null");
        BenchmarkServer.check("insertColumns into the Null table", ROWS, insertColumns());
        BenchmarkServer.check("insert into the Null table", OBJECT_ROWS, insertObjectRows());
    }

    private void verify(long n) {
        List<Object[]> r = client.queryRows("SELECT count(), sum(id), sum(value) FROM " + checkTable);
        BenchmarkServer.check("count() after insert", n, ((Number) r.get(0)[0]).longValue());
        BenchmarkServer.check("sum(id) after insert", BenchmarkServer.sumBelow(n), ((Number) r.get(0)[1]).longValue());
        BenchmarkServer.check("sum(value) after insert", BenchmarkServer.sumBelow(n) * 0.5,
                ((Number) r.get(0)[2]).doubleValue());
    }

    @TearDown
    public void tearDown() {
        try {
            client.execute("DROP TABLE IF EXISTS " + table);
        } finally {
            client.close();
        }
    }

    /** 1M rows (UInt64 + Float64) from a long[] and a double[], sent as one columnar insert. */
    @Benchmark
    public long insertColumns() {
        return client.insertColumns(table, columns);
    }

    /** 100k rows of the same columns as boxed {@code Object[]} rows. */
    @Benchmark
    public long insertObjectRows() {
        return client.insert(table, List.of("id", "value"), objectRows);
    }
}
