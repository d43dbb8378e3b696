package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServer.Kind;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.PrivateServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A server that restarts or crashes under a pool. Idle connections it closed are recognised before reuse
 * and replaced, so no caller sees them fail; operations in flight when it is killed end with typed
 * errors (never a silently short result); the pool heals once the server is back; and inserts with a
 * deduplication token, retried afterwards, leave exactly their rows. Private servers only: the shared
 * ones are never stopped.
 */
@ClickHouseTest
class ServerRestartTest {
    static final ReliabilityFigures FIGURES = new ReliabilityFigures(ServerRestartTest.class);
    static PrivateServer modern;

    @BeforeAll
    static void startServer() {
        modern = ClickHouseServers.startPrivate(Kind.MODERN);
    }

    @AfterAll
    static void stopServer() {
        FIGURES.report();
        if (modern != null) {
            modern.close();
        }
    }

    @BeforeEach
    void serverUp() {
        if (!modern.isAlive()) {
            modern.start();
        }
    }

    static ClickHouseTcpClient.Builder pool(ClickHouseServer server, int size) {
        return ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort()).maxPoolSize(size)
                .validateAfterIdle(Duration.ofHours(1)) // no ping hides a stale connection
                .connectTimeout(Duration.ofSeconds(2)).socketTimeout(Duration.ofSeconds(10))
                .acquireTimeout(Duration.ofSeconds(30));
    }

    static long serverConnections(ClickHouseServer server) {
        return Long.parseLong(server.httpQuery("SELECT value FROM system.metrics WHERE metric = 'TCPConnection'").trim());
    }

    /** Four connections at once, so the pool holds four idle ones. */
    static void warmFour(ClickHouseTcpClient client, ExecutorService threads) throws Exception {
        CountDownLatch allBusy = new CountDownLatch(4);
        List<Future<Object>> warm = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            warm.add(threads.submit(() -> {
                try (QueryResult r = client.query("SELECT 1")) {
                    allBusy.countDown();
                    assertThat(allBusy.await(30, TimeUnit.SECONDS)).isTrue();
                    r.drain();
                }
                return null;
            }));
        }
        for (Future<Object> f : warm) {
            f.get(30, TimeUnit.SECONDS);
            FIGURES.operation();
        }
        assertThat(client.poolStats().idle()).isEqualTo(4);
    }

    /** Eight {@code SELECT i} at once: every one must succeed with its own answer. */
    static void eightQueriesSucceed(ClickHouseTcpClient client, ExecutorService threads) throws Exception {
        List<CompletableFuture<Object>> results = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            int n = i;
            results.add(CompletableFuture.supplyAsync(() -> client.queryRows("SELECT toUInt64(" + n + ")").get(0)[0],
                    threads));
        }
        for (int i = 0; i < 8; i++) {
            FIGURES.operation();
            Object v = results.get(i).get(30, TimeUnit.SECONDS);
            if (!BigInteger.valueOf(i).equals(v)) {
                FIGURES.wrongResult();
            }
            assertThat(v).isEqualTo(BigInteger.valueOf(i));
        }
    }

    /** The server holds exactly the pool's connections, and none once the client is closed. */
    static void noLeak(ClickHouseTcpClient client, ClickHouseServer server) {
        PoolStats s = client.poolStats();
        assertThat(s.active()).as("%s", s).isZero();
        assertThat(s.idle()).as("idle == total: %s", s).isEqualTo(s.total());
        try {
            LifecycleTest.await("the server to count the pool's " + s.total() + " connections", Duration.ofSeconds(30),
                    () -> serverConnections(server) == s.total());
        } catch (AssertionError e) {
            FIGURES.leakedConnections(Math.max(0, serverConnections(server) - s.total()));
            throw e;
        }
        client.close();
        try {
            LifecycleTest.await("the server to see every connection closed", Duration.ofSeconds(30),
                    () -> serverConnections(server) == 0);
        } catch (AssertionError e) {
            FIGURES.leakedConnections(serverConnections(server));
            throw e;
        }
    }

    @Test
    void aRestartWhileTheConnectionsAreIdleIsInvisibleToTheQueriesAfterIt() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try (ClickHouseTcpClient client = pool(modern.server(), 4).build()) {
            warmFour(client, threads);
            long pid = modern.pid();
            modern.restart();
            assertThat(modern.pid()).as("a new server process").isNotEqualTo(pid);
            FIGURES.fault("restart while idle");
            eightQueriesSucceed(client, threads);
            PoolStats s = client.poolStats();
            assertThat(s.destroyed()).as("the four connections the restart closed: %s", s).isEqualTo(4);
            noLeak(client, modern.server());
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aRestartOfTheLegacyServerWhileTheConnectionsAreIdleIsInvisibleToo() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try (PrivateServer legacy = ClickHouseServers.startPrivate(Kind.LEGACY);
             ClickHouseTcpClient client = pool(legacy.server(), 4).build()) {
            warmFour(client, threads);
            long pid = legacy.pid();
            legacy.restart();
            assertThat(legacy.pid()).as("a new server process").isNotEqualTo(pid);
            FIGURES.fault("restart while idle");
            eightQueriesSucceed(client, threads);
            assertThat(client.poolStats().destroyed()).isEqualTo(4);
            assertThat(client.poolStats().active()).isZero();
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aKillWhileTheConnectionsAreIdleIsATypedErrorWhileDownAndInvisibleOnceBack() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try (ClickHouseTcpClient client = pool(modern.server(), 4).build()) {
            warmFour(client, threads);
            modern.kill();
            FIGURES.fault("kill -9 while idle");
            // while it is down: the stale connections are dropped, a new one is refused, at once
            long start = System.nanoTime();
            ClickHouseConnectionException down = catchThrowableOfType(() -> client.queryRows("SELECT 1"),
                    ClickHouseConnectionException.class);
            FIGURES.operation();
            assertThat(down).isNotNull().isNotInstanceOf(ClickHouseTimeoutException.class);
            FIGURES.exception(down);
            assertThat(DeadlineTest.since(start)).isLessThan(DeadlineTest.bound(Duration.ofSeconds(2)));
            assertThat(client.poolStats().total()).isZero();
            long pid = modern.pid();
            modern.start();
            assertThat(modern.pid()).as("a new server process").isNotEqualTo(pid);
            eightQueriesSucceed(client, threads);
            PoolStats s = client.poolStats();
            assertThat(s.destroyed()).as("the four connections the kill closed: %s", s).isEqualTo(4);
            noLeak(client, modern.server());
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aKillWhileQueriesAndInsertsRunIsATypedErrorForEachAndTokenInsertsRetriedAfterwardsLeaveEveryRowOnce()
            throws Exception {
        int queries = 3;
        int inserts = 2;
        int rows = 20_000;
        ExecutorService threads = Executors.newFixedThreadPool(queries + inserts + 8);
        ClickHouseServer server = modern.server();
        List<String> tables = new ArrayList<>();
        try (ClickHouseTcpClient client = pool(server, 8).build()) {
            CountDownLatch inFlight = new CountDownLatch(queries + inserts);
            CountDownLatch killed = new CountDownLatch(1);
            List<Future<String>> outcomes = new ArrayList<>();
            for (int q = 0; q < queries; q++) {
                outcomes.add(threads.submit(() -> {
                    long seen = 0;
                    try (QueryResult r = client.query("SELECT number, sleepEachRow(0.01) FROM numbers(1000) "
                            + "SETTINGS max_block_size = 1")) {
                        Block b;
                        while ((b = r.next()) != null) {
                            for (int i = 0; i < b.rowCount(); i++) {
                                if (b.column(0).getLong(i) != seen++) {
                                    return "wrong row " + (seen - 1);
                                }
                            }
                            if (seen == 1) {
                                inFlight.countDown();
                            }
                        }
                        return "ended without an exception after " + seen + " of 1000 rows";
                    } catch (ClickHouseConnectionException e) {
                        FIGURES.exception(e);
                        return e instanceof ClickHouseTimeoutException ? "timeout: " + e : "typed";
                    } catch (RuntimeException e) {
                        return "untyped: " + e;
                    }
                }));
            }
            List<InsertOptions> options = new ArrayList<>();
            for (int i = 0; i < inserts; i++) {
                String table = TestClients.table("restart_ins" + i);
                tables.add(table);
                client.execute("CREATE TABLE " + table + " (x UInt64) ENGINE = MergeTree ORDER BY x "
                        + "SETTINGS non_replicated_deduplication_window = 1000");
                InsertOptions o = InsertOptions.builder().deduplicationToken("token-" + table).tokenPerBlock(true)
                        .maxRowsPerBlock(500).build();
                options.add(o);
                outcomes.add(threads.submit(() -> {
                    try {
                        client.insert(table, List.of("x"), rowsPausingAt(rows, 5_250, inFlight, killed), o);
                        return "ended without an exception";
                    } catch (ClickHouseConnectionException e) {
                        FIGURES.exception(e);
                        if (!e.insertMayHaveBeenApplied() || !("token-" + table).equals(e.deduplicationToken())) {
                            return "does not say it was applied in part with its token: " + e;
                        }
                        return "typed";
                    } catch (RuntimeException e) {
                        return "untyped: " + e;
                    }
                }));
            }
            assertThat(inFlight.await(30, TimeUnit.SECONDS)).as("every operation in flight").isTrue();
            modern.kill();
            FIGURES.fault("kill -9 mid-operation");
            killed.countDown();
            for (Future<String> f : outcomes) {
                FIGURES.operation();
                assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo("typed");
            }
            modern.start();
            eightQueriesSucceed(client, threads);
            for (int i = 0; i < inserts; i++) {
                FIGURES.operation();
                assertThat(client.insert(tables.get(i), List.of("x"), rowsPausingAt(rows, -1, null, null), options.get(i)))
                        .isEqualTo(rows);
                String[] got = server.httpQuery("SELECT count(), sum(x), uniqExact(x) FROM " + tables.get(i)).trim()
                        .split("\t");
                long count = Long.parseLong(got[0]);
                long distinct = Long.parseLong(got[2]);
                FIGURES.rowsLost(rows - distinct);
                FIGURES.rowsDuplicated(count - distinct);
                assertThat(got).as("count, sum, distinct rows of %s", tables.get(i)).containsExactly(
                        Integer.toString(rows), Long.toString((long) rows * (rows - 1) / 2), Integer.toString(rows));
            }
            noLeak(client, server);
        } finally {
            threads.shutdownNow();
            for (String table : tables) {
                server.httpQuery("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    /**
     * Rows 0..n-1; once {@code pauseAt} rows were produced, it reports being in flight and waits until the
     * server was killed (so the insert is in the middle of a block at the kill).
     */
    static Iterable<Object[]> rowsPausingAt(long n, long pauseAt, CountDownLatch inFlight, CountDownLatch killed) {
        return () -> new Iterator<>() {
            long i;

            @Override
            public boolean hasNext() {
                return i < n;
            }

            @Override
            public Object[] next() {
                if (i == pauseAt) {
                    inFlight.countDown();
                    try {
                        assertThat(killed.await(30, TimeUnit.SECONDS)).isTrue();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
                return new Object[] {i++};
            }
        };
    }
}
