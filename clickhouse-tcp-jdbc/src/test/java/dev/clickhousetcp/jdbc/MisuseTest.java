package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Calls in the wrong order or with the wrong values: each a clear SQLException, the connection still usable. */
@ClickHouseTest
class MisuseTest {

    private static void assertUsable(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 'ok'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("ok");
        }
    }

    @Test
    void wrongIndexesUnboundParametersAndOddValues() throws SQLException {
        try (Connection c = JdbcTests.connect("modern")) {
            try (PreparedStatement ps = c.prepareStatement("SELECT ?, ?")) {
                ps.setInt(1, 1);
                assertThatThrownBy(ps::executeQuery).isInstanceOf(SQLException.class).hasMessageContaining("2");
                ps.setInt(2, 2);
                ps.clearParameters();
                assertThatThrownBy(ps::executeQuery).isInstanceOf(SQLException.class);
                assertThatThrownBy(() -> ps.setInt(0, 1)).isInstanceOf(SQLException.class);
                ps.setObject(1, new Object()); // refused when sent, as an SQLException
                ps.setInt(2, 2);
                assertThatThrownBy(ps::executeQuery).isInstanceOf(SQLException.class).hasMessageContaining("Object");
                assertUsable(c);
                ps.setInt(1, 1);
                ps.setString(2, "x");
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertThatThrownBy(() -> rs.getString(0)).isInstanceOf(SQLException.class);
                    assertThatThrownBy(() -> rs.getString(3)).isInstanceOf(SQLException.class);
                    assertThatThrownBy(() -> rs.findColumn("nope")).isInstanceOf(SQLException.class);
                    assertThatThrownBy(() -> rs.getObject(1, Thread.class)).isInstanceOf(SQLException.class);
                    assertThatThrownBy(() -> rs.getInt(2)).isInstanceOf(SQLException.class);
                }
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
                assertThatThrownBy(() -> rs.getInt(1)).as("before next()").isInstanceOf(SQLException.class);
                assertThat(rs.next()).isTrue();
                assertThat(rs.next()).isFalse();
                assertThatThrownBy(() -> rs.getInt(1)).as("after the last row").isInstanceOf(SQLException.class);
                assertThat(rs.next()).isFalse();
            }
            assertThatThrownBy(() -> c.createStatement().execute("")).isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> c.prepareStatement("  -- only a comment\n").execute()).isInstanceOf(SQLException.class);
            assertUsable(c);
        }
    }

    @Test
    void aNewExecuteClosesTheStatementsOpenResult() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            ResultSet first = s.executeQuery("SELECT number FROM numbers(1000000000)");
            assertThat(first.next()).isTrue();
            ResultSet second = s.executeQuery("SELECT 2");
            assertThat(first.isClosed()).isTrue();
            assertThat(second.next()).isTrue();
            assertThat(second.getInt(1)).isEqualTo(2);
            assertUsable(c);
        }
    }

    @Test
    void emptyBatchesAndBatchesWithASelect() throws SQLException {
        String t = JdbcTests.table("jdbc_misuse");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (x UInt8) ENGINE = MergeTree ORDER BY x");
            try {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " VALUES (?)")) {
                    assertThat(ps.executeBatch()).isEmpty();
                    ps.setInt(1, 300); // out of UInt8's range
                    ps.addBatch();
                    assertThatThrownBy(ps::executeBatch).isInstanceOf(BatchUpdateException.class);
                    assertThat(ps.executeBatch()).isEmpty(); // cleared after the failure
                    ps.setInt(1, 3);
                    assertThat(ps.executeUpdate()).isEqualTo(1);
                }
                s.addBatch("INSERT INTO " + t + " VALUES (4)");
                s.addBatch("SELECT 1");
                s.addBatch("INSERT INTO " + t + " VALUES (5)");
                assertThatThrownBy(s::executeBatch).isInstanceOf(BatchUpdateException.class)
                        .satisfies(e -> assertThat(((BatchUpdateException) e).getUpdateCounts()).hasSize(1));
                assertThat(s.executeBatch()).isEmpty();
                try (ResultSet rs = s.executeQuery("SELECT groupArray(x) FROM (SELECT x FROM " + t + " ORDER BY x)")) {
                    rs.next();
                    assertThat(rs.getString(1)).isEqualTo("[3,4]");
                }
            } finally {
                s.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void splitStatementsEndFlywaysLoop() throws SQLException {
        Properties p = new Properties();
        p.setProperty("multiStatement", "split");
        String t = JdbcTests.table("jdbc_split");
        try (Connection c = JdbcTests.connect("modern", p); Statement s = c.createStatement()) {
            boolean isResult = s.execute("CREATE TABLE " + t + " (x UInt8) ENGINE = Memory; INSERT INTO " + t
                    + " VALUES (1), (2); SELECT count() FROM " + t + "; DROP TABLE " + t + ";");
            int results = 0;
            int counts = 0;
            int steps = 0;
            while (true) {
                assertThat(++steps).isLessThan(10);
                if (isResult) {
                    try (ResultSet rs = s.getResultSet()) {
                        rs.next();
                        assertThat(rs.getLong(1)).isEqualTo(2);
                    }
                    results++;
                } else {
                    int n = s.getUpdateCount();
                    if (n == -1) {
                        break;
                    }
                    counts++;
                }
                isResult = s.getMoreResults();
            }
            assertThat(results).isEqualTo(1);
            assertThat(counts).isEqualTo(3);
            assertUsable(c);
        }
    }

    @Test
    void cancelBeforeTheFirstRowAtRandomMoments() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection c = JdbcTests.connect("modern")) {
            for (int run = 0; run < 20; run++) {
                try (Statement s = c.createStatement()) {
                    long delay = ThreadLocalRandom.current().nextLong(0, 40);
                    Future<?> f = pool.submit(() -> {
                        Thread.sleep(delay);
                        s.cancel();
                        return null;
                    });
                    try (ResultSet rs = s.executeQuery("SELECT count() FROM numbers(2000000000)")) {
                        // finished before the cancel: the one row is the whole answer
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getLong(1)).isEqualTo(2000000000L);
                        assertThat(rs.next()).isFalse();
                    } catch (SQLException e) {
                        assertThat(e.getSQLState()).as(e.toString()).isEqualTo("HY008");
                    }
                    f.get(10, TimeUnit.SECONDS);
                }
                assertUsable(c);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
