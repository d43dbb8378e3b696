package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServer.Kind;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.FaultProxy;
import dev.clickhousetcp.testsupport.FaultProxy.Direction;
import dev.clickhousetcp.testsupport.FaultRule;
import dev.clickhousetcp.testsupport.PrivateServer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
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
 * Network faults at every phase of a connection's life, injected by a {@link FaultProxy} between the
 * client and the server: the handshake (server Hello delayed or stalled), the query just sent (the
 * client's bytes stalled or cut right after the Query packet's SQL), the middle of a result (the
 * server's bytes cut, reset or stalled some way into the answer), the middle of a multi-block insert
 * (the client's data stalled, cut or reset; the server's confirmations cut), a cancel (the server's
 * answer stalled once the Cancel is sent) and idle pooled connections (ended gracefully or reset).
 *
 * <p>For each: the operation ends with a typed exception ({@link ClickHouseConnectionException}, or
 * {@link ClickHouseTimeoutException} naming the deadline that expired) within its documented bound
 * (the deadline plus {@code max(10 %, 100 ms)}, plus {@link DeadlineTest#SLACK}), or, where the client
 * promises it, succeeds without the caller noticing (a read-only query whose reused connection failed
 * unanswered; idle connections the server side ended); the faulted connection is discarded, never
 * reused ({@code destroyed}); the pool heals (later queries succeed, nothing stays lent); and an insert
 * with a deduplication token, retried after the fault, leaves exactly its rows: none lost, none twice.
 *
 * <p>The servers are private ones: a 26.7 server (the shared one aborts on resets and cut packets;
 * inserts with tokens need 26.7) and an 18.16 one for resets and TLS. A reset of the 26.7 server is
 * followed by a kill and restart, since a reset ends that server.
 */
@ClickHouseTest
class FaultInjectionTest {
    static final ReliabilityFigures FIGURES = new ReliabilityFigures(FaultInjectionTest.class);
    /** A private 26.7 server: faults here may cut packets or reset connections, and dedup needs 26.7. */
    static PrivateServer modern;
    /** A private 18.16 server, for resets and TLS (private, so no other test's restart of it gets in the way). */
    static PrivateServer legacyServer;
    static ClickHouseServer legacy;

    @BeforeAll
    static void startServers() {
        modern = ClickHouseServers.startPrivate(Kind.MODERN);
        legacyServer = ClickHouseServers.startPrivate(Kind.LEGACY);
        legacy = legacyServer.server();
    }

    @AfterAll
    static void stopServers() {
        FIGURES.report();
        if (modern != null) {
            modern.close();
        }
        if (legacyServer != null) {
            legacyServer.close();
        }
    }

    @BeforeEach
    void serversUp() {
        for (PrivateServer server : List.of(modern, legacyServer)) {
            if (!server.isAlive()) {
                server.start();
            }
        }
    }

    static FaultProxy proxy(ClickHouseServer server) {
        return FaultProxy.forNativePort(server);
    }

    /** Generous defaults; each test shortens the deadline it is about. Pings never hide a stale connection. */
    static ClickHouseTcpClient.Builder via(FaultProxy proxy) {
        return ClickHouseTcpClient.builder().host(proxy.host()).port(proxy.port())
                .connectTimeout(Duration.ofSeconds(5)).handshakeTimeout(Duration.ofSeconds(5))
                .socketTimeout(Duration.ofSeconds(10)).acquireTimeout(Duration.ofSeconds(10))
                .validateAfterIdle(Duration.ofHours(1)).compression(Compression.NONE).maxPoolSize(2);
    }

    static String marker() {
        return "fault_" + Long.toHexString(System.nanoTime());
    }

    /** Runs {@code call}, which must throw {@code type} within {@code bound}. */
    static <T extends Throwable> T throwsWithin(Duration bound, Class<T> type, ThrowingCallable call) {
        long start = System.nanoTime();
        T e = catchThrowableOfType(call, type);
        Duration took = DeadlineTest.since(start);
        FIGURES.operation();
        assertThat(e).as("expected a %s", type.getSimpleName()).isNotNull();
        FIGURES.exception(e);
        assertThat(took).as("time to the exception (%s)", e).isLessThan(bound);
        return e;
    }

    static void fired(FaultRule rule, String phase) throws InterruptedException {
        assertThat(rule.awaitFired(Duration.ofSeconds(10))).as("the fault fired").isTrue();
        FIGURES.fault(phase);
    }

    /** Later queries succeed, nothing stays lent, and exactly {@code destroyed} connections were discarded. */
    static void heals(ClickHouseTcpClient client, long destroyed) {
        for (int i = 0; i < 3; i++) {
            FIGURES.operation();
            Object v = client.queryRows("SELECT toUInt64(" + i + ")").get(0)[0];
            if (!BigInteger.valueOf(i).equals(v)) {
                FIGURES.wrongResult();
            }
            assertThat(v).isEqualTo(BigInteger.valueOf(i));
        }
        PoolStats s = client.poolStats();
        assertThat(s.active()).as("lent after the fault: %s", s).isZero();
        assertThat(s.idle()).as("idle + active == total: %s", s).isEqualTo(s.total());
        assertThat(s.destroyed()).as("connections discarded, the faulted one among them: %s", s).isEqualTo(destroyed);
        if (s.active() != 0 || s.idle() != s.total()) {
            FIGURES.leakedConnections(s.total() - s.idle());
        }
    }

    /** Reads blocks of {@code number} from 0 on, checking each row; returns the rows read when {@code r} threw or ended. */
    static long readChecked(QueryResult r, long[] seen) {
        Block b;
        while ((b = r.next()) != null) {
            for (int i = 0; i < b.rowCount(); i++) {
                if (b.column(0).getLong(i) != seen[0]) {
                    FIGURES.wrongResult();
                    throw new AssertionError("row " + seen[0] + " is " + b.column(0).getLong(i));
                }
                seen[0]++;
            }
        }
        return seen[0];
    }

    // ------------------------------------------------------------------ handshake

    @Test
    void aServerHelloDelayedPastTheHandshakeTimeoutIsAHandshakeTimeout() throws Exception {
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).handshakeTimeout(Duration.ofMillis(300)).build()) {
            FaultRule rule = proxy.on(Direction.SERVER_TO_CLIENT).atOffset(0).delay(Duration.ofSeconds(2)).onNextConnection();
            ClickHouseTimeoutException e = throwsWithin(DeadlineTest.bound(Duration.ofMillis(300)),
                    ClickHouseTimeoutException.class, () -> client.queryRows("SELECT 1"));
            fired(rule, "handshake");
            assertThat(e.deadline()).isEqualTo(Deadline.HANDSHAKE);
            assertThat(e.timeout()).isEqualTo(Duration.ofMillis(300));
            assertThat(e.getMessage()).contains("handshakeTimeout").contains("PT0.3S");
            assertThat(client.poolStats().total()).as("the slot of the failed opening is free").isZero();
            heals(client, 0);
            assertThat(proxy.stats().accepted()).as("the queries afterwards opened a new connection").isEqualTo(2);
        }
    }

    @Test
    void aServerHelloDelayedPastTheAcquireTimeoutIsAnAcquireTimeout() throws Exception {
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).acquireTimeout(Duration.ofMillis(300)).build()) {
            FaultRule rule = proxy.on(Direction.SERVER_TO_CLIENT).atOffset(0).delay(Duration.ofSeconds(2)).onNextConnection();
            ClickHouseTimeoutException e = throwsWithin(DeadlineTest.bound(Duration.ofMillis(300)),
                    ClickHouseTimeoutException.class, () -> client.queryRows("SELECT 1"));
            fired(rule, "handshake");
            assertThat(e.deadline()).isEqualTo(Deadline.ACQUIRE);
            assertThat(e.getMessage()).contains("acquireTimeout").contains("PT0.3S");
            assertThat(client.poolStats().acquireTimeouts()).isEqualTo(1);
            heals(client, 0);
        }
    }

    @Test
    void aStalledServerHelloEndsWithinTheAcquireTimeoutAndTheNextConnectionWorks() throws Exception {
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).acquireTimeout(Duration.ofMillis(500)).build()) {
            FaultRule rule = proxy.on(Direction.SERVER_TO_CLIENT).atOffset(0).stall().onNextConnection();
            ClickHouseTimeoutException e = throwsWithin(DeadlineTest.bound(Duration.ofMillis(500)),
                    ClickHouseTimeoutException.class, () -> client.queryRows("SELECT 1"));
            fired(rule, "handshake");
            assertThat(e.deadline()).isEqualTo(Deadline.ACQUIRE);
            heals(client, 0);
        }
    }

    // ------------------------------------------------------------------ query sent

    @Test
    void aQueryStalledRightAfterItsQueryPacketTimesOutNamingTheQueryTimeout() throws Exception {
        String marker = marker();
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).build()) {
            client.ping();
            FaultRule rule = proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, marker).stall()
                    .once();
            Duration timeout = Duration.ofMillis(500);
            ClickHouseTimeoutException e = throwsWithin(DeadlineTest.bound(timeout), ClickHouseTimeoutException.class,
                    () -> client.queryRows("SELECT 1 /* " + marker + " */", QueryOptions.builder().timeout(timeout).build()));
            fired(rule, "query sent");
            assertThat(e.deadline()).isEqualTo(Deadline.QUERY);
            assertThat(e.timeout()).isEqualTo(timeout);
            heals(client, 1);
        }
    }

    @Test
    void aQueryStalledRightAfterItsQueryPacketWithoutAQueryTimeoutEndsAtTheSocketTimeout() throws Exception {
        String marker = marker();
        Duration socketTimeout = Duration.ofMillis(700);
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).socketTimeout(socketTimeout).build()) {
            client.ping();
            FaultRule rule = proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, marker).stall()
                    .once();
            ClickHouseTimeoutException e = throwsWithin(DeadlineTest.bound(socketTimeout), ClickHouseTimeoutException.class,
                    () -> client.queryRows("SELECT 1 /* " + marker + " */"));
            fired(rule, "query sent");
            assertThat(e.deadline()).isEqualTo(Deadline.SOCKET);
            assertThat(e.getMessage()).contains("socketTimeout").contains("PT0.7S");
            heals(client, 1);
        }
    }

    @Test
    void aReadOnlyQueryCutRightAfterItsQueryPacketOnAReusedConnectionIsRetriedTransparently() throws Exception {
        String marker = marker();
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
            client.ping(); // the query will reuse this connection
            FaultRule rule = proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, marker)
                    .truncate().once();
            FIGURES.operation();
            List<Object[]> rows = client.queryRows("SELECT sum(number) FROM numbers(1000) /* " + marker + " */");
            fired(rule, "query sent");
            assertThat(rows.get(0)[0]).isEqualTo(BigInteger.valueOf(499_500));
            assertThat(proxy.stats().accepted()).as("run again on a new connection").isEqualTo(2);
            heals(client, 1);
        }
    }

    @Test
    void aReadOnlyQueryCutRightAfterItsQueryPacketOnANewConnectionFailsTyped() throws Exception {
        String marker = marker();
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).build()) {
            FaultRule rule = proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, marker)
                    .truncate().once();
            ClickHouseConnectionException e = throwsWithin(Duration.ofSeconds(2), ClickHouseConnectionException.class,
                    () -> client.queryRows("SELECT 1 /* " + marker + " */"));
            fired(rule, "query sent");
            assertThat(e).isNotInstanceOf(ClickHouseTimeoutException.class);
            assertThat(proxy.stats().accepted()).as("not run again: the connection was new").isEqualTo(1);
            heals(client, 1);
        }
    }

    @Test
    void aWritingStatementCutRightAfterItsQueryPacketIsNotRetried() throws Exception {
        String marker = marker();
        String table = TestClients.table("fault_stmt");
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
            client.execute("CREATE TABLE " + table + " (x UInt64) ENGINE = MergeTree ORDER BY x");
            FaultRule rule = proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, marker)
                    .truncate().once();
            ClickHouseConnectionException e = throwsWithin(Duration.ofSeconds(2), ClickHouseConnectionException.class,
                    () -> client.execute("INSERT INTO " + table + " SELECT number FROM numbers(10) /* " + marker + " */"));
            fired(rule, "query sent");
            assertThat(e).isNotInstanceOf(ClickHouseTimeoutException.class);
            assertThat(proxy.stats().accepted()).as("an INSERT ... SELECT is never run again by the client").isEqualTo(1);
            heals(client, 1);
            assertThat(client.queryRows("SELECT count() FROM " + table).get(0)[0]).isEqualTo(BigInteger.ZERO);
        } finally {
            modern.server().httpQuery("DROP TABLE IF EXISTS " + table);
        }
    }

    // ------------------------------------------------------------------ mid-block

    static final long RESULT_ROWS = 2_000_000;

    private static String bigResult(String marker) {
        return "SELECT number FROM numbers(" + RESULT_ROWS + ") /* " + marker + " */ SETTINGS max_block_size = 10000";
    }

    @Test
    void aResultCutMidBlockFailsTypedWithACorrectPrefixAndIsNotRetried() throws Exception {
        String marker = marker();
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
            client.ping();
            FaultRule rule = proxy.on(Direction.SERVER_TO_CLIENT).afterMarker(Direction.CLIENT_TO_SERVER, marker)
                    .plusBytes(300_000).truncate().once();
            long[] seen = {0};
            ClickHouseConnectionException e = throwsWithin(Duration.ofSeconds(2), ClickHouseConnectionException.class, () -> {
                try (QueryResult r = client.query(bigResult(marker))) {
                    readChecked(r, seen);
                }
            });
            fired(rule, "mid-block");
            assertThat(e).isNotInstanceOf(ClickHouseTimeoutException.class);
            assertThat(seen[0]).as("rows before the cut").isPositive().isLessThan(RESULT_ROWS);
            assertThat(proxy.stats().accepted()).as("a query that had answered is never run again").isEqualTo(1);
            heals(client, 1);
        }
    }

    @Test
    void aResultResetMidBlockFailsTypedWithACorrectPrefix()
            throws Exception {
        String marker = marker();
        try (FaultProxy proxy = proxy(legacy);
             ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
            client.ping();
            FaultRule rule = proxy.on(Direction.SERVER_TO_CLIENT).afterMarker(Direction.CLIENT_TO_SERVER, marker)
                    .plusBytes(300_000).reset().once();
            long[] seen = {0};
            ClickHouseConnectionException e = throwsWithin(Duration.ofSeconds(2), ClickHouseConnectionException.class, () -> {
                try (QueryResult r = client.query(bigResult(marker))) {
                    readChecked(r, seen);
                }
            });
            fired(rule, "mid-block");
            assertThat(e).isNotInstanceOf(ClickHouseTimeoutException.class);
            // a reset drops what the client had not read yet, so even the first block may be lost
            assertThat(seen[0]).as("rows before the reset").isLessThan(RESULT_ROWS);
            heals(client, 1);
        }
    }

    @Test
    void aResultStalledMidBlockEndsWithTheQueryTimeout() throws Exception {
        String marker = marker();
        Duration timeout = Duration.ofMillis(800);
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
            client.ping();
            FaultRule rule = proxy.on(Direction.SERVER_TO_CLIENT).afterMarker(Direction.CLIENT_TO_SERVER, marker)
                    .plusBytes(300_000).stall().once();
            long[] seen = {0};
            ClickHouseTimeoutException e = throwsWithin(DeadlineTest.bound(timeout), ClickHouseTimeoutException.class, () -> {
                try (QueryResult r = client.query(bigResult(marker), QueryOptions.builder().timeout(timeout).build())) {
                    readChecked(r, seen);
                }
            });
            fired(rule, "mid-block");
            assertThat(e.deadline()).isEqualTo(Deadline.QUERY);
            assertThat(e.getMessage()).contains("did not confirm");
            assertThat(seen[0]).isPositive().isLessThan(RESULT_ROWS);
            heals(client, 1);
        }
    }

    @Test
    void aResultStalledMidBlockWithoutAQueryTimeoutEndsAtTheSocketTimeout() throws Exception {
        String marker = marker();
        Duration socketTimeout = Duration.ofMillis(700);
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).socketTimeout(socketTimeout).maxPoolSize(1).build()) {
            client.ping();
            FaultRule rule = proxy.on(Direction.SERVER_TO_CLIENT).afterMarker(Direction.CLIENT_TO_SERVER, marker)
                    .plusBytes(300_000).stall().once();
            long[] seen = {0};
            long start = System.nanoTime();
            ClickHouseTimeoutException e = catchThrowableOfType(() -> {
                try (QueryResult r = client.query(bigResult(marker))) {
                    readChecked(r, seen);
                }
            }, ClickHouseTimeoutException.class);
            FIGURES.operation();
            assertThat(e).isNotNull();
            FIGURES.exception(e);
            fired(rule, "mid-block");
            assertThat(e.deadline()).isEqualTo(Deadline.SOCKET);
            // the rows before the stall take their time to arrive; the silence after them is what is bounded
            assertThat(DeadlineTest.since(start)).isLessThan(DeadlineTest.bound(socketTimeout).plusSeconds(1));
            assertThat(seen[0]).isPositive().isLessThan(RESULT_ROWS);
            heals(client, 1);
        }
    }

    @Test
    void aDelayedResultArrivesWhole() throws Exception {
        String marker = marker();
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
            client.ping();
            FaultRule rule = proxy.on(Direction.SERVER_TO_CLIENT).afterMarker(Direction.CLIENT_TO_SERVER, marker)
                    .plusBytes(10_000).delay(Duration.ofMillis(20)).once();
            long[] seen = {0};
            FIGURES.operation();
            try (QueryResult r = client.query("SELECT number FROM numbers(200000) /* " + marker + " */",
                    QueryOptions.builder().timeout(Duration.ofSeconds(30)).build())) {
                readChecked(r, seen);
            }
            fired(rule, "mid-block");
            assertThat(seen[0]).isEqualTo(200_000);
            heals(client, 0);
        }
    }

    // ------------------------------------------------------------------ mid-insert

    static final int INSERT_ROWS = 20_000;
    static final long INSERT_SUM = (long) INSERT_ROWS * (INSERT_ROWS - 1) / 2;

    private static String dedupTable(ClickHouseTcpClient client, String prefix) {
        String table = TestClients.table(prefix);
        client.execute("CREATE TABLE " + table + " (x UInt64) ENGINE = MergeTree ORDER BY x "
                + "SETTINGS non_replicated_deduplication_window = 1000");
        return table;
    }

    private static List<Object[]> insertRows() {
        List<Object[]> rows = new ArrayList<>(INSERT_ROWS);
        for (long i = 0; i < INSERT_ROWS; i++) {
            rows.add(new Object[] {i});
        }
        return rows;
    }

    /** Safe-retry mode: 20 INSERTs of 1000 rows, one token each. */
    private static InsertOptions.Builder safeRetry(String table) {
        return InsertOptions.builder().deduplicationToken("token-" + table).tokenPerBlock(true).maxRowsPerBlock(1000);
    }

    /** The table holds every row exactly once; rows lost and duplicated go to the figures. */
    private static void exactlyOnce(ClickHouseServer server, String table) {
        String[] got = server.httpQuery("SELECT count(), sum(x), uniqExact(x) FROM " + table).trim().split("\t");
        long count = Long.parseLong(got[0]);
        long distinct = Long.parseLong(got[2]);
        FIGURES.rowsLost(INSERT_ROWS - distinct);
        FIGURES.rowsDuplicated(count - distinct);
        assertThat(got).as("count, sum, distinct rows").containsExactly(Integer.toString(INSERT_ROWS),
                Long.toString(INSERT_SUM), Integer.toString(INSERT_ROWS));
    }

    /**
     * An INSERT whose reused connection fails before the server answered it (its query cut on the way
     * there, or the answer cut at its first byte) is sent again on a new connection: no row had been
     * sent, so even without a token the rows end up in the table exactly once.
     */
    @Test
    void anInsertCutBeforeAnyRowWasSentOnAReusedConnectionIsSentAgainTransparently() throws Exception {
        for (Direction direction : Direction.values()) {
            try (FaultProxy proxy = proxy(modern.server());
                 ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
                // no deduplication at all: a block sent twice would be there twice
                String table = TestClients.table("fault_unanswered_ins");
                client.execute("CREATE TABLE " + table + " (x UInt64) ENGINE = MergeTree ORDER BY x"); // reused below
                try {
                    FaultRule rule = proxy.on(direction).afterMarker(Direction.CLIENT_TO_SERVER, table).truncate().once();
                    FIGURES.operation();
                    assertThat(client.insert(table, List.of("x"), insertRows(), InsertOptions.builder().maxRowsPerBlock(1000)
                            .build())).isEqualTo(INSERT_ROWS);
                    fired(rule, direction == Direction.CLIENT_TO_SERVER ? "query sent" : "insert header");
                    assertThat(proxy.stats().accepted()).as("sent again on a new connection").isEqualTo(2);
                    exactlyOnce(modern.server(), table);
                    heals(client, 1);
                } finally {
                    modern.server().httpQuery("DROP TABLE IF EXISTS " + table);
                }
            }
        }
    }

    @Test
    void anInsertStalledMidDataEndsWithTheQueryTimeoutAndSaysItMayHaveBeenApplied() throws Exception {
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
            String table = dedupTable(client, "fault_stall_ins");
            try {
                FaultRule rule = proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, table)
                        .plusBytes(50_000).stall().once();
                Duration timeout = Duration.ofMillis(800);
                ClickHouseTimeoutException e = throwsWithin(DeadlineTest.bound(timeout), ClickHouseTimeoutException.class,
                        () -> client.insert(table, List.of("x"), insertRows(), InsertOptions.builder().maxRowsPerBlock(1000)
                                .queryOptions(QueryOptions.builder().timeout(timeout).build()).build()));
                fired(rule, "mid-insert");
                assertThat(e.deadline()).isEqualTo(Deadline.QUERY);
                assertThat(e.insertMayHaveBeenApplied()).as("rows had been sent").isTrue();
                assertThat(e.deduplicationToken()).isNull();
                assertThat(e.getMessage()).contains("may have been applied").contains("no insert_deduplication_token");
                heals(client, 1);
            } finally {
                modern.server().httpQuery("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    @Test
    void anInsertCutMidDataIsRetriedWithItsTokenAndLeavesEveryRowOnce() throws Exception {
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
            String table = dedupTable(client, "fault_cut_ins");
            try {
                // about 40 KB into the inserts: in the fourth or fifth block's INSERT
                FaultRule rule = proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, table)
                        .plusBytes(40_000).truncate().once();
                FIGURES.operation();
                long sent = client.insert(table, List.of("x"), insertRows(), safeRetry(table).maxAttempts(3).build());
                fired(rule, "mid-insert");
                assertThat(sent).isEqualTo(INSERT_ROWS);
                assertThat(proxy.stats().accepted()).as("the second attempt ran on a new connection").isEqualTo(2);
                exactlyOnce(modern.server(), table);
                heals(client, 1);
            } finally {
                modern.server().httpQuery("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    @Test
    void anInsertWhoseConfirmationsAreCutIsRetriedWithItsTokenAndLeavesEveryRowOnce() throws Exception {
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
            String table = dedupTable(client, "fault_ack_ins");
            try {
                // a few KB into the server's answers to the inserts: some block is committed but never confirmed
                FaultRule rule = proxy.on(Direction.SERVER_TO_CLIENT).afterMarker(Direction.CLIENT_TO_SERVER, table)
                        .plusBytes(6_000).truncate().once();
                FIGURES.operation();
                long sent = client.insert(table, List.of("x"), insertRows(), safeRetry(table).maxAttempts(3).build());
                fired(rule, "insert confirmation");
                assertThat(sent).isEqualTo(INSERT_ROWS);
                exactlyOnce(modern.server(), table);
                heals(client, 1);
            } finally {
                modern.server().httpQuery("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    @Test
    void anInsertResetMidDataFailsTypedNamingItsTokenAndItsRetryLeavesEveryRowOnce() throws Exception {
        String table;
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
            table = dedupTable(client, "fault_reset_ins");
            FaultRule rule = proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, table)
                    .plusBytes(40_000).reset().once();
            InsertOptions options = safeRetry(table).build();
            ClickHouseConnectionException e = throwsWithin(Duration.ofSeconds(5), ClickHouseConnectionException.class,
                    () -> client.insert(table, List.of("x"), insertRows(), options));
            fired(rule, "mid-insert");
            assertThat(e.deduplicationToken()).isEqualTo("token-" + table);
            assertThat(e.insertMayHaveBeenApplied()).as("blocks before the reset were committed").isTrue();
            // a reset ends the 26.7 server: make sure it is down, then bring it back on the same ports
            modern.kill();
            FIGURES.fault("server restart");
            modern.start();
            FIGURES.operation();
            assertThat(client.insert(table, List.of("x"), insertRows(), options)).isEqualTo(INSERT_ROWS);
            exactlyOnce(modern.server(), table);
            assertThat(client.poolStats().active()).isZero();
        }
        modern.server().httpQuery("DROP TABLE IF EXISTS " + table);
    }

    @Test
    void aRetriedInsertWhoseLastAttemptFailsBeforeSendingStillSaysAnEarlierAttemptMayHaveAppliedIt() throws Exception {
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
            String table = dedupTable(client, "fault_attempts");
            try {
                // the first attempt is cut after some blocks were committed; the second cannot even connect
                FaultRule cut = proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, table)
                        .plusBytes(40_000).truncate().onConnection(1);
                FaultRule refused = proxy.on(Direction.SERVER_TO_CLIENT).atOffset(0).truncate().onConnection(2);
                ClickHouseConnectionException e = throwsWithin(Duration.ofSeconds(5), ClickHouseConnectionException.class,
                        () -> client.insert(table, List.of("x"), insertRows(), safeRetry(table).maxAttempts(2).build()));
                fired(cut, "mid-insert");
                fired(refused, "handshake");
                long committed = Long.parseLong(modern.server().httpQuery("SELECT count() FROM " + table).trim());
                assertThat(committed).as("rows the first attempt committed").isPositive();
                assertThat(e.insertMayHaveBeenApplied()).as("the first attempt applied it in part: " + e).isTrue();
                assertThat(e.deduplicationToken()).isEqualTo("token-" + table);
                FIGURES.operation();
                assertThat(client.insert(table, List.of("x"), insertRows(), safeRetry(table).build())).isEqualTo(INSERT_ROWS);
                exactlyOnce(modern.server(), table);
                heals(client, 1);
            } finally {
                modern.server().httpQuery("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    @Test
    void anInsertResetMidDataFailsTypedOnTheLegacyServer()
            throws Exception {
        String table = TestClients.table("fault_reset_legacy");
        legacy.httpQuery("CREATE TABLE " + table + " (x UInt64) ENGINE = MergeTree ORDER BY x");
        try (FaultProxy proxy = proxy(legacy);
             ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
            client.ping();
            FaultRule rule = proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, table)
                    .plusBytes(40_000).reset().once();
            ClickHouseConnectionException e = throwsWithin(Duration.ofSeconds(5), ClickHouseConnectionException.class,
                    () -> client.insert(table, List.of("x"), insertRows(), InsertOptions.builder().maxRowsPerBlock(1000)
                            .build()));
            fired(rule, "mid-insert");
            assertThat(e.insertMayHaveBeenApplied()).isTrue();
            assertThat(e.getMessage()).contains("no insert_deduplication_token");
            heals(client, 1);
        } finally {
            legacy.httpQuery("DROP TABLE IF EXISTS " + table);
        }
    }

    // ------------------------------------------------------------------ during a cancel

    @Test
    void aCancelWhoseAnswerIsStalledEndsTheStreamAtTheSocketTimeoutAndDropsTheConnection() throws Exception {
        String marker = marker();
        Duration socketTimeout = Duration.ofMillis(700);
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).socketTimeout(socketTimeout).maxPoolSize(1).build()) {
            try (QueryResult r = client.query("SELECT number FROM numbers(100000000) /* " + marker + " */")) {
                assertThat(r.next()).isNotNull();
                proxy.stallAll(Direction.SERVER_TO_CLIENT); // what answers the Cancel never arrives
                FIGURES.fault("during cancel");
                r.cancel();
                long start = System.nanoTime();
                FIGURES.operation();
                Block b;
                while ((b = r.next()) != null) {
                    assertThat(b.rowCount()).isPositive(); // what was in flight before the stall
                }
                assertThat(DeadlineTest.since(start)).isLessThan(DeadlineTest.bound(socketTimeout));
                assertThat(r.isCancelled()).isTrue();
            }
            heals(client, 1);
        }
    }

    @Test
    void aQueryTimeoutWhoseCancelIsNeverAnsweredEndsWithinItsBound() throws Exception {
        String marker = marker();
        Duration timeout = Duration.ofMillis(600);
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).maxPoolSize(1).build()) {
            long[] seen = {0};
            ClickHouseTimeoutException e = throwsWithin(DeadlineTest.bound(timeout), ClickHouseTimeoutException.class, () -> {
                try (QueryResult r = client.query("SELECT number, sleepEachRow(0.01) FROM numbers(1000) /* " + marker
                        + " */ SETTINGS max_block_size = 1", QueryOptions.builder().timeout(timeout).build())) {
                    assertThat(r.next()).isNotNull();
                    seen[0] = 1;
                    proxy.stallAll(Direction.SERVER_TO_CLIENT);
                    FIGURES.fault("during cancel");
                    readChecked(r, seen);
                }
            });
            assertThat(e.deadline()).isEqualTo(Deadline.QUERY);
            assertThat(e.getMessage()).contains("did not confirm");
            heals(client, 1);
        }
    }

    @Test
    void closingAResultWhoseCancelIsNeverAnsweredReturnsWithinTheSocketTimeout() throws Exception {
        String marker = marker();
        Duration socketTimeout = Duration.ofMillis(700);
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).socketTimeout(socketTimeout).maxPoolSize(1).build()) {
            QueryResult r = client.query("SELECT number FROM numbers(100000000) /* " + marker + " */");
            assertThat(r.next()).isNotNull();
            proxy.stallAll(Direction.SERVER_TO_CLIENT);
            FIGURES.fault("during cancel");
            FIGURES.operation();
            long start = System.nanoTime();
            r.close(); // sends Cancel, drains: nothing comes
            assertThat(DeadlineTest.since(start)).isLessThan(DeadlineTest.bound(socketTimeout));
            heals(client, 1);
        }
    }

    // ------------------------------------------------------------------ over TLS (18.16's secure port)

    static FaultProxy tlsProxy(ClickHouseServer legacy) throws java.io.IOException {
        return new FaultProxy(legacy.host(), legacy.tlsPort());
    }

    static ClickHouseTcpClient.Builder viaTls(FaultProxy proxy, ClickHouseServer legacy) {
        java.nio.file.Path ca = legacy.serverCertificatePem().orElseThrow().getParent().resolve("ca.crt");
        return via(proxy).tls(TlsConfig.builder().trustedCertificates(ca).serverName("localhost").build());
    }

    @Test
    void aStalledTlsHandshakeIsAHandshakeTimeout()
            throws Exception {
        try (FaultProxy proxy = tlsProxy(legacy);
             ClickHouseTcpClient client = viaTls(proxy, legacy).handshakeTimeout(Duration.ofMillis(500)).build()) {
            FaultRule rule = proxy.on(Direction.SERVER_TO_CLIENT).atOffset(0).stall().onNextConnection();
            ClickHouseTimeoutException e = throwsWithin(DeadlineTest.bound(Duration.ofMillis(500)),
                    ClickHouseTimeoutException.class, () -> client.queryRows("SELECT 1"));
            fired(rule, "handshake");
            assertThat(e.deadline()).isEqualTo(Deadline.HANDSHAKE);
            assertThat(e.getMessage()).contains("TLS handshake");
            heals(client, 0);
        }
    }

    @Test
    void aTlsResultStalledMidBlockEndsWithTheQueryTimeout()
            throws Exception {
        Duration timeout = Duration.ofMillis(800);
        try (FaultProxy proxy = tlsProxy(legacy);
             ClickHouseTcpClient client = viaTls(proxy, legacy).maxPoolSize(1).build()) {
            client.ping();
            long before = proxy.stats().bytes(Direction.SERVER_TO_CLIENT);
            // the SQL is encrypted: the fault counts from the bytes the server had sent before the query
            FaultRule rule = proxy.on(Direction.SERVER_TO_CLIENT).atOffset(before + 300_000).stall().once();
            long[] seen = {0};
            ClickHouseTimeoutException e = throwsWithin(DeadlineTest.bound(timeout), ClickHouseTimeoutException.class, () -> {
                try (QueryResult r = client.query(bigResult(marker()), QueryOptions.builder().timeout(timeout).build())) {
                    readChecked(r, seen);
                }
            });
            fired(rule, "mid-block");
            assertThat(e.deadline()).isEqualTo(Deadline.QUERY);
            assertThat(seen[0]).isPositive().isLessThan(RESULT_ROWS);
            heals(client, 1);
        }
    }

    @Test
    void aTlsResultResetMidBlockFailsTyped()
            throws Exception {
        try (FaultProxy proxy = tlsProxy(legacy);
             ClickHouseTcpClient client = viaTls(proxy, legacy).maxPoolSize(1).build()) {
            client.ping();
            long before = proxy.stats().bytes(Direction.SERVER_TO_CLIENT);
            FaultRule rule = proxy.on(Direction.SERVER_TO_CLIENT).atOffset(before + 300_000).reset().once();
            long[] seen = {0};
            ClickHouseConnectionException e = throwsWithin(Duration.ofSeconds(2), ClickHouseConnectionException.class, () -> {
                try (QueryResult r = client.query(bigResult(marker()))) {
                    readChecked(r, seen);
                }
            });
            fired(rule, "mid-block");
            assertThat(e).isNotInstanceOf(ClickHouseTimeoutException.class);
            // a reset drops what the client had not read yet, so even the first block may be lost
            assertThat(seen[0]).isLessThan(RESULT_ROWS);
            heals(client, 1);
        }
    }

    @Test
    void aTlsInsertStalledMidDataEndsWithTheQueryTimeout()
            throws Exception {
        String table = TestClients.table("fault_tls_ins");
        legacy.httpQuery("CREATE TABLE " + table + " (x UInt64) ENGINE = MergeTree ORDER BY x");
        Duration timeout = Duration.ofMillis(800);
        try (FaultProxy proxy = tlsProxy(legacy);
             ClickHouseTcpClient client = viaTls(proxy, legacy).maxPoolSize(1).build()) {
            client.ping();
            long before = proxy.stats().bytes(Direction.CLIENT_TO_SERVER);
            FaultRule rule = proxy.on(Direction.CLIENT_TO_SERVER).atOffset(before + 50_000).stall().once();
            ClickHouseTimeoutException e = throwsWithin(DeadlineTest.bound(timeout), ClickHouseTimeoutException.class,
                    () -> client.insert(table, List.of("x"), insertRows(), InsertOptions.builder().maxRowsPerBlock(1000)
                            .queryOptions(QueryOptions.builder().timeout(timeout).build()).build()));
            fired(rule, "mid-insert");
            assertThat(e.deadline()).isEqualTo(Deadline.QUERY);
            assertThat(e.insertMayHaveBeenApplied()).isTrue();
            heals(client, 1);
        } finally {
            legacy.httpQuery("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void idleTlsConnectionsResetOrEndedAreReplacedWithoutAFailure() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try (FaultProxy proxy = tlsProxy(legacy);
             ClickHouseTcpClient client = viaTls(proxy, legacy).maxPoolSize(4).build()) {
            warmFour(client, threads);
            proxy.resetAll();
            // the resets take effect as the proxy's threads let go of the sockets: wait for them, so the
            // pool is warmed on new connections (a reset landing during a query is the test below)
            proxy.awaitStats(st -> st.open() == 0, Duration.ofSeconds(10));
            warmFour(client, threads);
            proxy.dropAllGracefully();
            for (int i = 0; i < 8; i++) {
                FIGURES.fault("idle in pool");
            }
            eightQueriesSucceed(client, threads);
            PoolStats s = client.poolStats();
            assertThat(s.destroyed()).as("the eight ended connections, and no other: %s", s).isEqualTo(8);
            assertThat(s.active()).isZero();
        } finally {
            threads.shutdownNow();
        }
    }

    // ------------------------------------------------------------------ idle in the pool

    /** Four connections at once, so the pool holds four idle ones afterwards. */
    private static void warmFour(ClickHouseTcpClient client, ExecutorService threads) throws Exception {
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
        }
        assertThat(client.poolStats().idle()).isEqualTo(4);
    }

    /** Eight queries at once, every one must succeed. */
    static void eightQueriesSucceed(ClickHouseTcpClient client, ExecutorService threads) throws Exception {
        List<CompletableFuture<Object>> results = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            int n = i;
            results.add(CompletableFuture.supplyAsync(() -> client.queryRows("SELECT toUInt64(" + n + ")").get(0)[0],
                    threads));
        }
        for (int i = 0; i < 8; i++) {
            FIGURES.operation();
            assertThat(results.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(BigInteger.valueOf(i));
        }
    }

    @Test
    void idlePooledConnectionsEndedGracefullyAreReplacedWithoutAFailure() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try (FaultProxy proxy = proxy(modern.server());
             ClickHouseTcpClient client = via(proxy).maxPoolSize(4).build()) {
            warmFour(client, threads);
            proxy.dropAllGracefully();
            for (int i = 0; i < 4; i++) {
                FIGURES.fault("idle in pool");
            }
            eightQueriesSucceed(client, threads);
            PoolStats s = client.poolStats();
            assertThat(s.destroyed()).as("the four ended connections, and no other: %s", s).isEqualTo(4);
            assertThat(s.active()).isZero();
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void idlePooledConnectionsResetAreReplacedWithoutAFailure()
            throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try (FaultProxy proxy = proxy(legacy);
             ClickHouseTcpClient client = via(proxy).maxPoolSize(4).build()) {
            warmFour(client, threads);
            proxy.resetAll();
            for (int i = 0; i < 4; i++) {
                FIGURES.fault("idle in pool");
            }
            eightQueriesSucceed(client, threads);
            PoolStats s = client.poolStats();
            assertThat(s.destroyed()).as("the four reset connections, and no other: %s", s).isEqualTo(4);
            assertThat(s.active()).isZero();
        } finally {
            threads.shutdownNow();
        }
    }
}
