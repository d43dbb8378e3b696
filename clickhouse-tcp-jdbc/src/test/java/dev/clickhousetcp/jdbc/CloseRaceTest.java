package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A connection closed or aborted from another thread while a query runs or streams: an SQLException, never a partial result. */
@ClickHouseTest
class CloseRaceTest {

    /** What the reading thread saw: the full count or the SQLState of its exception. */
    private static String read(Connection c, CountDownLatch started) {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT number FROM numbers(400000) SETTINGS max_block_size = 1000")) {
            long n = 0;
            while (rs.next()) {
                if (n == 0) {
                    started.countDown();
                }
                n++;
            }
            return "rows " + n;
        } catch (SQLException e) {
            return "state " + e.getSQLState() + " " + e;
        } catch (RuntimeException e) {
            return "unexpected " + e;
        } finally {
            started.countDown();
        }
    }

    @Test
    void closeOrAbortFromAnotherThread() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            for (int run = 0; run < 20; run++) {
                Connection c = JdbcTests.connect("modern");
                CountDownLatch started = new CountDownLatch(1);
                Future<String> reader = pool.submit(() -> read(c, started));
                assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
                if (ThreadLocalRandom.current().nextInt(3) == 0) {
                    Thread.sleep(ThreadLocalRandom.current().nextLong(0, 5));
                }
                if (run % 2 == 0) {
                    c.abort(Runnable::run);
                } else {
                    c.close();
                }
                String outcome = reader.get(30, TimeUnit.SECONDS);
                assertThat(outcome).as("run " + run).matches("(rows 400000|state 08\\d\\d\\d|state HY010|state HY008)( .*)?");
                assertThat(c.isClosed()).isTrue();
                assertThat(c.isValid(1)).isFalse();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Closes while the reader waits for the first block: the query is seen running on the server first. */
    @Test
    void closeWhileAnotherThreadWaitsForTheFirstBlock() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection watcher = JdbcTests.connect("modern"); Statement w = watcher.createStatement()) {
            for (int run = 0; run < 10; run++) {
                Connection c = JdbcTests.connect("modern");
                String marker = "jdbc_firstblock_" + System.nanoTime();
                Future<String> reader = pool.submit(() -> {
                    try (Statement s = c.createStatement();
                         ResultSet rs = s.executeQuery("SELECT count() AS " + marker + " FROM numbers(100000000000)")) {
                        return rs.next() ? "row " + rs.getLong(1) : "no row";
                    } catch (SQLException e) {
                        return "state " + e.getSQLState() + " " + e;
                    }
                });
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                boolean seen = false;
                while (!seen && !reader.isDone()) {
                    assertThat(System.nanoTime()).as("the query shows in system.processes").isLessThan(deadline);
                    try (ResultSet rs = w.executeQuery("SELECT count() FROM system.processes WHERE query LIKE '%"
                            + marker + "%' AND query NOT LIKE '%system.processes%'")) {
                        rs.next();
                        seen = rs.getLong(1) > 0;
                    }
                }
                if (run % 2 == 0) {
                    c.close();
                } else {
                    c.abort(Runnable::run);
                }
                assertThat(reader.get(30, TimeUnit.SECONDS)).as("run " + run)
                        .matches("(row 100000000000|state 08\\d\\d\\d|state HY010|state HY008)( .*)?");
                assertThat(c.isClosed()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
