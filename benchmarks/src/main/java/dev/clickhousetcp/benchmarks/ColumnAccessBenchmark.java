package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.Float64Column;
import dev.clickhousetcp.data.Int64Column;
import dev.clickhousetcp.data.StringColumn;
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
 * Reading query results: 1,000,000 rows on the block tier (one UInt64 column summed per value or
 * bulk-copied; three columns UInt64 + String + Float64), and 100,000 rows through the Object[] tier
 * ({@code queryRows}) next to the same 100,000 rows on the block tier. Every method returns a
 * checksum; {@link #setUp} runs each once and compares it with the known answer before any timing.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class ColumnAccessBenchmark {
    /** Network compression: {@code default} (the client's), {@code none}, {@code lz4}, {@code zstd}. */
    @Param(BenchmarkServer.DEFAULT_COMPRESSION)
    public String compression;

    static final int ROWS = 1_000_000;
    static final int OBJECT_ROWS = 100_000;

    static final String ONE_COLUMN = "SELECT number FROM numbers(" + ROWS + ")";
    static final String THREE_COLUMNS = "SELECT number, toString(number), toFloat64(number) FROM numbers(" + ROWS + ")";
    static final String THREE_COLUMNS_SMALL =
            "SELECT number, toString(number), toFloat64(number) FROM numbers(" + OBJECT_ROWS + ")";

    private ClickHouseTcpClient client;
    /** Reused destination for {@link Int64Column#copyTo}; grown to the largest block seen. */
    private long[] scratch = new long[65_536];

    @Setup
    public void setUp() {
        client = BenchmarkServer.newClient(compression);
        verifyContent();

        long sum = BenchmarkServer.sumBelow(ROWS);
        BenchmarkServer.check("oneColumnGetLong checksum", sum, oneColumnGetLong());
        BenchmarkServer.check("oneColumnCopyTo checksum", sum, oneColumnCopyTo());
        long three = threeColumnChecksum(ROWS);
        BenchmarkServer.check("threeColumnsRaw checksum", three, threeColumnsRaw());
        BenchmarkServer.check("threeColumnsGetString checksum", three, threeColumnsGetString());
        long small = threeColumnChecksum(OBJECT_ROWS);
        BenchmarkServer.check("threeColumnsSmallBlocks checksum", small, threeColumnsSmallBlocks());
        BenchmarkServer.check("threeColumnsSmallObjectRows checksum", small, threeColumnsSmallObjectRows());
    }

    @TearDown
    public void tearDown() {
        client.close();
    }

    /** Slow, thorough, untimed: every row's three values agree with each other and with the row number. */
    private void verifyContent() {
        long rows = 0;
        try (QueryResult r = client.query(THREE_COLUMNS)) {
            Block b;
            while ((b = r.next()) != null) {
                Column n = b.column(0);
                Column s = b.column(1);
                Column f = b.column(2);
                for (int i = 0; i < b.rowCount(); i++) {
                    long v = n.getLong(i);
                    BenchmarkServer.check("number of row " + rows, rows, v);
                    BenchmarkServer.check("toString(number) of row " + rows, v, Long.parseLong(s.getString(i)));
                    BenchmarkServer.check("toFloat64(number) of row " + rows, (double) v, f.getDouble(i));
                    rows++;
                }
            }
        }
        BenchmarkServer.check("row count of " + THREE_COLUMNS, ROWS, rows);
    }

    /**
     * The checksum the three-column methods compute: sum(number) + total bytes of toString(number) +
     * (long) sum(toFloat64(number)), i.e. 2 * n(n-1)/2 + digits. Exact: every partial double sum is an
     * integer below 2^53.
     */
    static long threeColumnChecksum(long n) {
        return 2 * BenchmarkServer.sumBelow(n) + BenchmarkServer.digitsBelow(n);
    }

    /** 1M UInt64 values read one by one with {@code Column.getLong} (no boxing). */
    @Benchmark
    public long oneColumnGetLong() {
        long sum = 0;
        try (QueryResult r = client.query(ONE_COLUMN)) {
            Block b;
            while ((b = r.next()) != null) {
                Column c = b.column(0);
                int n = b.rowCount();
                for (int i = 0; i < n; i++) {
                    sum += c.getLong(i);
                }
            }
        }
        return sum;
    }

    /** 1M UInt64 values bulk-copied per block with {@link Int64Column#copyTo} into a reused long[]. */
    @Benchmark
    public long oneColumnCopyTo() {
        long sum = 0;
        try (QueryResult r = client.query(ONE_COLUMN)) {
            Block b;
            while ((b = r.next()) != null) {
                int n = b.rowCount();
                if (scratch.length < n) {
                    scratch = new long[n];
                }
                long[] dst = scratch;
                ((Int64Column) b.column(0)).copyTo(dst, 0);
                for (int i = 0; i < n; i++) {
                    sum += dst[i];
                }
            }
        }
        return sum;
    }

    /**
     * 1M rows of UInt64 + String + Float64 on the block tier without decoding strings: the String
     * column contributes each row's byte length ({@link StringColumn#length}).
     */
    @Benchmark
    public long threeColumnsRaw() {
        return readThreeColumnsRaw(THREE_COLUMNS);
    }

    /** As {@link #threeColumnsRaw} but each string decoded to a {@code java.lang.String} ({@code getString}). */
    @Benchmark
    public long threeColumnsGetString() {
        long sum = 0;
        double fsum = 0;
        try (QueryResult r = client.query(THREE_COLUMNS)) {
            Block b;
            while ((b = r.next()) != null) {
                Column n = b.column(0);
                Column s = b.column(1);
                Column f = b.column(2);
                int rows = b.rowCount();
                for (int i = 0; i < rows; i++) {
                    sum += n.getLong(i) + s.getString(i).length();
                    fsum += f.getDouble(i);
                }
            }
        }
        return sum + (long) fsum;
    }

    /** 100k rows of the three columns on the block tier (the baseline for the Object[] tier below). */
    @Benchmark
    public long threeColumnsSmallBlocks() {
        return readThreeColumnsRaw(THREE_COLUMNS_SMALL);
    }

    /**
     * 100k rows of the three columns through {@code queryRows}: one {@code Object[]} per row, values
     * boxed ({@code BigInteger} for UInt64, {@code String}, {@code Double}).
     */
    @Benchmark
    public long threeColumnsSmallObjectRows() {
        List<Object[]> rows = client.queryRows(THREE_COLUMNS_SMALL);
        long sum = 0;
        double fsum = 0;
        for (Object[] row : rows) {
            sum += ((Number) row[0]).longValue() + ((String) row[1]).length();
            fsum += ((Number) row[2]).doubleValue();
        }
        return sum + (long) fsum;
    }

    private long readThreeColumnsRaw(String sql) {
        long sum = 0;
        double fsum = 0;
        try (QueryResult r = client.query(sql)) {
            Block b;
            while ((b = r.next()) != null) {
                Column n = b.column(0);
                StringColumn s = (StringColumn) b.column(1);
                Float64Column f = (Float64Column) b.column(2);
                int rows = b.rowCount();
                for (int i = 0; i < rows; i++) {
                    sum += n.getLong(i) + s.length(i);
                    fsum += f.getDouble(i);
                }
            }
        }
        return sum + (long) fsum;
    }
}
