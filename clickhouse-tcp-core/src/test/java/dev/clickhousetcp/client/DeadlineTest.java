package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Deadlines are honest: a timeout surfaces within its documented bound (the timeout plus
 * {@code max(10 %, 100 ms)}), names which deadline expired and its value, covers every phase of the
 * operation (waiting for and opening a connection, producing an insert's rows, waiting for the
 * server), and an insert that timed out says whether it may have been applied.
 *
 * <p>The elapsed-time checks allow {@link #SLACK} on top of the documented bound for scheduling
 * noise on a shared test machine; they guard the bound's order of magnitude, not its last
 * millisecond.
 */
@ClickHouseTest
class DeadlineTest {
    static final Duration SLACK = Duration.ofMillis(250);

    static Duration bound(Duration timeout) {
        Duration grace = timeout.dividedBy(10);
        return timeout.plus(grace.compareTo(Duration.ofMillis(100)) > 0 ? grace : Duration.ofMillis(100)).plus(SLACK);
    }

    static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    @Test
    void aTimeoutOnAQueryTheServerCannotStopSurfacesWithinTheBoundAndDropsTheConnection() {
        ClickHouseServer server = ClickHouseServers.modern();
        try (ClickHouseTcpClient client = TestClients.builder(server).maxPoolSize(1).build()) {
            client.ping();
            long start = System.nanoTime();
            ClickHouseTimeoutException e = catchThrowableOfType(() -> client.execute("SELECT sleep(2)",
                    QueryOptions.builder().timeout(Duration.ofMillis(300)).build()), ClickHouseTimeoutException.class);
            Duration took = since(start);
            assertThat(e).isNotNull();
            assertThat(took).isLessThan(bound(Duration.ofMillis(300)));
            assertThat(e.deadline()).isEqualTo(ClickHouseTimeoutException.Deadline.QUERY);
            assertThat(e.timeout()).isEqualTo(Duration.ofMillis(300));
            assertThat(e.getMessage()).contains("queryTimeout").contains("PT0.3S");
            // the server could not confirm the cancel in time: the connection was not kept
            assertThat(client.poolStats().destroyed()).isEqualTo(1);
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
    }

    /**
     * The bound is the time the call returns, not the time the client stops waiting: the wait for the
     * server's confirmation ends {@link Exchange#RETURN_RESERVE_NANOS} before it, which leaves the
     * reading thread the time to drop the connection and throw (about 1-9 ms on a busy two-core machine;
     * waiting for the whole grace made a 300 ms timeout on {@code SELECT sleep(2)} return after 400.7 to
     * 408.8 ms, every time past its 400 ms bound).
     */
    @Test
    void theWaitForTheServersConfirmationEndsEarlyEnoughToReturnWithinTheBound() {
        for (Duration timeout : List.of(Duration.ofMillis(1), Duration.ofMillis(300), Duration.ofSeconds(5))) {
            Exchange x = new Exchange(Budget.of(timeout, ClickHouseTimeoutException.Deadline.QUERY), true, 0, null);
            long grace = Math.max(timeout.toNanos() / 10, Duration.ofMillis(100).toNanos());
            long waited = x.hardDeadlineNanos() - x.budget.deadlineNanos();
            assertThat(waited).as("the wait for a confirmation past a timeout of %s", timeout)
                    .isLessThanOrEqualTo(grace - Duration.ofMillis(10).toNanos())
                    .isGreaterThanOrEqualTo(grace - Duration.ofMillis(20).toNanos());
        }
    }

    @Test
    void aTimeoutTheServerConfirmsKeepsTheConnection() {
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern()).maxPoolSize(1).build()) {
            client.ping();
            long start = System.nanoTime();
            ClickHouseTimeoutException e = catchThrowableOfType(() -> client.execute(OwnershipTest.LONG,
                    QueryOptions.builder().timeout(OwnershipTest.CONFIRMABLE_TIMEOUT).build()),
                    ClickHouseTimeoutException.class);
            assertThat(since(start)).isLessThan(bound(OwnershipTest.CONFIRMABLE_TIMEOUT));
            assertThat(e.getMessage()).contains("the server confirmed");
            assertThat(e.deadline()).isEqualTo(ClickHouseTimeoutException.Deadline.QUERY);
            assertThat(client.poolStats().destroyed()).isZero();
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
    }

    /**
     * A consumer slower than the query timeout (its own work between {@code next()} calls) meets the
     * timeout at its next {@code next()}, also when the rest of the response already arrived: the
     * deadline is the whole call's. The connection stays usable (the server had ended the query; the
     * Cancel that reaches it afterwards changes nothing for the next query on it).
     */
    @Test
    void aConsumerSlowerThanTheTimeoutMeetsItAtItsNextReadEvenWhenTheResponseHasArrived() {
        for (ClickHouseServer server : List.of(ClickHouseServers.modern(), ClickHouseServers.legacy())) {
            try (ClickHouseTcpClient client = TestClients.builder(server).maxPoolSize(1).build()) {
                client.ping();
                Duration timeout = Duration.ofMillis(300);
                try (QueryResult r = client.query("SELECT number FROM numbers(10) SETTINGS max_block_size = 1",
                        QueryOptions.builder().timeout(timeout).build())) {
                    ClickHouseTimeoutException e = catchThrowableOfType(() -> {
                        while (r.next() != null) {
                            LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // the consumer's own work
                        }
                    }, ClickHouseTimeoutException.class);
                    assertThat(e).as("%s: the rest of the result after the deadline", server).isNotNull();
                    assertThat(e.deadline()).isEqualTo(ClickHouseTimeoutException.Deadline.QUERY);
                    assertThat(e.timeout()).isEqualTo(timeout);
                }
                assertThat(client.poolStats().active()).isZero();
                for (int i = 0; i < 3; i++) {
                    assertThat(client.query("SELECT sleepEachRow(0.01), number FROM numbers(20) SETTINGS max_block_size = 1",
                            (row, n) -> row.getLong(1))).as("%s: the next queries on the pool", server).hasSize(20);
                }
            }
        }
    }

    /**
     * A consumer slower than the timeout and its grace together: the Cancel goes out at its next read,
     * when the grace measured from the deadline is already over. The rest of the answer (more than the
     * client's buffer holds, so part of it still waits in the socket) had arrived long before; reading
     * it is the server's confirmation, not a silence. The connection was dropped as unconfirmed.
     */
    @Test
    void aConsumerSlowerThanTheGraceKeepsTheConnectionWhenTheAnswerHadArrived() {
        for (ClickHouseServer server : List.of(ClickHouseServers.modern(), ClickHouseServers.legacy())) {
            try (ClickHouseTcpClient client = TestClients.builder(server).maxPoolSize(1).compression(Compression.NONE)
                    .build()) {
                client.ping();
                Duration timeout = Duration.ofMillis(300);
                // 16 blocks of 10 KB: past the client's 64 KB buffer, well within the socket's
                try (QueryResult r = client.query("SELECT toFixedString('a', 1000) FROM numbers(160) "
                        + "SETTINGS max_block_size = 10", QueryOptions.builder().timeout(timeout).build())) {
                    ClickHouseTimeoutException e = catchThrowableOfType(() -> {
                        boolean slept = false;
                        while (r.next() != null) {
                            if (!slept) {
                                slept = true;
                                LockSupport.parkNanos(Duration.ofSeconds(1).toNanos()); // the consumer's own work
                            }
                        }
                    }, ClickHouseTimeoutException.class);
                    assertThat(e).as("%s: the rest of the result after the deadline", server).isNotNull();
                    assertThat(e.deadline()).isEqualTo(ClickHouseTimeoutException.Deadline.QUERY);
                    assertThat(e.getMessage()).as("%s", server).contains("the server confirmed");
                }
                assertThat(client.poolStats().destroyed()).as("%s: connections dropped", server).isZero();
                assertThat(client.queryRows("SELECT 1")).hasSize(1);
            }
        }
    }

    /**
     * The same slow consumer stopping early instead, past the deadline and its grace: closing the result
     * (leaving a loop early) or {@link QueryResult#cancel()} before reading on. The Cancel goes out then, and
     * the rest of the answer, which had arrived long before, is the confirmation. The connection was
     * dropped as unconfirmed, its wait for the confirmation having ended with the grace from the deadline.
     */
    @Test
    void aConsumerSlowerThanTheGraceThatStopsEarlyKeepsTheConnectionWhenTheAnswerHadArrived() {
        for (ClickHouseServer server : List.of(ClickHouseServers.modern(), ClickHouseServers.legacy())) {
            for (boolean close : new boolean[] {true, false}) {
                String how = server + (close ? ": closing the result" : ": cancel, then reading on");
                try (ClickHouseTcpClient client = TestClients.builder(server).maxPoolSize(1)
                        .compression(Compression.NONE).build()) {
                    client.ping();
                    // 16 blocks of 10 KB: past the client's 64 KB buffer, well within the socket's
                    try (QueryResult r = client.query("SELECT toFixedString('a', 1000) FROM numbers(160) "
                            + "SETTINGS max_block_size = 10", QueryOptions.builder().timeout(Duration.ofMillis(300))
                            .build())) {
                        assertThat(r.next()).isNotNull();
                        LockSupport.parkNanos(Duration.ofSeconds(1).toNanos()); // the consumer's own work
                        if (!close) {
                            r.cancel();
                            assertThat(r.next()).as("%s: the cancelled stream ends", how).isNull();
                        }
                    }
                    assertThat(client.poolStats().destroyed()).as("%s: connections dropped", how).isZero();
                    assertThat(client.queryRows("SELECT 1")).hasSize(1);
                }
            }
        }
    }

    @Test
    void theQueryTimeoutCoversProducingAnInsertsRows() {
        ClickHouseServer server = ClickHouseServers.modern();
        String table = TestClients.table("deadline_rows");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + table + " (x UInt64) ENGINE = MergeTree ORDER BY x");
            // a source that takes about 2 ms per row: 10 000 rows would take 20 s
            Iterable<Object[]> slowRows = () -> new Iterator<>() {
                long n;

                @Override
                public boolean hasNext() {
                    return n < 10_000;
                }

                @Override
                public Object[] next() {
                    LockSupport.parkNanos(2_000_000);
                    return new Object[] {n++};
                }
            };
            long start = System.nanoTime();
            ClickHouseTimeoutException e = catchThrowableOfType(() -> client.insert(table, List.of("x"), slowRows,
                    QueryOptions.builder().timeout(Duration.ofMillis(300)).build()), ClickHouseTimeoutException.class);
            assertThat(since(start)).isLessThan(bound(Duration.ofMillis(300)));
            assertThat(e.deadline()).isEqualTo(ClickHouseTimeoutException.Deadline.QUERY);
            assertThat(e.insertMayHaveBeenApplied()).as("no block was complete, nothing was sent").isFalse();
            assertThat(client.queryRows("SELECT count() FROM " + table).get(0)[0]).isEqualTo(BigInteger.ZERO);

            // with small blocks, some rows were sent before the deadline: the insert may have been applied
            long start2 = System.nanoTime();
            ClickHouseTimeoutException e2 = catchThrowableOfType(() -> client.insert(table, List.of("x"), slowRows,
                    InsertOptions.builder().maxRowsPerBlock(10).queryOptions(QueryOptions.builder()
                            .timeout(Duration.ofMillis(300)).build()).build()), ClickHouseTimeoutException.class);
            assertThat(since(start2)).isLessThan(bound(Duration.ofMillis(300)));
            assertThat(e2.insertMayHaveBeenApplied()).isTrue();
            assertThat(e2.getMessage()).contains("may have been applied");
        } finally {
            server.httpQuery("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void theQueryTimeoutCoversTheWholeInsertInSafeRetryModeNotEachBlock() {
        ClickHouseServer server = ClickHouseServers.modern();
        String table = TestClients.table("deadline_blocks");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + table + " (x UInt64) ENGINE = MergeTree ORDER BY x "
                    + "SETTINGS non_replicated_deduplication_window = 1000");
            // 1000 rows at 2 ms each (2 s), sent as 100 INSERTs of 10 rows (20 ms each)
            Iterable<Object[]> slowRows = slowRows(1000, 2_000_000);
            InsertOptions options = InsertOptions.builder().deduplicationToken("token-" + table).tokenPerBlock(true)
                    .maxRowsPerBlock(10).queryOptions(QueryOptions.builder().timeout(Duration.ofMillis(300)).build())
                    .build();
            long start = System.nanoTime();
            ClickHouseTimeoutException e = catchThrowableOfType(() -> client.insert(table, List.of("x"), slowRows, options),
                    ClickHouseTimeoutException.class);
            assertThat(e).as("the insert outlived its timeout").isNotNull();
            assertThat(since(start)).isLessThan(bound(Duration.ofMillis(300)));
            assertThat(e.deadline()).isEqualTo(ClickHouseTimeoutException.Deadline.QUERY);
            assertThat(e.timeout()).isEqualTo(Duration.ofMillis(300));
        } finally {
            server.httpQuery("DROP TABLE IF EXISTS " + table);
        }
    }

    /** Rows 0..n-1 of one UInt64, each taking {@code nanosPerRow} to produce. */
    static Iterable<Object[]> slowRows(long n, long nanosPerRow) {
        return () -> new Iterator<>() {
            long i;

            @Override
            public boolean hasNext() {
                return i < n;
            }

            @Override
            public Object[] next() {
                LockSupport.parkNanos(nanosPerRow);
                return new Object[] {i++};
            }
        };
    }

    @Test
    void aSafeRetryInsertThatFailsAfterSomeBlocksSaysItWasAppliedInPartAndNamesTheTokenToRetryWith() {
        ClickHouseServer server = ClickHouseServers.modern();
        String table = TestClients.table("deadline_partial");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + table + " (x UInt64) ENGINE = MergeTree ORDER BY x "
                    + "SETTINGS non_replicated_deduplication_window = 1000");
            InsertOptions.Builder options = InsertOptions.builder().deduplicationToken("token-" + table).tokenPerBlock(true)
                    .maxRowsPerBlock(10);
            // blocks of 10 rows take 20 ms each to produce: the timeout passes after some blocks were committed
            ClickHouseTimeoutException e = catchThrowableOfType(() -> client.insert(table, List.of("x"),
                    slowRows(1000, 2_000_000), InsertOptions.builder().deduplicationToken("token-" + table)
                            .tokenPerBlock(true).maxRowsPerBlock(10).queryOptions(QueryOptions.builder()
                                    .timeout(Duration.ofMillis(300)).build()).build()), ClickHouseTimeoutException.class);
            long committed = Long.parseLong(server.httpQuery("SELECT count() FROM " + table).trim());
            assertThat(committed).as("rows committed before the timeout").isPositive();
            assertThat(e.insertMayHaveBeenApplied()).as("blocks were committed").isTrue();
            assertThat(e.deduplicationToken()).as("the token to retry the whole insert with").isEqualTo("token-" + table);
            assertThat(e.getMessage()).contains("token 'token-" + table + "'")
                    .contains("rows) had been committed").contains("applied in part");
            // retrying the whole insert with that token leaves every row exactly once
            client.insert(table, List.of("x"), slowRows(1000, 0), options.deduplicationToken(e.deduplicationToken()).build());
            assertThat(server.httpQuery("SELECT count(), sum(x) FROM " + table).trim()).isEqualTo("1000\t499500");
        } finally {
            server.httpQuery("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void anInsertThatTimesOutAfterItsDataWasSentSaysItMayHaveBeenAppliedAndNamesItsToken() {
        ClickHouseServer server = ClickHouseServers.modern();
        String table = TestClients.table("deadline_commit");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + table + " (x UInt64) ENGINE = MergeTree ORDER BY x "
                    + "SETTINGS non_replicated_deduplication_window = 100");
            // the insert finishes only after this view has slept about 1 s over the inserted block
            client.execute("CREATE MATERIALIZED VIEW " + table + "_slow ENGINE = Null AS SELECT sleepEachRow(0.2) AS s FROM "
                    + table);
            InsertOptions options = InsertOptions.builder().deduplicationToken("token-" + table)
                    .queryOptions(QueryOptions.builder().timeout(Duration.ofMillis(300)).build()).build();
            List<Object[]> rows = List.of(new Object[] {1L}, new Object[] {2L}, new Object[] {3L}, new Object[] {4L},
                    new Object[] {5L});
            long start = System.nanoTime();
            ClickHouseTimeoutException e = catchThrowableOfType(() -> client.insert(table, List.of("x"), rows, options),
                    ClickHouseTimeoutException.class);
            assertThat(since(start)).isLessThan(bound(Duration.ofMillis(300)));
            assertThat(e.insertMayHaveBeenApplied()).isTrue();
            assertThat(e.deduplicationToken()).isEqualTo("token-" + table);
            assertThat(e.getMessage()).contains("may have been applied").contains("token-" + table);
            LifecycleTest.await("the server to commit the timed-out insert", Duration.ofSeconds(30),
                    () -> server.httpQuery("SELECT count() FROM " + table).trim().equals("5"));
            // the retry with the same token is safe: nothing is duplicated
            client.insert(table, List.of("x"), rows, InsertOptions.builder().deduplicationToken("token-" + table).build());
            assertThat(server.httpQuery("SELECT count(), sum(x) FROM " + table).trim()).isEqualTo("5\t15");
        } finally {
            server.httpQuery("DROP TABLE IF EXISTS " + table + "_slow");
            server.httpQuery("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void theAcquireTimeoutCoversOpeningAConnectionAndSaysSo() throws Exception {
        List<Socket> accepted = new CopyOnWriteArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept()); // accepts, never answers the Hello
                    }
                } catch (IOException closed) {
                    // test over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host("127.0.0.1").port(silent.getLocalPort())
                    .connectTimeout(Duration.ofSeconds(10)).handshakeTimeout(Duration.ofSeconds(10))
                    .acquireTimeout(Duration.ofMillis(500)).build()) {
                long start = System.nanoTime();
                ClickHouseTimeoutException e = catchThrowableOfType(() -> client.queryRows("SELECT 1"),
                        ClickHouseTimeoutException.class);
                assertThat(since(start)).isLessThan(Duration.ofMillis(500).plus(SLACK).plus(Duration.ofMillis(100)));
                assertThat(e.deadline()).isEqualTo(ClickHouseTimeoutException.Deadline.ACQUIRE);
                assertThat(e.timeout()).isEqualTo(Duration.ofMillis(500));
                assertThat(e.getMessage()).contains("acquireTimeout").contains("PT0.5S").contains("timed out");
                assertThat(client.poolStats().total()).as("the slot of the unfinished connection is free").isZero();
            }
        } finally {
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    @Test
    void anExhaustedPoolTimeoutNamesTheAcquireTimeout() {
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern()).maxPoolSize(1)
                .acquireTimeout(Duration.ofMillis(300)).build();
             QueryResult held = client.query("SELECT 1")) {
            ClickHouseTimeoutException e = catchThrowableOfType(() -> client.queryRows("SELECT 2"),
                    ClickHouseTimeoutException.class);
            assertThat(e.deadline()).isEqualTo(ClickHouseTimeoutException.Deadline.ACQUIRE);
            assertThat(e.getMessage()).contains("acquireTimeout").contains("PT0.3S").contains("timed out");
            held.drain();
        }
    }

    @Test
    void aQueryTimeoutShorterThanTheAcquireTimeoutBoundsTheWaitForAConnection() {
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern()).maxPoolSize(1)
                .acquireTimeout(Duration.ofSeconds(30)).build();
             QueryResult held = client.query("SELECT 1")) {
            long start = System.nanoTime();
            ClickHouseTimeoutException e = catchThrowableOfType(() -> client.queryRows("SELECT 2",
                    QueryOptions.builder().timeout(Duration.ofMillis(300)).build()), ClickHouseTimeoutException.class);
            assertThat(since(start)).isLessThan(bound(Duration.ofMillis(300)));
            assertThat(e.deadline()).isEqualTo(ClickHouseTimeoutException.Deadline.QUERY);
            held.drain();
        }
    }

    @Test
    void aTimeoutReturnsPromptlyEvenWhenTheServerCannotStopAtOnce() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.queryRows("SELECT sleep(3)", QueryOptions.builder()
                    .timeout(Duration.ofMillis(300)).build())).isInstanceOf(ClickHouseTimeoutException.class)
                    .hasMessageContaining("timeout");
            // not a timing assertion on the server: the call must not wait for the 3 s sleep to finish
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2900));
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
    }
}
