package dev.clickhousetcp.benchmarks;

import com.clickhouse.client.api.Client;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
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
import java.util.concurrent.TimeUnit;

/**
 * What users read: {@value #ROWS} rows of {@code id UInt64, s String, f Float64} from a MergeTree table
 * ({@value #TABLE}; id = n, s = toString(n), f = n for n below {@value #ROWS}), created and filled on the
 * first run and checked by count and checksum on every run, then read whole by each arm:
 *
 * <ul>
 *   <li>{@link #serverFloor}: the server's own scan of the same rows without sending them
 *       ({@code SELECT count() FROM t WHERE NOT ignore(id, s, f)}) over our native connection: no read
 *       can be faster than this plus the transfer;</li>
 *   <li>{@link #blockLengths}: our block tier, strings as byte lengths (no decoding);</li>
 *   <li>{@link #blockDecoded}: our block tier, every string decoded with {@code getString};</li>
 *   <li>{@link #httpClientV2}: the official HTTP client reading RowBinaryWithNamesAndTypes with its
 *       binary reader ({@code getLong}, {@code getString}, {@code getDouble}).</li>
 * </ul>
 *
 * <p>{@code compressed}: both clients with ClickHouse's LZ4 block framing (see {@link HttpPeer}), or
 * neither; the report's ratios divide each arm by {@link #httpClientV2} with the same setting.
 *
 * <p>Every arm returns sum(id) + sum(string byte length) + (long) sum(f), checked in setup (the floor
 * returns the row count). Milliseconds per full read; one benchmark thread.
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
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class TableScanBenchmark {
    static final int ROWS = 5_000_000;
    static final String TABLE = "bench_table_scan_5m";
    static final String SQL = "SELECT id, s, f FROM " + TABLE;
    static final String FLOOR_SQL = "SELECT count() FROM " + TABLE + " WHERE NOT ignore(id, s, f)";

    @Param({"false", "true"})
    public boolean compressed;

    private ClickHouseTcpClient tcp;
    private Client http;

    @Setup
    public void setUp() {
        tcp = HttpPeer.newTcpClient(compressed);
        http = HttpPeer.newHttpClient(compressed);
        ensureTable(tcp);
        long expected = Data.checksum(ROWS);
        long[] n = new long[1];
        BenchmarkServer.check("server floor rows", ROWS, serverFloor());
        BenchmarkServer.check("block lengths checksum", expected, Data.readBlocks(tcp, SQL, QueryOptions.DEFAULT, n));
        BenchmarkServer.check("block lengths rows", ROWS, n[0]);
        BenchmarkServer.check("block decoded checksum", expected, blockDecoded());
        BenchmarkServer.check("client-v2 checksum", expected, HttpPeer.read(http, SQL, n));
        BenchmarkServer.check("client-v2 rows", ROWS, n[0]);
    }

    /** Creates and fills the table when it is missing or does not hold exactly the expected rows. */
    static void ensureTable(ClickHouseTcpClient client) {
        client.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (id UInt64, s String, f Float64) "
                + "ENGINE = MergeTree ORDER BY id");
        if (!holdsExpectedRows(client)) {
            client.execute("TRUNCATE TABLE " + TABLE);
            client.execute("INSERT INTO " + TABLE + " SELECT number, toString(number), toFloat64(number) FROM numbers("
                    + ROWS + ")");
            client.execute("OPTIMIZE TABLE " + TABLE + " FINAL");
            if (!holdsExpectedRows(client)) {
                throw new IllegalStateException(TABLE + " does not hold the expected rows after filling it");
            }
        }
    }

    private static boolean holdsExpectedRows(ClickHouseTcpClient client) {
        List<Object[]> r = client.queryRows("SELECT count(), sum(id), sum(length(s)), sum(f) FROM " + TABLE);
        Object[] row = r.get(0);
        long count = ((Number) row[0]).longValue();
        long sum = ((Number) row[1]).longValue() + ((Number) row[2]).longValue() + (long) ((Number) row[3]).doubleValue();
        return count == ROWS && sum == Data.checksum(ROWS);
    }

    @TearDown
    public void tearDown() {
        tcp.close();
        http.close();
    }

    /** The server's scan of every row and column without sending them; returns the count. */
    @Benchmark
    public long serverFloor() {
        long count = -1;
        try (QueryResult r = tcp.query(FLOOR_SQL, QueryOptions.DEFAULT)) {
            Block b;
            while ((b = r.next()) != null) {
                if (b.rowCount() > 0) {
                    count = b.column(0).getLong(0);
                }
            }
        }
        return count;
    }

    @Benchmark
    public long blockLengths() {
        return Data.readBlocks(tcp, SQL, QueryOptions.DEFAULT, null);
    }

    @Benchmark
    public long blockDecoded() {
        return Data.readBlocksDecoded(tcp, SQL, QueryOptions.DEFAULT);
    }

    @Benchmark
    public long httpClientV2() {
        return HttpPeer.read(http, SQL, null);
    }
}
