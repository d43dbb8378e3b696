package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.FaultProxy;
import dev.clickhousetcp.testsupport.FaultProxy.Direction;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * AT-26: 200 cancels at random moments (before the query, before the first row, while rows stream, after the
 * end) and full {@code setQueryTimeout(1)} runs, while another connection queries all along. The moments are
 * drawn over 1.3 times each query's own duration, timed uncancelled on this machine first, so most runs are
 * cancelled mid-way however fast the machine is. No partial result is returned as complete, no answer reaches
 * the wrong query, the connection is usable after every run, and a timed-out query leaves
 * {@code system.processes}. About 30 to 60 s on 2 cores, most of it the random delays.
 */
@ClickHouseTest
class CancelTimeoutRaceTest {
    private static final int RUNS = 200;
    private static final int TIMEOUT_RUNS = 3;
    private static final long STREAM_ROWS = 2_000_000;

    /** Runs one of the two queries of the race and checks its whole answer (a partial one fails here). */
    private static void runQuery(Statement s, boolean streaming) throws SQLException {
        if (streaming) {
            long rows = 0;
            long sum = 0;
            try (ResultSet rs = s.executeQuery("SELECT number FROM numbers(" + STREAM_ROWS
                    + ") SETTINGS max_block_size = 10000")) {
                while (rs.next()) {
                    rows++;
                    sum += rs.getLong(1);
                }
            }
            assertThat(rows).as("a complete result").isEqualTo(STREAM_ROWS);
            assertThat(sum).isEqualTo(STREAM_ROWS * (STREAM_ROWS - 1) / 2);
        } else {
            try (ResultSet rs = s.executeQuery("SELECT count() FROM numbers(300000000)")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(300_000_000L);
                assertThat(rs.next()).isFalse();
            }
        }
    }

    /** The median time of three uncancelled runs of one of the race's queries, in milliseconds. */
    private static long durationMillis(Connection c, boolean streaming) throws SQLException {
        long[] t = new long[3];
        for (int i = 0; i < t.length; i++) {
            long start = System.nanoTime();
            try (Statement s = c.createStatement()) {
                runQuery(s, streaming);
            }
            t[i] = (System.nanoTime() - start) / 1_000_000;
        }
        Arrays.sort(t);
        return t[1];
    }

    private static long scalar(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            long v = rs.getLong(1);
            assertThat(rs.next()).isFalse();
            return v;
        }
    }

    /**
     * A full {@code setQueryTimeout(1)} on a query that runs far longer: HYT00, and the query leaves
     * {@code system.processes}. The server reads the client's Cancel only every {@code interactive_delay}
     * (100 ms by default), the client waits max(10 %, 100 ms) for its confirmation before it throws; a later
     * confirmation is read by the connection's next use. Either way the connection answers the next query, and
     * never with the old query's packets.
     */
    private static boolean timeoutRun(int run) throws SQLException {
        String marker = "at26_" + Long.toHexString(System.nanoTime());
        boolean kept;
        try (Connection c = JdbcTests.connect("modern")) {
            try (Statement s = c.createStatement()) {
                s.setQueryTimeout(1);
                try (ResultSet rs = s.executeQuery("SELECT count() FROM numbers(10000000000000) /* " + marker
                        + " */")) {
                    rs.next();
                    throw new AssertionError("a count over 1e13 rows ended within the timeout: " + rs.getLong(1));
                } catch (SQLTimeoutException e) {
                    assertThat(e.getSQLState()).isEqualTo("HYT00");
                }
            }
            kept = c.isValid(2);
            assertThat(kept).as("the connection is usable after its query timed out").isTrue();
            assertThat(scalar(c, "SELECT " + (1000 + run))).isEqualTo(1000 + run);
        }
        try (Connection c = JdbcTests.connect("modern")) {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            long running;
            do {
                running = scalar(c, "SELECT count() FROM system.processes WHERE query LIKE '%" + marker
                        + "%' AND query NOT LIKE '%system.processes%'");
            } while (running > 0 && System.nanoTime() < deadline);
            assertThat(running).as("the timed-out query left system.processes").isZero();
        }
        return kept;
    }

    @Test
    void cancelsAndTimeoutsAtRandomMomentsNeverGivePartialResultsOrCrossTalk() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong neighbourQueries = new AtomicLong();
        try (Connection c = JdbcTests.connect("modern"); Connection neighbour = JdbcTests.connect("modern")) {
            Future<?> other = pool.submit(() -> {
                for (long k = 1; !stop.get(); k++) { // a concurrent thread on its own connection
                    try (Statement s = neighbour.createStatement();
                         ResultSet rs = s.executeQuery("SELECT number * " + k + " FROM numbers(5000)")) {
                        long sum = 0;
                        long rows = 0;
                        while (rs.next()) {
                            sum += rs.getLong(1);
                            rows++;
                        }
                        assertThat(rows).isEqualTo(5000);
                        assertThat(sum).isEqualTo(k * 5000L * 4999 / 2);
                        neighbourQueries.incrementAndGet();
                    }
                }
                return null;
            });
            long[] millis = {durationMillis(c, true), durationMillis(c, false)};
            int complete = 0;
            int cancelled = 0;
            for (int run = 0; run < RUNS; run++) {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                boolean streaming = run % 2 == 0;
                long span = Math.max(3, millis[streaming ? 0 : 1] * 13 / 10);
                long delay = random.nextInt(10) == 0 ? random.nextLong(0, 3) : random.nextLong(0, span);
                try (Statement s = c.createStatement()) {
                    Future<?> canceller = pool.submit(() -> {
                        Thread.sleep(delay);
                        s.cancel();
                        return null;
                    });
                    try {
                        runQuery(s, streaming);
                        complete++;
                    } catch (SQLException e) {
                        assertThat(e.getSQLState()).as(e.toString()).isEqualTo("HY008");
                        cancelled++;
                    }
                    canceller.get(10, TimeUnit.SECONDS);
                }
                assertThat(scalar(c, "SELECT " + run)).as("the next answer is this query's").isEqualTo(run);
            }
            assertThat(complete + cancelled).isEqualTo(RUNS);
            assertThat(cancelled).as("most runs are cancelled before their end").isGreaterThan(RUNS / 4);

            int kept = 0;
            for (int run = 0; run < TIMEOUT_RUNS; run++) {
                kept += timeoutRun(run) ? 1 : 0;
            }
            System.out.println(RUNS + " cancels (queries of " + millis[0] + " and " + millis[1] + " ms uncancelled): "
                    + complete + " complete, " + cancelled + " cancelled; "
                    + TIMEOUT_RUNS + " timeouts, " + kept + " kept their connection; " + neighbourQueries
                    + " neighbour queries");
            stop.set(true);
            other.get(60, TimeUnit.SECONDS);
            assertThat(neighbourQueries.get()).isPositive();
            assertThat(c.isValid(2)).isTrue();
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
    }

    /**
     * A timeout whose Cancel the server confirms after the grace: a proxy holds back what the client sends after
     * the query's text by 1.5 s, so the query and its Cancel reach the legacy server after the caller got HYT00.
     * The connection stays open, its next statements read the rest of the cancelled response first and get their
     * own answers, and its temporary table is still there.
     */
    @Test
    void aTimeoutWhoseConfirmationComesLateKeepsTheConnectionAndItsTemporaryTable() throws Exception {
        String marker = "at26_late_" + Long.toHexString(System.nanoTime());
        try (FaultProxy proxy = FaultProxy.forNativePort(ClickHouseServers.legacy());
             Connection c = DriverManager.getConnection("jdbc:clickhouse:tcp://" + proxy.host() + ":" + proxy.port()
                     + "/default");
             Statement s = c.createStatement()) {
            s.execute("CREATE TEMPORARY TABLE at26_kept (x UInt32)");
            s.execute("INSERT INTO at26_kept SELECT 7");
            s.execute("SET max_block_size = 1");
            proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, marker)
                    .delay(Duration.ofMillis(1500)).once();
            s.setQueryTimeout(1);
            assertThatThrownBy(() -> {
                try (ResultSet rs = s.executeQuery("SELECT 111111, sleepEachRow(0.05) FROM numbers(100) /* " + marker
                        + " */")) {
                    while (rs.next()) {
                        assertThat(rs.getLong(1)).isEqualTo(111_111);
                    }
                }
            }).isInstanceOf(SQLTimeoutException.class);
            s.setQueryTimeout(0);
            assertThat(c.isClosed()).isFalse();
            assertThat(scalar(c, "SELECT 222222")).isEqualTo(222_222);
            assertThat(scalar(c, "SELECT x FROM at26_kept")).isEqualTo(7);
            assertThat(c.isValid(2)).isTrue();
        }
    }
}
