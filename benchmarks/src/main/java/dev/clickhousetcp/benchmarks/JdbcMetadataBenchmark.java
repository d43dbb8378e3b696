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

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/**
 * {@code DatabaseMetaData.getColumns(null, db, "%", "%")} over a database of {@value #TABLES} tables of three
 * columns each (Memory engine), every row read ({@code TABLE_NAME}, {@code COLUMN_NAME}, {@code DATA_TYPE},
 * {@code TYPE_NAME}). Setup creates the database once and checks that the call returns
 * {@code 3 * TABLES} rows; teardown drops it. Milliseconds per call (target: 1 s or less).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@State(Scope.Benchmark)
public class JdbcMetadataBenchmark {
    static final int TABLES = 5_000;

    private final String database = "bench_jdbc_m1_" + ProcessHandle.current().pid();

    private ClickHouseTcpClient tcp;
    private Connection jdbc;

    @Setup
    public void setUp() throws SQLException {
        tcp = HttpPeer.newTcpClient(false);
        tcp.execute("DROP DATABASE IF EXISTS " + database + " SYNC");
        tcp.execute("CREATE DATABASE " + database);
        for (int i = 0; i < TABLES; i++) {
            tcp.execute("CREATE TABLE " + database + ".t" + i + " (id UInt64, name String, value Nullable(Float64))"
                    + " ENGINE = Memory");
        }
        jdbc = JdbcPeers.ours();
        BenchmarkServer.check("getColumns rows", 3L * TABLES, getColumns());
    }

    @TearDown
    public void tearDown() throws SQLException {
        try {
            if (jdbc != null) {
                jdbc.close();
            }
            tcp.execute("DROP DATABASE IF EXISTS " + database + " SYNC");
        } finally {
            tcp.close();
        }
    }

    @Benchmark
    public long getColumns() throws SQLException {
        long rows = 0;
        long check = 0;
        try (ResultSet rs = jdbc.getMetaData().getColumns(null, database, "%", "%")) {
            while (rs.next()) {
                check += rs.getString("TABLE_NAME").length() + rs.getString("COLUMN_NAME").length()
                        + rs.getInt("DATA_TYPE") + rs.getString("TYPE_NAME").length();
                rows++;
            }
        }
        if (check == 0) {
            throw new IllegalStateException("getColumns returned nothing");
        }
        return rows;
    }
}
