package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Result detection from the server's answer, errors, multi-statement, batches, cancel, timeout, early close. */
@ClickHouseTest
class StatementTest {

    /** Each statement with whether the server answers it with columns. */
    static Stream<Arguments> statements() {
        return Stream.of(
                Arguments.of("-- leading comment\nSELECT 1", true),
                Arguments.of("/* block */\n\n  SELECT 1", true),
                Arguments.of("\n\n\nSELECT 1\n", true),
                Arguments.of("WITH x AS (SELECT 1 AS a) SELECT a FROM x", true),
                Arguments.of("WITH 1 AS a SELECT a", true),
                Arguments.of("(SELECT 1) UNION ALL (SELECT 2)", true),
                Arguments.of("SELECT number, FROM numbers(2)", true),
                Arguments.of("SHOW DATABASES", true),
                Arguments.of("DESCRIBE TABLE system.one", true),
                Arguments.of("EXISTS TABLE system.one", true),
                Arguments.of("EXPLAIN SELECT 1", true),
                Arguments.of("SELECT 1;", true),
                Arguments.of("SELECT 1 WHERE 0", true),
                Arguments.of("CHECK TABLE %t", true),
                Arguments.of("SHOW TABLES FROM system", true),
                Arguments.of("SELECT * FROM system.one FORMAT TabSeparated", true),
                Arguments.of("INSERT INTO %t VALUES (1)", false),
                Arguments.of("INSERT INTO %t SELECT 2", false),
                Arguments.of("ALTER TABLE %t ADD COLUMN IF NOT EXISTS y UInt8", false),
                Arguments.of("SET max_threads = 2", false),
                Arguments.of("USE default", false),
                Arguments.of("SYSTEM FLUSH LOGS", false),
                Arguments.of("OPTIMIZE TABLE %t", false),
                Arguments.of("CREATE TABLE IF NOT EXISTS %t (x UInt8) ENGINE = MergeTree ORDER BY x", false),
                Arguments.of("-- comment\nSET max_threads = 3", false),
                Arguments.of("TRUNCATE TABLE %t", false));
    }

    @ParameterizedTest
    @MethodSource("statements")
    void executeSaysWhetherTheServerReturnedColumns(String sql, boolean rows) throws SQLException {
        String t = JdbcTests.table("jdbc_detect");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (x UInt8) ENGINE = MergeTree ORDER BY x");
            try {
                assertThat(s.execute(sql.replace("%t", t))).as(sql).isEqualTo(rows);
                if (rows) {
                    assertThat(s.getResultSet()).isNotNull();
                    assertThat(s.getUpdateCount()).isEqualTo(-1);
                } else {
                    assertThat(s.getResultSet()).isNull();
                    assertThat(s.getUpdateCount()).isGreaterThanOrEqualTo(0);
                }
                // Flyway's loop ends
                int steps = 0;
                while (s.getMoreResults() || s.getUpdateCount() != -1) {
                    assertThat(++steps).isLessThan(3);
                }
            } finally {
                s.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void insertCountsWrittenRowsAndExecuteQueryRefusesDdl() throws SQLException {
        String t = JdbcTests.table("jdbc_count");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (x UInt64) ENGINE = Memory");
            try {
                assertThat(s.executeUpdate("INSERT INTO " + t + " SELECT number FROM numbers(1234)")).isEqualTo(1234);
                assertThatThrownBy(() -> s.executeQuery("TRUNCATE TABLE " + t)).isInstanceOf(SQLException.class);
                assertThatThrownBy(() -> s.executeUpdate("SELECT 1")).isInstanceOf(SQLException.class);
            } finally {
                s.execute("DROP TABLE " + t);
            }
        }
    }

    @Test
    void severalStatementsAreRefusedUnlessSplit() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("SELECT 1; SELECT 2")).isInstanceOf(SQLSyntaxErrorException.class)
                    .hasMessageContaining("multiStatement=split");
            assertThat(s.execute("SELECT 1;")).isTrue();
        }
        Properties split = new Properties();
        split.setProperty("multiStatement", "split");
        try (Connection c = JdbcTests.connect("modern", split); Statement s = c.createStatement()) {
            assertThat(s.execute("SELECT 1; SELECT 2 -- two")).isTrue();
            s.getResultSet().next();
            assertThat(s.getResultSet().getInt(1)).isEqualTo(1);
            assertThat(s.getMoreResults()).isTrue();
            s.getResultSet().next();
            assertThat(s.getResultSet().getInt(1)).isEqualTo(2);
            assertThat(s.getMoreResults()).isFalse();
            assertThat(s.getUpdateCount()).isEqualTo(-1);
        }
    }

    /** Server codes and their SQLState and exception class. */
    static Stream<Arguments> errors() {
        return Stream.of(
                Arguments.of("SELECT * FROM no_such_table_jdbc", 60, "42S02", SQLSyntaxErrorException.class),
                Arguments.of("SELEC 1", 62, "42000", SQLSyntaxErrorException.class),
                Arguments.of("SELECT no_such_column_jdbc", 47, "42000", SQLSyntaxErrorException.class),
                Arguments.of("SELECT toInt32('x')", 6, "22018", java.sql.SQLDataException.class),
                Arguments.of("SELECT intDiv(1, 0)", 153, "22012", java.sql.SQLDataException.class),
                Arguments.of("SELECT * FROM no_such_db_jdbc.t", 81, "3F000", SQLSyntaxErrorException.class));
    }

    @ParameterizedTest
    @MethodSource("errors")
    void serverErrorsMapToSqlStates(String sql, int code, String state, Class<? extends SQLException> type)
            throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute(sql)).isInstanceOf(type)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(code))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state))
                    .hasMessageContaining("Code: " + code).hasMessageContaining("query_id");
            assertThat(s.execute("SELECT 1")).isTrue(); // the connection stays usable
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void statementBatchesRunInTurn(String kind) throws SQLException {
        String t = JdbcTests.table("jdbc_sbatch");
        try (Connection c = JdbcTests.connect(kind); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (x UInt8) ENGINE = Memory");
            try {
                s.addBatch("INSERT INTO " + t + " SELECT 1");
                s.addBatch("INSERT INTO " + t + " SELECT number FROM numbers(3)");
                // 18.16 reports no written rows (its protocol revision predates write progress)
                assertThat(s.executeBatch()).containsExactly(kind.equals("legacy") ? new int[]{0, 0} : new int[]{1, 3});
                s.addBatch("INSERT INTO " + t + " SELECT 1");
                s.addBatch("INSERT INTO no_such_table_jdbc SELECT 1");
                s.addBatch("INSERT INTO " + t + " SELECT 1");
                assertThatThrownBy(s::executeBatch).isInstanceOf(BatchUpdateException.class)
                        .satisfies(e -> assertThat(((BatchUpdateException) e).getUpdateCounts()).hasSize(1))
                        .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(60));
                assertThat(s.executeBatch()).isEmpty(); // cleared after the failure
            } finally {
                s.execute("DROP TABLE " + t);
            }
        }
    }

    /** On the legacy server: a cancel the server does not confirm in time drops the connection. */
    @Test
    void queryTimeoutIsAClientDeadline() throws SQLException {
        try (Connection c = JdbcTests.connect("legacy"); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            assertThatThrownBy(() -> {
                try (ResultSet rs = s.executeQuery("SELECT count() FROM numbers(10000000000000)")) {
                    while (rs.next()) {
                        // reading to the end
                    }
                }
            }).isInstanceOf(SQLTimeoutException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HYT00"));
            // the connection survives when the server confirmed the cancel within the grace, else it is closed
            if (!c.isClosed()) {
                s.setQueryTimeout(0);
                try (ResultSet rs = s.executeQuery("SELECT 42")) {
                    rs.next();
                    assertThat(rs.getInt(1)).isEqualTo(42);
                }
            }
        }
    }

    @Test
    void cancelFromAnotherThread() throws Exception {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            CompletableFuture<Void> canceller = CompletableFuture.runAsync(() -> {
                try {
                    // cancel once the query runs on the server
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                    while (System.nanoTime() < deadline) {
                        try (Connection other = JdbcTests.connect("modern"); Statement o = other.createStatement();
                             ResultSet rs = o.executeQuery("SELECT count() FROM system.processes "
                                     + "WHERE query LIKE '%numbers(20000000000000)%' AND query NOT LIKE '%processes%'")) {
                            rs.next();
                            if (rs.getInt(1) > 0) {
                                s.cancel();
                                return;
                            }
                        }
                        Thread.onSpinWait();
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThatThrownBy(() -> {
                try (ResultSet rs = s.executeQuery("SELECT count() FROM numbers(20000000000000)")) {
                    while (rs.next()) {
                        // reading to the end
                    }
                }
            }).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HY008"));
            canceller.get(30, TimeUnit.SECONDS);
            try (ResultSet rs = s.executeQuery("SELECT 7")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(7);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void earlyCloseOfABigStreamKeepsTheConnection(String kind) throws SQLException {
        try (Connection c = JdbcTests.connect(kind); Statement s = c.createStatement()) {
            ResultSet rs = s.executeQuery("SELECT number, toString(number) FROM system.numbers LIMIT 100000000");
            for (int i = 0; i < 100_000; i++) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(i);
            }
            rs.close();
            try (ResultSet next = s.executeQuery("SELECT 'after'")) {
                assertThat(next.next()).isTrue();
                assertThat(next.getString(1)).isEqualTo("after");
            }
            assertThat(c.isValid(5)).isTrue();
        }
    }

    @Test
    void maxRowsTruncatesOnTheClient() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.setMaxRows(10);
            int n = 0;
            try (ResultSet rs = s.executeQuery("SELECT number FROM numbers(1000000)")) {
                while (rs.next()) {
                    n++;
                }
            }
            assertThat(n).isEqualTo(10);
            s.setMaxRows(0);
            try (ResultSet rs = s.executeQuery("SELECT count() FROM numbers(5)")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(5);
            }
        }
    }

    @Test
    void aSecondStatementBuffersTheOpenResult() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement a = c.createStatement();
             Statement b = c.createStatement()) {
            ResultSet outer = a.executeQuery("SELECT number FROM numbers(100000)");
            long sum = 0;
            int rows = 0;
            while (outer.next()) {
                sum += outer.getLong(1);
                if (++rows % 10_000 == 0) {
                    try (ResultSet inner = b.executeQuery("SELECT " + rows)) {
                        inner.next();
                        assertThat(inner.getInt(1)).isEqualTo(rows);
                    }
                }
            }
            assertThat(rows).isEqualTo(100_000);
            assertThat(sum).isEqualTo(100_000L * 99_999 / 2);
        }
    }

    @Test
    void beyondTheBusyBufferTheSecondStatementFailsAndTheFirstStaysExact() throws SQLException {
        Properties small = new Properties();
        small.setProperty("busyBufferBytes", "100000");
        try (Connection c = JdbcTests.connect("modern", small); Statement a = c.createStatement();
             Statement b = c.createStatement()) {
            ResultSet outer = a.executeQuery("SELECT number FROM numbers(1000000)");
            long sum = 0;
            long rows = 0;
            boolean refused = false;
            while (outer.next()) {
                sum += outer.getLong(1);
                if (++rows == 10) {
                    assertThatThrownBy(() -> b.executeQuery("SELECT 1")).isInstanceOf(SQLException.class)
                            .hasMessageContaining("busyBufferBytes")
                            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("24000"));
                    refused = true;
                }
            }
            assertThat(refused).isTrue();
            assertThat(rows).isEqualTo(1_000_000);
            assertThat(sum).isEqualTo(1_000_000L * 999_999 / 2);
            try (ResultSet rs = b.executeQuery("SELECT 2")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(2);
            }
        }
    }

    @Test
    void twoThreadsOnOneConnectionGetTheirOwnResults() throws Exception {
        try (Connection c = JdbcTests.connect("modern")) {
            java.util.List<CompletableFuture<Long>> runs = new java.util.ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int offset = t * 1000;
                runs.add(CompletableFuture.supplyAsync(() -> {
                    long checked = 0;
                    try (Statement s = c.createStatement()) {
                        for (int i = 0; i < 100; i++) {
                            try (ResultSet rs = s.executeQuery("SELECT number + " + (offset + i)
                                    + " FROM numbers(5000)")) {
                                long expected = offset + i;
                                while (rs.next()) {
                                    assertThat(rs.getLong(1)).isEqualTo(expected++);
                                    checked++;
                                }
                            }
                        }
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                    return checked;
                }));
            }
            for (CompletableFuture<Long> r : runs) {
                assertThat(r.get(120, TimeUnit.SECONDS)).isEqualTo(100L * 5000);
            }
        }
    }

    /** socketTimeout=0 means no bound: another thread's statement waits for the open ResultSet to close. */
    @Test
    void withoutSocketTimeoutAnotherThreadWaitsForTheOpenResult() throws Exception {
        Properties none = new Properties();
        none.setProperty("socketTimeout", "0");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try (Connection c = JdbcTests.connect("modern", none); Statement a = c.createStatement()) {
            ResultSet outer = a.executeQuery("SELECT number FROM numbers(1000000)");
            assertThat(outer.next()).isTrue();
            Thread[] waiter = new Thread[1];
            java.util.concurrent.Future<Integer> second = pool.submit(() -> {
                waiter[0] = Thread.currentThread();
                try (Statement b = c.createStatement(); ResultSet rs = b.executeQuery("SELECT 7")) {
                    rs.next();
                    return rs.getInt(1);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // the second statement either fails at once (a bounded wait) or parks until the first result closes
            while (!second.isDone() && (waiter[0] == null || waiter[0].getState() != Thread.State.WAITING)) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                Thread.onSpinWait();
            }
            assertThat(second.isDone()).as("the second statement waits").isFalse();
            long rows = 1;
            while (outer.next()) {
                rows++;
            }
            outer.close();
            assertThat(rows).isEqualTo(1_000_000);
            assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo(7);
        } finally {
            pool.shutdownNow();
        }
    }
}
