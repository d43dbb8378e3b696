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
import org.openjdk.jmh.infra.BenchmarkParams;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@value #ROWS} rows of (UInt64, String, Float64) inserted into a {@code Null}-engine table by:
 *
 * <ul>
 *   <li>{@link #jdbcBatch}: our driver, {@code PreparedStatement} {@code setLong}/{@code setString}/
 *       {@code setDouble} and {@code addBatch} per row, one {@code executeBatch} (one native INSERT);</li>
 *   <li>{@link #insertColumns}: our client's {@code insertColumns} of {@code long[]}, {@code String[]},
 *       {@code double[]}, what the driver's batch sends under it;</li>
 *   <li>{@link #httpJdbcV2}: {@code com.clickhouse:jdbc-v2} 0.10.0, the same {@code PreparedStatement} loop on
 *       its default batch path (configuration: {@link JdbcPeers}); the report divides every arm by it;</li>
 *   <li>{@link #httpJdbcV2RowBinary}: jdbc-v2 with {@code beta.row_binary_for_simple_insert=true}, its
 *       RowBinary writer for a plain {@code INSERT ... VALUES (?, ...)};</li>
 *   <li>{@link #housepower}: housepower {@code clickhouse-native-jdbc} 2.7.1, the same loop (native blocks).</li>
 * </ul>
 *
 * <p>Setup first runs the arm about to be timed into a Memory table and checks count() and the checksum.
 * Milliseconds per 1,000,000 rows; one benchmark thread; all uncompressed.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@State(Scope.Benchmark)
public class JdbcInsertBenchmark {
    static final int ROWS = 1_000_000;

    private final String table = "bench_jdbc_null_" + ProcessHandle.current().pid();
    private final String checkTable = "bench_jdbc_check_" + ProcessHandle.current().pid();

    private ClickHouseTcpClient tcp;
    private Connection jdbc;
    private Map<String, Object> columns;

    @Setup
    public void setUp(BenchmarkParams params) throws SQLException {
        tcp = HttpPeer.newTcpClient(false);
        columns = Data.columns(ROWS);
        String arm = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        jdbc = switch (arm) {
            case "jdbcBatch" -> JdbcPeers.ours();
            case "httpJdbcV2" -> JdbcPeers.jdbcV2();
            case "httpJdbcV2RowBinary" -> JdbcPeers.jdbcV2RowBinary();
            case "housepower" -> JdbcPeers.housepower();
            case "insertColumns" -> null;
            default -> throw new IllegalStateException("no connection for arm " + arm);
        };
        tcp.execute("DROP TABLE IF EXISTS " + checkTable);
        tcp.execute("CREATE TABLE " + checkTable + " " + Data.TABLE_COLUMNS + " ENGINE = Memory");
        try {
            BenchmarkServer.check(arm + " rows inserted", ROWS, insert(checkTable));
            Data.verifyTable(tcp, checkTable, ROWS, arm);
        } finally {
            tcp.execute("DROP TABLE IF EXISTS " + checkTable);
        }
        tcp.execute("DROP TABLE IF EXISTS " + table);
        tcp.execute("CREATE TABLE " + table + " " + Data.TABLE_COLUMNS + " ENGINE = Null");
    }

    @TearDown
    public void tearDown() throws SQLException {
        try {
            tcp.execute("DROP TABLE IF EXISTS " + table);
            if (jdbc != null) {
                jdbc.close();
            }
        } finally {
            tcp.close();
        }
    }

    /** The arm of this fork into {@code t}: JDBC batch when a connection is open, else insertColumns. */
    private long insert(String t) throws SQLException {
        return jdbc == null ? tcp.insertColumns(t, columns) : Data.batchInsert(jdbc, t, columns);
    }

    @Benchmark
    public long jdbcBatch() throws SQLException {
        return Data.batchInsert(jdbc, table, columns);
    }

    @Benchmark
    public long insertColumns() {
        return tcp.insertColumns(table, columns);
    }

    @Benchmark
    public long httpJdbcV2() throws SQLException {
        return Data.batchInsert(jdbc, table, columns);
    }

    @Benchmark
    public long httpJdbcV2RowBinary() throws SQLException {
        return Data.batchInsert(jdbc, table, columns);
    }

    @Benchmark
    public long housepower() throws SQLException {
        return Data.batchInsert(jdbc, table, columns);
    }
}
