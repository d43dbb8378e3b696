package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.ArrayColumn;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.LowCardinalityColumn;
import dev.clickhousetcp.data.MapColumn;
import dev.clickhousetcp.data.NullableColumn;
import dev.clickhousetcp.data.StringColumn;
import dev.clickhousetcp.data.TupleColumn;
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
 * Composite columns, 1,000,000 rows of one column generated from {@code numbers()}, read two ways:
 * {@link #columnar} through the column views without per-row objects (array/map offsets via
 * {@code start}/{@code length} over the flattened elements, keys and values; tuple elements; the
 * Nullable null map and nested column; LowCardinality keys into the dictionary) and {@link #objects}
 * through {@code getObject} per row ({@code List}, {@code Map}, {@code List} for the tuple, boxed
 * {@code Long} or {@code null}, {@code String}).
 *
 * <p>Shapes ({@code type}; k = number % 5, so arrays and maps hold 0 to 4 entries, 2 on average):
 * {@code Array} = {@code Array(UInt64)} [number, number + k); {@code Map} = {@code Map(String, UInt64)}
 * with keys "0".."k-1" and the same values; {@code Tuple} = {@code Tuple(UInt64, String)} (number,
 * toString(number)); {@code Nullable} = {@code Nullable(Int64)}, NULL every third row, else -number;
 * {@code LowCardinality} = {@code LowCardinality(String)} with 1,000 distinct values.
 *
 * <p>Both arms return the same checksum (per row: entry count + values + string byte lengths; 1 for
 * NULL), compared in {@link #setUp} with the sum computed in Java from the generating formula, as is
 * the row count. The times include the server generating the rows; they compare the two ways of
 * reading the same column on this client, not types with each other (the shapes differ in size).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class CompositeReadBenchmark {
    static final int ROWS = 1_000_000;

    /** The column under test. */
    @Param({"Array", "Map", "Tuple", "Nullable", "LowCardinality"})
    public String type;

    enum Shape {
        ARRAY("Array(UInt64)", "range(number, number + number % 5)"),
        MAP("Map(String, UInt64)",
                "mapFromArrays(arrayMap(j -> toString(j), range(number % 5)), range(number, number + number % 5))"),
        TUPLE("Tuple(UInt64, String)", "tuple(number, toString(number))"),
        NULLABLE("Nullable(Int64)", "if(number % 3 = 0, NULL, -toInt64(number))"),
        LOW_CARDINALITY("LowCardinality(String)", "toLowCardinality(concat('sku-', toString(number % 1000)))");

        final String typeName;
        final String expression;

        Shape(String typeName, String expression) {
            this.typeName = typeName;
            this.expression = expression;
        }

        static Shape of(String param) {
            return switch (param) {
                case "Array" -> ARRAY;
                case "Map" -> MAP;
                case "Tuple" -> TUPLE;
                case "Nullable" -> NULLABLE;
                case "LowCardinality" -> LOW_CARDINALITY;
                default -> throw new IllegalArgumentException("unknown type '" + param
                        + "': use Array, Map, Tuple, Nullable or LowCardinality");
            };
        }

        /** The checksum of row n, from the generating formula. */
        long expected(long n) {
            long k = n % 5;
            long values = k * n + k * (k - 1) / 2; // n + (n + 1) + ... + (n + k - 1)
            return switch (this) {
                case ARRAY -> k + values;
                case MAP -> k + k + values; // each key "0".."4" is one byte
                case TUPLE -> 2 + n + Long.toString(n).length();
                case NULLABLE -> n % 3 == 0 ? 1 : -n;
                case LOW_CARDINALITY -> 4 + Long.toString(n % 1000).length();
            };
        }
    }

    private ClickHouseTcpClient client;
    private Shape shape;
    private String sql;

    @Setup
    public void setUp() {
        client = BenchmarkServer.newClient();
        shape = Shape.of(type);
        sql = "SELECT " + shape.expression + " AS v FROM numbers(" + ROWS + ")";
        long expected = 0;
        for (long n = 0; n < ROWS; n++) {
            expected += shape.expected(n);
        }
        long[] rows = new long[1];
        BenchmarkServer.check(type + " columnar checksum", expected, columnar(rows));
        BenchmarkServer.check(type + " columnar rows", ROWS, rows[0]);
        rows[0] = 0;
        BenchmarkServer.check(type + " objects checksum", expected, objects(rows));
        BenchmarkServer.check(type + " objects rows", ROWS, rows[0]);
    }

    @TearDown
    public void tearDown() {
        client.close();
    }

    @Benchmark
    public long columnar() {
        return columnar(null);
    }

    @Benchmark
    public long objects() {
        return objects(null);
    }

    private long columnar(long[] rowsOut) {
        long sum = 0;
        long count = 0;
        try (QueryResult r = client.query(sql)) {
            Block b;
            while ((b = r.next()) != null) {
                Column c = b.column(0);
                if (!c.type().name().equals(shape.typeName)) {
                    throw new IllegalStateException("column type " + c.type().name() + ", expected " + shape.typeName);
                }
                int rows = b.rowCount();
                sum += switch (shape) {
                    case ARRAY -> array((ArrayColumn) c, rows);
                    case MAP -> map((MapColumn) c, rows);
                    case TUPLE -> tuple((TupleColumn) c, rows);
                    case NULLABLE -> nullable((NullableColumn) c, rows);
                    case LOW_CARDINALITY -> lowCardinality((LowCardinalityColumn) c, rows);
                };
                count += rows;
            }
        }
        if (rowsOut != null) {
            rowsOut[0] = count;
        }
        return sum;
    }

    private static long array(ArrayColumn a, int rows) {
        Column elements = a.elements();
        long sum = 0;
        for (int i = 0; i < rows; i++) {
            int s = a.start(i);
            int e = s + a.length(i);
            sum += e - s;
            for (int p = s; p < e; p++) {
                sum += elements.getLong(p);
            }
        }
        return sum;
    }

    private static long map(MapColumn m, int rows) {
        StringColumn keys = (StringColumn) m.keys();
        Column values = m.values();
        long sum = 0;
        for (int i = 0; i < rows; i++) {
            int s = m.start(i);
            int e = s + m.length(i);
            sum += e - s;
            for (int p = s; p < e; p++) {
                sum += keys.length(p) + values.getLong(p);
            }
        }
        return sum;
    }

    private static long tuple(TupleColumn t, int rows) {
        Column first = t.element(0);
        StringColumn second = (StringColumn) t.element(1);
        long sum = 2L * rows;
        for (int i = 0; i < rows; i++) {
            sum += first.getLong(i) + second.length(i);
        }
        return sum;
    }

    private static long nullable(NullableColumn c, int rows) {
        byte[] nulls = c.nullMap();
        Column nested = c.nested();
        long sum = 0;
        for (int i = 0; i < rows; i++) {
            sum += nulls[i] != 0 ? 1 : nested.getLong(i);
        }
        return sum;
    }

    private static long lowCardinality(LowCardinalityColumn c, int rows) {
        StringColumn dictionary = (StringColumn) c.dictionary();
        long sum = 0;
        for (int i = 0; i < rows; i++) {
            sum += dictionary.length(c.key(i));
        }
        return sum;
    }

    private long objects(long[] rowsOut) {
        long sum = 0;
        long count = 0;
        try (QueryResult r = client.query(sql)) {
            Block b;
            while ((b = r.next()) != null) {
                Column c = b.column(0);
                int rows = b.rowCount();
                for (int i = 0; i < rows; i++) {
                    sum += value(c.getObject(i));
                }
                count += rows;
            }
        }
        if (rowsOut != null) {
            rowsOut[0] = count;
        }
        return sum;
    }

    /** The row checksum of a boxed value (every string here is ASCII: chars = bytes). */
    private long value(Object v) {
        switch (shape) {
            case ARRAY: {
                List<?> l = (List<?>) v;
                long sum = l.size();
                for (Object e : l) {
                    sum += ((Number) e).longValue();
                }
                return sum;
            }
            case MAP: {
                Map<?, ?> m = (Map<?, ?>) v;
                long sum = m.size();
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    sum += ((String) e.getKey()).length() + ((Number) e.getValue()).longValue();
                }
                return sum;
            }
            case TUPLE: {
                List<?> l = (List<?>) v;
                return l.size() + ((Number) l.get(0)).longValue() + ((String) l.get(1)).length();
            }
            case NULLABLE:
                return v == null ? 1 : ((Number) v).longValue();
            case LOW_CARDINALITY:
                return ((String) v).length();
            default:
                throw new IllegalStateException(shape.name());
        }
    }
}
