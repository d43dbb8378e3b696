package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.data.ArrayType;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.data.FlatArray;
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

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Insert of one array column, 1,000,000 rows of 0 to 4 elements (2,000,000 elements), into a
 * {@code Null}-engine table, in four shapes: {@link #flat} (the flattened elements plus one end
 * offset per row as a {@link FlatArray} passed to {@code insertColumns}: a {@code long[]} of elements
 * is serialized straight from the array, strings are UTF-8 encoded into the column buffer),
 * {@link #rowArrays} ({@code insertColumns} with one Java array per row: {@code long[][]} or
 * {@code String[][]}), {@link #rowLists} (one {@code List} per row: boxed {@code Long}s or
 * {@code String}s) and {@link #poco} ({@code insert} of records with one array component).
 *
 * <p>{@code element} is {@code UInt64} ({@code Array(UInt64)}) or {@code String}
 * ({@code Array(String)}). Row i holds the i % 5 elements i, i + 1, ... (as decimal text for
 * {@code String}). The inputs are built once in {@link #setUp}. {@link #setUp} first inserts every shape into a {@code Memory} table and
 * checks {@code count()}, the element count, the sum of the elements (for strings also their byte
 * lengths) against values computed in Java from the formula. Each arm returns the rows inserted.
 * The {@code Null} engine discards the data, so the times are the client's encoding, the transfer
 * and the server's parsing, not storage; loopback only.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class ArrayWriteShapeBenchmark {
    static final int ROWS = 1_000_000;

    /** Element type: {@code UInt64} or {@code String}. */
    @Param({"UInt64", "String"})
    public String element;

    /** A record with an {@code Array(UInt64)} component. */
    public record LongArrayRow(long[] a) {
    }

    /** A record with an {@code Array(String)} component. */
    public record StringArrayRow(String[] a) {
    }

    private final String table = "bench_array_shape_null_" + ProcessHandle.current().pid();
    private final String checkTable = "bench_array_shape_check_" + ProcessHandle.current().pid();

    private ClickHouseTcpClient client;
    private boolean strings;
    private ArrayType arrayType;
    /** End offset of each row in the flat values. */
    private int[] offsets;
    private long[] flatLongs;
    private String[] flatStrings;
    private Object rowArrays;
    private List<List<?>> rowLists;
    private List<?> pocos;

    @Setup
    public void setUp() {
        strings = switch (element) {
            case "UInt64" -> false;
            case "String" -> true;
            default -> throw new IllegalArgumentException("unknown element '" + element + "': use UInt64 or String");
        };
        client = BenchmarkServer.newClient();
        arrayType = (ArrayType) DataTypes.parse("Array(" + element + ")", ZoneOffset.UTC);
        build();

        client.execute("DROP TABLE IF EXISTS " + checkTable);
        client.execute("CREATE TABLE " + checkTable + " (a " + arrayType.name() + ") ENGINE = Memory");
        try {
            check("flat", flatInto(checkTable));
            check("rowArrays", rowArraysInto(checkTable));
            check("rowLists", rowListsInto(checkTable));
            check("poco", pocoInto(checkTable));
        } finally {
            client.execute("DROP TABLE IF EXISTS " + checkTable);
        }
        client.execute("DROP TABLE IF EXISTS " + table);
        client.execute("CREATE TABLE " + table + " (a " + arrayType.name() + ") ENGINE = Null");
    }

    @TearDown
    public void tearDown() {
        try {
            client.execute("DROP TABLE IF EXISTS " + table);
        } finally {
            client.close();
        }
    }

    /** Row i holds the i % 5 values i, i + 1, ...: the flat values, the end offsets and the per-row shapes. */
    private void build() {
        offsets = new int[ROWS];
        int total = 0;
        for (int i = 0; i < ROWS; i++) {
            total += i % 5;
            offsets[i] = total;
        }
        long[] longs = new long[total];
        for (int i = 0, p = 0; i < ROWS; i++) {
            for (int j = 0; j < i % 5; j++) {
                longs[p++] = i + j;
            }
        }
        List<List<?>> lists = new ArrayList<>(ROWS);
        if (strings) {
            flatStrings = new String[total];
            for (int p = 0; p < total; p++) {
                flatStrings[p] = Long.toString(longs[p]);
            }
            String[][] arrays = new String[ROWS][];
            List<StringArrayRow> rows = new ArrayList<>(ROWS);
            for (int i = 0; i < ROWS; i++) {
                arrays[i] = Arrays.copyOfRange(flatStrings, start(i), offsets[i]);
                lists.add(List.of(arrays[i].clone()));
                rows.add(new StringArrayRow(arrays[i]));
            }
            rowArrays = arrays;
            pocos = rows;
        } else {
            flatLongs = longs;
            long[][] arrays = new long[ROWS][];
            List<LongArrayRow> rows = new ArrayList<>(ROWS);
            for (int i = 0; i < ROWS; i++) {
                arrays[i] = Arrays.copyOfRange(longs, start(i), offsets[i]);
                Long[] boxed = new Long[arrays[i].length];
                for (int j = 0; j < boxed.length; j++) {
                    boxed[j] = arrays[i][j];
                }
                lists.add(List.of(boxed));
                rows.add(new LongArrayRow(arrays[i]));
            }
            rowArrays = arrays;
            pocos = rows;
        }
        rowLists = lists;
    }

    private int start(int row) {
        return row == 0 ? 0 : offsets[row - 1];
    }

    /** count(), element count, element sum and (strings) byte lengths in the Memory table, then empties it. */
    private void check(String arm, long inserted) {
        BenchmarkServer.check(arm + ": rows reported by the insert", ROWS, inserted);
        String values = strings ? "arraySum(x -> toUInt64(x), a)" : "arraySum(a)";
        Object[] row = client.queryRows("SELECT count(), sum(length(a)), sum(" + values + "),"
                + (strings ? " sum(arraySum(x -> length(x), a))" : " 0") + " FROM " + checkTable).get(0);
        long elements = 0;
        long sum = 0;
        long bytes = 0;
        for (int i = 0; i < ROWS; i++) {
            for (long j = 0; j < i % 5; j++) {
                elements++;
                sum += i + j;
                bytes += strings ? Long.toString(i + j).length() : 0;
            }
        }
        BenchmarkServer.check(arm + ": count()", ROWS, ((Number) row[0]).longValue());
        BenchmarkServer.check(arm + ": elements", elements, ((Number) row[1]).longValue());
        BenchmarkServer.check(arm + ": sum of elements", sum, ((Number) row[2]).longValue());
        BenchmarkServer.check(arm + ": bytes of elements", bytes, ((Number) row[3]).longValue());
        client.execute("TRUNCATE TABLE " + checkTable);
    }

    private long flatInto(String target) {
        return client.insertColumns(target, Map.of("a", FlatArray.of(strings ? flatStrings : flatLongs, offsets)));
    }

    private long rowArraysInto(String target) {
        return client.insertColumns(target, Map.of("a", rowArrays));
    }

    private long rowListsInto(String target) {
        return client.insertColumns(target, Map.of("a", rowLists));
    }

    private long pocoInto(String target) {
        return client.insert(target, pocos);
    }

    @Benchmark
    public long flat() {
        return flatInto(table);
    }

    @Benchmark
    public long rowArrays() {
        return rowArraysInto(table);
    }

    @Benchmark
    public long rowLists() {
        return rowListsInto(table);
    }

    @Benchmark
    public long poco() {
        return pocoInto(table);
    }
}
