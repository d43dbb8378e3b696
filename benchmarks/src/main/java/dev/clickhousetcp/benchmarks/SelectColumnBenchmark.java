package dev.clickhousetcp.benchmarks;

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
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Per-type decode on the block tier: one column of 1,000,000 rows per arm, read through the column's
 * typed accessors (no boxing, strings not decoded: their byte length counts). {@link #setUp} checks the
 * row count and that the block-tier checksum equals the checksum of the same rows through
 * {@code queryRows} (a different decoding path: boxed values).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class SelectColumnBenchmark {
    static final int ROWS = 1_000_000;

    /** Type under test → expression over {@code number} producing it. */
    static final Map<String, String> EXPRESSIONS = Map.ofEntries(
            Map.entry("DateTime", "toDateTime(number, 'UTC')"),
            Map.entry("UInt32", "toUInt32(number)"),
            Map.entry("Date32", "toDate32(number % 50000)"),
            Map.entry("Int32", "toInt32(number)"),
            Map.entry("NullableInt32", "if(number % 5 = 0, NULL, toInt32(number))"),
            Map.entry("Date", "toDate(number % 50000)"),
            Map.entry("Float32", "toFloat32(number)"),
            Map.entry("Float64", "toFloat64(number)"),
            Map.entry("Int64", "toInt64(number)"),
            Map.entry("UInt64", "number"),
            Map.entry("Decimal256", "toDecimal256(number, 10)"),
            Map.entry("Array", "range(number % 4)"),
            Map.entry("Decimal64", "toDecimal64(number, 4)"),
            Map.entry("Tuple", "tuple(number, toString(number))"),
            Map.entry("String", "toString(number)"),
            Map.entry("Decimal128", "toDecimal128(number, 10)"),
            Map.entry("LowCardinalityString", "toLowCardinality(toString(number % 100))"),
            Map.entry("UUID", "toUUID(concat('00000000-0000-4000-8000-', leftPad(hex(number), 12, '0')))"),
            Map.entry("Map", "map(number % 10, toString(number))"));

    @Param({"DateTime", "UInt32", "Date32", "Int32", "NullableInt32", "Date", "Float32", "Float64", "Int64",
            "UInt64", "Decimal256", "Array", "Decimal64", "Tuple", "String", "Decimal128",
            "LowCardinalityString", "UUID", "Map"})
    public String type;

    private ClickHouseTcpClient client;
    private String sql;

    @Setup
    public void setUp() {
        client = BenchmarkServer.newClient();
        sql = "SELECT " + EXPRESSIONS.get(type) + " AS v FROM numbers(" + ROWS + ")";
        List<Object[]> rows = client.queryRows(sql);
        BenchmarkServer.check(type + " row count via queryRows", ROWS, rows.size());
        long expected = 0;
        for (Object[] row : rows) {
            expected += Checksums.value(row[0]);
        }
        rows = null;
        long[] counted = new long[1];
        long actual = read(counted);
        BenchmarkServer.check(type + " row count on the block tier", ROWS, counted[0]);
        BenchmarkServer.check(type + " block-tier checksum against queryRows", expected, actual);
    }

    @TearDown
    public void tearDown() {
        client.close();
    }

    @Benchmark
    public long read() {
        return read(null);
    }

    private long read(long[] counted) {
        long sum = 0;
        long n = 0;
        try (QueryResult r = client.query(sql)) {
            Block b;
            while ((b = r.next()) != null) {
                sum += Checksums.column(b.column(0), 0, b.rowCount());
                n += b.rowCount();
            }
        }
        if (counted != null) {
            counted[0] = n;
        }
        return sum;
    }
}
