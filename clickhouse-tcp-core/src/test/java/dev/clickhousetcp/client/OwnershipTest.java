package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A connection has one owner at a time: the query that borrowed it decides its outcome (rows, end,
 * timeout, cancel, error) before the connection goes back to the pool, exactly once, and nothing the
 * lender does afterwards reaches the connection's next borrower.
 */
@ClickHouseTest
class OwnershipTest {
    /** 40 one-row blocks, 50 ms apart: about 2 s, so a 200 ms timeout always interrupts it. */
    static final String SLOW = "SELECT sleepEachRow(0.05), number FROM numbers(40) SETTINGS max_block_size = 1";
    /**
     * 200 one-row blocks, 50 ms apart (10 s). The server notices a Cancel within about 150 ms (it polls
     * the client every {@code interactive_delay}, 100 ms, and a block sleeps 50 ms), so a 3 s timeout,
     * whose grace is 300 ms, is always confirmed in time.
     */
    static final String LONG = "SELECT sleepEachRow(0.05), number FROM numbers(200) SETTINGS max_block_size = 1";
    static final Duration CONFIRMABLE_TIMEOUT = Duration.ofSeconds(3);

    @Test
    void aTimedOutQueryAlwaysThrowsAndNeverBreaksOtherThreadsQueriesWithAPoolOfOne() throws Exception {
        raceTimeoutsAgainstQuickQueries(1, 3, 12);
    }

    @Test
    void aTimedOutQueryAlwaysThrowsAndNeverBreaksOtherThreadsQueriesWithAPoolOfFour() throws Exception {
        raceTimeoutsAgainstQuickQueries(4, 8, 6);
    }

    /**
     * Each round: one thread drains {@link #SLOW} with a 200 ms timeout while {@code others} threads
     * run {@code SELECT 7} on the same pool. The slow query must end in a timeout every time (never
     * return its rows cut short), and every {@code SELECT 7} must return 7.
     */
    private static void raceTimeoutsAgainstQuickQueries(int poolSize, int others, int rounds) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(others + 1);
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern()).maxPoolSize(poolSize)
                .acquireTimeout(Duration.ofSeconds(60)).build()) {
            List<String> slowOutcomes = new ArrayList<>();
            List<String> quickFailures = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                Future<String> slow = threads.submit(() -> {
                    try {
                        List<Long> rows = client.query(SLOW, QueryOptions.builder().timeout(Duration.ofMillis(200))
                                .build(), (row, n) -> row.getLong(1));
                        return "returned " + rows.size() + " of 40 rows without an exception";
                    } catch (ClickHouseTimeoutException e) {
                        return "timeout";
                    } catch (RuntimeException e) {
                        return "failed: " + e;
                    }
                });
                List<Future<Object>> quick = new ArrayList<>();
                for (int i = 0; i < others; i++) {
                    quick.add(threads.submit(() -> client.queryRows("SELECT 7").get(0)[0]));
                }
                slowOutcomes.add(slow.get(60, TimeUnit.SECONDS));
                for (Future<Object> f : quick) {
                    try {
                        Object v = f.get(60, TimeUnit.SECONDS);
                        if (!Long.valueOf(7).equals(((Number) v).longValue())) {
                            quickFailures.add("returned " + v);
                        }
                    } catch (java.util.concurrent.ExecutionException e) {
                        quickFailures.add(e.getCause().toString());
                    }
                }
            }
            assertThat(slowOutcomes).as("the timed-out query's outcomes").containsOnly("timeout");
            assertThat(quickFailures).as("failures of queries that ran beside it").isEmpty();
            assertThat(client.poolStats().active()).isZero();
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aTimeoutThatTheServerConfirmsLeavesTheSessionUsable() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern());
             ClickHouseSession session = client.openSession()) {
            session.execute("CREATE TEMPORARY TABLE kept (x UInt8)");
            session.execute("INSERT INTO kept VALUES (1)");
            for (int i = 0; i < 2; i++) {
                assertThatThrownBy(() -> session.query(LONG, QueryOptions.builder().timeout(CONFIRMABLE_TIMEOUT)
                        .build(), (row, n) -> row.getLong(1))).isInstanceOf(ClickHouseTimeoutException.class);
                assertThat(session.isOpen()).as("session after a confirmed cancel").isTrue();
                assertThat(session.queryRows("SELECT count() FROM kept").get(0)[0]).isEqualTo(java.math.BigInteger.ONE);
            }
        }
    }

    @Test
    void cancellingAFinishedResultDoesNotCancelTheConnectionsNextQuery() {
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern()).maxPoolSize(1).build()) {
            QueryResult first = client.query("SELECT 1");
            first.drain();
            first.close();
            try (QueryResult second = client.query("SELECT sleepEachRow(0.02), number FROM numbers(20) "
                    + "SETTINGS max_block_size = 1")) {
                first.cancel(); // the old result's connection now belongs to the second query
                long rows = 0;
                for (Block b : second) {
                    rows += b.rowCount();
                }
                assertThat(rows).isEqualTo(20);
                assertThat(second.isCancelled()).isFalse();
            }
            assertThat(first.isCancelled()).isFalse();
        }
    }

    @Test
    void aClosedResultIsNotCancelledByItsConnectionsNextBorrower() {
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern()).maxPoolSize(1).build()) {
            QueryResult first = client.query("SELECT number FROM numbers(10000000)");
            assertThat(first.next()).isNotNull();
            first.close(); // cancelled and drained
            assertThat(first.isCancelled()).isTrue();
            assertThat(((Number) client.queryRows("SELECT 7").get(0)[0]).longValue()).isEqualTo(7);
            assertThat(first.isCancelled()).as("its own outcome, kept").isTrue();
        }
    }

    @Test
    void closingAResultTwiceOrAfterAnErrorReleasesTheConnectionOnce() {
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern()).maxPoolSize(1).build()) {
            QueryResult failed = client.query("SELECT throwIf(1)");
            assertThatThrownBy(failed::next).isInstanceOf(dev.clickhousetcp.ClickHouseServerException.class);
            try (QueryResult held = client.query("SELECT number FROM numbers(5)")) {
                failed.close();
                failed.close();
                // the pool of one is lent to `held`; a second release of the failed result's lease must not free it
                assertThat(client.poolStats().active()).isEqualTo(1);
                assertThat(client.poolStats().idle()).isZero();
                assertThat(held.drain()).isEqualTo(5);
            }
            assertThat(client.poolStats().active()).isZero();
            assertThat(client.poolStats().idle()).isEqualTo(1);
        }
    }
}
