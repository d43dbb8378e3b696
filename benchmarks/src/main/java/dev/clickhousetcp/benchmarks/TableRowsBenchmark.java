package dev.clickhousetcp.benchmarks;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.data_formats.ClickHouseBinaryFormatReader;
import com.clickhouse.client.api.query.GenericRecord;
import com.clickhouse.client.api.query.QueryResponse;
import com.clickhouse.client.api.query.QuerySettings;
import com.clickhouse.data.ClickHouseFormat;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.mapping.MappingConfig;
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
import org.openjdk.jmh.infra.BenchmarkParams;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The row tiers over what users read: 5,000,000 rows of {@code id UInt64, s String, f Float64} stored
 * in a MergeTree table ({@value #TABLE}) on the benchmark server, read whole by each arm in its own
 * JVM. Ours: {@code queryRows} as a list, {@code forEachRow} (Object[] rows streamed), {@code
 * queryRows} with UInt64 as {@code long}, and records through {@code forEach}. client-v2 (HTTP,
 * RowBinaryWithNamesAndTypes, uncompressed as ours): its streaming reader with typed getters (the
 * reference of the ratios), its reader building an {@code Object[]} per row with {@code readValue}, and
 * {@code queryAll} ({@code List<GenericRecord>}).
 *
 * <p>The table is created once if absent ({@code CREATE TABLE IF NOT EXISTS ... AS SELECT} from
 * {@code numbers()}, deterministic) and checked before any timing: count, sum of ids, total string
 * bytes and sum of floats must equal the closed form for {@code 0..n-1}.
 *
 * <p>The fork's heap is fixed and touched at start ({@code -XX:+AlwaysPreTouch}): an arm that allocates a few
 * hundred MB per read would otherwise spend most of each read in the kernel's first-touch page faults of a heap it
 * has not collected yet (measured: records through {@code forEach} 2.1 s per read without it, 0.23–0.26 s with it),
 * while an arm that allocates GBs cycles through the heap and soon stops paying them.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms6g", "-Xmx6g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class TableRowsBenchmark {
    static final long ROWS = 5_000_000;
    static final String TABLE = "bench_table_5m";
    static final String SQL = "SELECT id, s, f FROM " + TABLE;

    private ClickHouseTcpClient tcp;
    private ClickHouseTcpClient tcpLong;
    private Client http;

    /** One row as a record, for {@link #records}. */
    public record Rec(long id, String s, double f) {
    }

    /** Checks the table, then the answer of the arm about to be timed (each arm runs in its own fork). */
    @Setup
    public void setUp(BenchmarkParams params) {
        tcp = HttpPeer.newTcpClient(false);
        tcpLong = BenchmarkServer.track(BenchmarkServer.builder()
                .compression(dev.clickhousetcp.client.Compression.NONE)
                .setting("async_insert", 0)
                .mapping(MappingConfig.DEFAULT.withUint64AsLong(true))
                .build());
        http = HttpPeer.newHttpClient(false);
        ensureTable(tcp);
        String arm = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        long expected = Data.checksum(ROWS);
        long actual = switch (arm) {
            case "rowsList" -> rowsList();
            case "rowsListLong" -> rowsListLong();
            case "rowsStreamed" -> rowsStreamed();
            case "records" -> records();
            case "httpReader" -> httpReader();
            case "httpReaderRows" -> httpReaderRows();
            case "httpQueryAll" -> httpQueryAll();
            default -> throw new IllegalStateException("no check for arm " + arm);
        };
        BenchmarkServer.check(arm + " checksum", expected, actual);
    }

    /** Creates and fills the table when absent; waits for a concurrent creator; checks its contents. */
    static void ensureTable(ClickHouseTcpClient client) {
        client.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " ENGINE = MergeTree ORDER BY id AS SELECT number AS id,"
                + " toString(number) AS s, toFloat64(number) AS f FROM numbers(" + ROWS + ")");
        String check = "SELECT count(), sum(id), sum(length(s)), sum(f) FROM " + TABLE;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        Object[] row;
        do {
            row = client.queryRows(check).get(0);
        } while (((Number) row[0]).longValue() < ROWS && System.nanoTime() < deadline);
        BenchmarkServer.check(TABLE + " count()", ROWS, ((Number) row[0]).longValue());
        BenchmarkServer.check(TABLE + " sum(id)", BenchmarkServer.sumBelow(ROWS), ((Number) row[1]).longValue());
        BenchmarkServer.check(TABLE + " sum(length(s))", BenchmarkServer.digitsBelow(ROWS), ((Number) row[2]).longValue());
        BenchmarkServer.check(TABLE + " sum(f)", (double) BenchmarkServer.sumBelow(ROWS), ((Number) row[3]).doubleValue());
    }

    @TearDown
    public void tearDown() {
        tcp.close();
        tcpLong.close();
        http.close();
    }

    private static long checksum(List<Object[]> rows) {
        long sum = 0;
        double fsum = 0;
        for (Object[] row : rows) {
            sum += ((Number) row[0]).longValue() + ((String) row[1]).length();
            fsum += (Double) row[2];
        }
        if (rows.size() != ROWS) {
            throw new IllegalStateException("rows: " + rows.size());
        }
        return sum + (long) fsum;
    }

    /** {@code queryRows}: every row as an {@code Object[]} in one list (UInt64 as BigInteger). */
    @Benchmark
    public long rowsList() {
        return checksum(tcp.queryRows(SQL));
    }

    /** {@code queryRows} on a client whose {@code MappingConfig} has {@code uint64AsLong}: UInt64 as Long. */
    @Benchmark
    public long rowsListLong() {
        return checksum(tcpLong.queryRows(SQL));
    }

    /** {@code forEachRow}: a fresh {@code Object[]} per row handed to a callback, none kept. */
    @Benchmark
    public long rowsStreamed() {
        long[] acc = new long[2];
        double[] fsum = new double[1];
        long n = tcp.forEachRow(SQL, QueryOptions.DEFAULT, row -> {
            acc[0] += ((Number) row[0]).longValue() + ((String) row[1]).length();
            fsum[0] += (Double) row[2];
        });
        if (n != ROWS) {
            throw new IllegalStateException("rows: " + n);
        }
        return acc[0] + (long) fsum[0];
    }

    /** Records through {@code forEach} (streamed, none kept). */
    @Benchmark
    public long records() {
        long[] acc = new long[1];
        double[] fsum = new double[1];
        long n = tcp.forEach(SQL, Rec.class, r -> {
            acc[0] += r.id() + r.s().length();
            fsum[0] += r.f();
        });
        if (n != ROWS) {
            throw new IllegalStateException("rows: " + n);
        }
        return acc[0] + (long) fsum[0];
    }

    /** client-v2's streaming reader with typed getters: the reference arm. */
    @Benchmark
    public long httpReader() {
        long[] n = new long[1];
        long sum = HttpPeer.read(http, SQL, n);
        if (n[0] != ROWS) {
            throw new IllegalStateException("rows: " + n[0]);
        }
        return sum;
    }

    /** client-v2's streaming reader, one {@code Object[]} per row from {@code readValue} (UInt64 as BigInteger). */
    @Benchmark
    @SuppressWarnings("try") // client-v2's close() declares InterruptedException
    public long httpReaderRows() {
        QuerySettings settings = new QuerySettings().setFormat(ClickHouseFormat.RowBinaryWithNamesAndTypes);
        long sum = 0;
        double fsum = 0;
        long rows = 0;
        try (QueryResponse response = http.query(SQL, settings).get(60, TimeUnit.SECONDS);
             ClickHouseBinaryFormatReader reader = http.newBinaryFormatReader(response)) {
            while (reader.hasNext()) {
                reader.next();
                Object[] row = {reader.readValue(1), reader.readValue(2), reader.readValue(3)};
                sum += ((Number) row[0]).longValue() + ((String) row[1]).length();
                fsum += (Double) row[2];
                rows++;
            }
        } catch (Exception e) {
            throw new IllegalStateException("client-v2 query failed: " + SQL, e);
        }
        if (rows != ROWS) {
            throw new IllegalStateException("rows: " + rows);
        }
        return sum + (long) fsum;
    }

    /** client-v2's {@code queryAll}: every row as a {@code GenericRecord} in one list. */
    @Benchmark
    public long httpQueryAll() {
        List<GenericRecord> rows = http.queryAll(SQL);
        long sum = 0;
        double fsum = 0;
        for (GenericRecord r : rows) {
            sum += ((Number) r.getObject(1)).longValue() + ((String) r.getObject(2)).length();
            fsum += (Double) r.getObject(3);
        }
        if (rows.size() != ROWS) {
            throw new IllegalStateException("rows: " + rows.size());
        }
        return sum + (long) fsum;
    }
}
