package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
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

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Java native-protocol peer, housepower {@code clickhouse-native-jdbc}, on the same data as our
 * client: 1,000,000 rows read through a JDBC {@code ResultSet} (getLong, getString, getDouble), and
 * 1,000,000 rows inserted with a batched {@code PreparedStatement} (its columnar block path) into a
 * {@code Null}-engine table, beside our block-tier read and columnar insert.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class HousepowerBenchmark {
    static final int ROWS = 1_000_000;
    static final String SQL = Data.select(ROWS);

    private final String table = "bench_hp_null_" + ProcessHandle.current().pid();
    private final String checkTable = "bench_hp_check_" + ProcessHandle.current().pid();
    private ClickHouseTcpClient tcp;
    private Connection jdbc;
    private Map<String, Object> columns;

    static Connection openJdbc() throws SQLException {
        return JdbcPeers.housepower();
    }

    @Setup
    public void setUp() throws SQLException {
        tcp = BenchmarkServer.newClient();
        jdbc = openJdbc();
        columns = Data.columns(ROWS);
        long expected = Data.checksum(ROWS);
        long[] n = new long[1];
        BenchmarkServer.check("tcp block checksum", expected, Data.readBlocks(tcp, SQL, QueryOptions.DEFAULT, n));
        BenchmarkServer.check("tcp block rows", ROWS, n[0]);
        BenchmarkServer.check("housepower checksum", expected, read(jdbc, SQL, n));
        BenchmarkServer.check("housepower rows", ROWS, n[0]);
        tcp.execute("DROP TABLE IF EXISTS " + checkTable);
        tcp.execute("CREATE TABLE " + checkTable + " " + Data.TABLE_COLUMNS + " ENGINE = Memory");
        try {
            Data.batchInsert(jdbc, checkTable, columns);
            Data.verifyTable(tcp, checkTable, ROWS, "housepower batch insert");
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
        } finally {
            jdbc.close();
            tcp.close();
        }
    }

    static long read(Connection c, String sql, long[] rowsOut) throws SQLException {
        long sum = 0;
        double fsum = 0;
        long rows = 0;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                sum += rs.getLong(1) + rs.getString(2).length();
                fsum += rs.getDouble(3);
                rows++;
            }
        }
        if (rowsOut != null) {
            rowsOut[0] = rows;
        }
        return sum + (long) fsum;
    }

    @Benchmark
    public long tcpBlockRead() {
        return Data.readBlocks(tcp, SQL, QueryOptions.DEFAULT, null);
    }

    @Benchmark
    public long housepowerRead() throws SQLException {
        return read(jdbc, SQL, null);
    }

    @Benchmark
    public long tcpColumnarInsert() {
        return tcp.insertColumns(table, columns);
    }

    @Benchmark
    public long housepowerInsert() throws SQLException {
        return Data.batchInsert(jdbc, table, columns);
    }
}
