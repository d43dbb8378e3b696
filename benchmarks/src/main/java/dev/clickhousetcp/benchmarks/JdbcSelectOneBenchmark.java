package dev.clickhousetcp.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
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
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/**
 * A warm {@code SELECT 1}: {@link #hikariJdbc} borrows a connection of our driver from a HikariCP pool
 * (one connection, opened in setup, over {@link JdbcPeers#ourDataSource()}), runs the query through a
 * {@code Statement}, reads the value and gives the connection back; {@link #nativeQueryRows} is the native
 * client's {@code queryRows("SELECT 1")} on its own pool. Setup checks both answers are 1. Microseconds per
 * query; one benchmark thread; uncompressed.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class JdbcSelectOneBenchmark {
    private ClickHouseTcpClient tcp;
    private HikariDataSource pool;

    @Setup
    public void setUp() throws SQLException {
        tcp = HttpPeer.newTcpClient(false);
        HikariConfig config = new HikariConfig();
        config.setDataSource(JdbcPeers.ourDataSource());
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        pool = new HikariDataSource(config);
        BenchmarkServer.check("HikariCP SELECT 1", 1, hikariJdbc());
        BenchmarkServer.check("queryRows SELECT 1", 1, nativeQueryRows());
    }

    @TearDown
    public void tearDown() {
        try {
            pool.close();
        } finally {
            tcp.close();
        }
    }

    @Benchmark
    public long hikariJdbc() throws SQLException {
        try (Connection c = pool.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT 1")) {
            if (!rs.next()) {
                throw new IllegalStateException("SELECT 1 returned no row");
            }
            return rs.getLong(1);
        }
    }

    @Benchmark
    public long nativeQueryRows() {
        return ((Number) tcp.queryRows("SELECT 1").get(0)[0]).longValue();
    }
}
