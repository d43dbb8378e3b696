package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServer.Kind;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.FaultProxy;
import dev.clickhousetcp.testsupport.PrivateServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many threads share one pool (of 1, 2 and 8 connections) and run a seeded random mix of operations
 * whose answers are known: checksummed aggregates, multi-block streams checked row by row, query
 * timeouts that always fire and ones that never do, cancels of another thread's running result, early
 * breaks out of result loops, streams of objects closed early, sessions (temporary table and
 * {@code SET}), inserts with and without deduplication tokens (some deliberately sent twice, some
 * timed out and retried) and server errors.
 *
 * <p>The invariant on every operation: its result is complete and correct, or it threw; a result
 * never ends early without an exception unless its own {@link QueryResult#cancel()} stopped it; and
 * an operation only ever fails with the exception its own timeout or error explains, never because
 * of another thread's operation. Afterwards no connection is lent or leaked (the pool's counters add
 * up, and the server's {@code TCPConnection} metric matches the pool, then drops to zero once the
 * client is closed), session state never reached a pooled query, and each insert's rows are in the
 * table exactly once.
 *
 * <p>The server is a private one, so the connection count on it is the client's alone. System
 * properties: {@code stress.seed} (default random; printed with every violation and in the summary),
 * {@code stress.threads} (16), {@code stress.opsPerThread} (per pool size, see the tests) and
 * {@code stress.duration} (an ISO-8601 duration per pool size, e.g. {@code PT10M}: run operations
 * until it has passed instead of a fixed number; used by {@code scripts/soak.sh}).
 */
@ClickHouseTest
class ConcurrencyStressTest {
    static final long SEED = Long.getLong("stress.seed", new java.security.SecureRandom().nextLong());
    static final int THREADS = Integer.getInteger("stress.threads", 16);
    static final Duration DURATION = Duration.parse(System.getProperty("stress.duration", "PT0S"));
    /** Upper bound for one pool size's run in the default (fixed operation count) mode. */
    static final Duration RUN_LIMIT = Duration.ofMinutes(3);
    /** A timeout that never fires: far beyond any operation of the mix, waiting for the pool included. */
    static final Duration NEVER = Duration.ofMinutes(10);

    static final ReliabilityFigures FIGURES = new ReliabilityFigures(ConcurrencyStressTest.class);
    static PrivateServer server;

    enum Op {
        SUM(12), ROWS(6), STREAM(10), TIMEOUT_CONFIRMED(4), TIMEOUT_UNCONFIRMED(2), CANCEL_TARGET(4),
        CANCELLER(8), EARLY_BREAK(6), MAPPED_STREAM(6), SESSION(5), INSERT(6), INSERT_TOKEN(6),
        INSERT_TIMEOUT_RETRY(3), SERVER_ERROR(5);

        final int weight;

        Op(int weight) {
            this.weight = weight;
        }

        static Op pick(Random r) {
            int total = 0;
            for (Op op : values()) {
                total += op.weight;
            }
            int x = r.nextInt(total);
            for (Op op : values()) {
                x -= op.weight;
                if (x < 0) {
                    return op;
                }
            }
            throw new AssertionError();
        }
    }

    /** An operation's result contradicts what it must be. */
    static final class Violation extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Violation(String message) {
            super(message, null, false, false);
        }
    }

    record Pair(long n, String s) {
    }

    @BeforeAll
    static void startServer() {
        server = ClickHouseServers.startPrivate(Kind.MODERN);
        FIGURES.note("seed", SEED);
        FIGURES.note("threads", THREADS);
    }

    @AfterAll
    static void stopServer() {
        FIGURES.report();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void poolOfOne() throws Exception {
        new Run(1, Integer.getInteger("stress.opsPerThread", 10)).execute();
    }

    @Test
    void poolOfTwo() throws Exception {
        new Run(2, Integer.getInteger("stress.opsPerThread", 14)).execute();
    }

    @Test
    void poolOfEight() throws Exception {
        new Run(8, Integer.getInteger("stress.opsPerThread", 24)).execute();
    }

    /** The same mix behind a network that holds back every chunk 1 ms in either direction. */
    @Test
    void poolOfEightBehindALaggingNetwork() throws Exception {
        try (FaultProxy proxy = FaultProxy.forNativePort(server.server())) {
            proxy.on(FaultProxy.Direction.SERVER_TO_CLIENT).atOffset(0).delay(Duration.ofMillis(1)).onEveryConnection();
            proxy.on(FaultProxy.Direction.CLIENT_TO_SERVER).atOffset(0).delay(Duration.ofMillis(1)).onEveryConnection();
            new Run(8, Integer.getInteger("stress.opsPerThread", 12), proxy.host(), proxy.port(), " (lagging network)").execute();
            FIGURES.fault("network delay (connections)", proxy.stats().accepted());
        }
    }

    static long serverConnections(ClickHouseServer s) {
        return Long.parseLong(s.httpQuery("SELECT value FROM system.metrics WHERE metric = 'TCPConnection'").trim());
    }

    /** One pool size's run: its client, its insert table, its expectations and its violations. */
    static final class Run {
        final int poolSize;
        final String name;
        final int opsPerThread;
        final ClickHouseServer ch = server.server();
        final String table;
        final ClickHouseTcpClient client;
        final List<String> violations = Collections.synchronizedList(new ArrayList<>());
        final Map<Op, AtomicLong> ran = Collections.synchronizedMap(new EnumMap<>(Op.class));
        final AtomicLong nextId = new AtomicLong();
        /** Per insert operation: rows and sum of x it must leave in the table exactly once. */
        final Map<Long, long[]> expectedInserts = new ConcurrentHashMap<>();
        /** Insert operations whose outcome is unknown (they violated already); not verified. */
        final java.util.Set<Long> unknownInserts = ConcurrentHashMap.newKeySet();
        /** Results of running CANCEL_TARGET operations, for CANCELLER operations of other threads. */
        final BlockingQueue<QueryResult> targets = new LinkedBlockingQueue<>();
        final AtomicLong cancelsSent = new AtomicLong();
        final AtomicLong cancelledEarly = new AtomicLong();
        final String defaultBlockSize;
        final long seed;

        Run(int poolSize, int opsPerThread) {
            this(poolSize, opsPerThread, server.server().host(), server.server().tcpPort(), "");
        }

        /**
         * A run whose client connects to {@code host:port} (the server, or a proxy in front of it);
         * {@code variant} names it and tells its random sequences from those of runs with the same pool size.
         */
        Run(int poolSize, int opsPerThread, String host, int port, String variant) {
            this.name = "pool " + poolSize + variant;
            this.poolSize = poolSize;
            this.opsPerThread = opsPerThread;
            this.seed = SEED ^ (poolSize * 0x9E3779B97F4A7C15L) ^ (variant.hashCode() * 0xC2B2AE3D27D4EB4FL);
            this.table = TestClients.table("stress_" + poolSize);
            this.client = ClickHouseTcpClient.builder().host(host).port(port)
                    .maxPoolSize(poolSize).acquireTimeout(NEVER).connectTimeout(Duration.ofSeconds(10))
                    .socketTimeout(Duration.ofSeconds(60)).build();
            client.execute("CREATE TABLE " + table + " (op UInt64, x UInt64) ENGINE = MergeTree ORDER BY (op, x) "
                    + "SETTINGS non_replicated_deduplication_window = 100000");
            this.defaultBlockSize = client.queryRows("SELECT toString(getSetting('max_block_size'))").get(0)[0].toString();
        }

        void execute() throws Exception {
            ExecutorService threads = Executors.newFixedThreadPool(THREADS);
            long until = DURATION.isZero() ? 0 : System.nanoTime() + DURATION.toNanos();
            List<Future<?>> workers = new ArrayList<>();
            try {
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    workers.add(threads.submit(() -> work(thread, until)));
                }
                long limit = System.nanoTime() + (DURATION.isZero() ? RUN_LIMIT : DURATION.plus(RUN_LIMIT)).toNanos();
                for (Future<?> f : workers) {
                    try {
                        f.get(Math.max(1, limit - System.nanoTime()), TimeUnit.NANOSECONDS);
                    } catch (TimeoutException e) {
                        violations.add("seed=" + SEED + " run='" + name + "'" + ": the operations did not finish within "
                                + RUN_LIMIT + "; threads:\n" + threadDump());
                        break;
                    }
                }
            } finally {
                threads.shutdownNow();
                threads.awaitTermination(30, TimeUnit.SECONDS);
            }
            try {
                verifyPool();
                verifyInserts();
                System.out.println(name + ": " + ran + ", cancels sent " + cancelsSent + ", results ended "
                        + "by a cancel " + cancelledEarly + ", " + client.poolStats());
            } finally {
                client.close();
            }
            verifyClosed();
            ch.httpQuery("DROP TABLE IF EXISTS " + table);
            assertThat(violations).as("violations (seed %d, %s; rerun with -Dstress.seed=%d)", SEED, name, SEED)
                    .isEmpty();
        }

        private void work(int thread, long until) {
            Random r = new Random(seed + thread * 1_000_003L);
            for (int i = 0; until != 0 ? System.nanoTime() - until < 0 : i < opsPerThread; i++) {
                Op op = Op.pick(r);
                long opSeed = r.nextLong();
                ran.computeIfAbsent(op, k -> new AtomicLong()).incrementAndGet();
                FIGURES.operation();
                String where = "seed=" + SEED + " run='" + name + "'" + " thread=" + thread + " op#" + i + " " + op;
                try {
                    run(op, new Random(opSeed));
                } catch (Violation v) {
                    FIGURES.wrongResult();
                    violations.add(where + ": " + v.getMessage());
                } catch (RuntimeException | AssertionError e) {
                    FIGURES.exception(e);
                    violations.add(where + " failed, though nothing it did explains it: " + stackTrace(e));
                }
                if (Thread.currentThread().isInterrupted()) {
                    violations.add(where + " left the thread's interrupt flag set");
                    return;
                }
            }
        }

        private void run(Op op, Random r) {
            switch (op) {
                case SUM -> sum(r);
                case ROWS -> rows(r);
                case STREAM -> stream(r);
                case TIMEOUT_CONFIRMED -> timeoutConfirmed(r);
                case TIMEOUT_UNCONFIRMED -> timeoutUnconfirmed(r);
                case CANCEL_TARGET -> cancelTarget(r);
                case CANCELLER -> canceller(r);
                case EARLY_BREAK -> earlyBreak(r);
                case MAPPED_STREAM -> mappedStream(r);
                case SESSION -> session(r);
                case INSERT -> insert(r);
                case INSERT_TOKEN -> insertWithToken(r);
                case INSERT_TIMEOUT_RETRY -> insertTimeoutRetry(r);
                case SERVER_ERROR -> serverError(r);
            }
        }

        // ------------------------------------------------------------------ reads

        /** An aggregate with a known checksum; also checks that no session's SET reached this pooled connection. */
        private void sum(Random r) {
            long n = 1 + r.nextInt(2_000_000);
            QueryOptions options = r.nextBoolean() ? QueryOptions.builder().timeout(NEVER).build() : QueryOptions.DEFAULT;
            List<Object[]> rows = client.query("SELECT sum(number), count(), toString(getSetting('max_block_size')) "
                    + "FROM numbers(" + n + ")", options, (row, i) -> new Object[] {row.getLong(0), row.getLong(1),
                    row.getString(2)});
            check(rows.size() == 1, "expected one row, got " + rows.size());
            check((long) rows.get(0)[0] == n * (n - 1) / 2 && (long) rows.get(0)[1] == n,
                    "sum/count of numbers(" + n + ") = " + rows.get(0)[0] + "/" + rows.get(0)[1]);
            check(defaultBlockSize.equals(rows.get(0)[2]), "a pooled query saw max_block_size = " + rows.get(0)[2]
                    + " (a session's SET leaked into the pool; default " + defaultBlockSize + ")");
        }

        private void rows(Random r) {
            long v = r.nextInt(Integer.MAX_VALUE);
            Object got = client.queryRows("SELECT toUInt64(" + v + ")").get(0)[0];
            check(BigInteger.valueOf(v).equals(got), "SELECT toUInt64(" + v + ") returned " + got);
        }

        /** A multi-block stream checked row by row; must end only with every row. */
        private void stream(Random r) {
            long start = r.nextInt(1_000_000);
            int n = 10_000 + r.nextInt(200_000);
            int blockSize = 1000 + r.nextInt(20_000);
            QueryOptions options = r.nextBoolean() ? QueryOptions.builder().timeout(NEVER).build() : QueryOptions.DEFAULT;
            try (QueryResult result = client.query("SELECT number, toString(number) FROM numbers(" + start + ", " + n
                    + ") SETTINGS max_block_size = " + blockSize, options)) {
                long seen = checkedRows(result, start, Long.MAX_VALUE, true);
                check(seen == n, "the stream ended without an exception after " + seen + " of " + n + " rows");
                check(!result.isCancelled(), "a result nobody cancelled says it was cancelled");
            }
        }

        /**
         * Reads blocks whose first column is {@code number} (and, with {@code text}, whose second is
         * {@code toString(number)}) and checks every row continues from {@code start}; up to {@code maxBlocks}.
         */
        private long checkedRows(QueryResult result, long start, long maxBlocks, boolean text) {
            long seen = 0;
            long blocks = 0;
            Block b;
            while (blocks < maxBlocks && (b = result.next()) != null) {
                blocks++;
                Column numbers = b.column(0);
                Column texts = text ? b.column(1) : null;
                for (int i = 0; i < b.rowCount(); i++) {
                    long expected = start + seen;
                    long got = numbers.getLong(i);
                    if (got != expected || texts != null && !Long.toString(expected).equals(texts.getString(i))) {
                        throw new Violation("row " + seen + " is " + got + (texts != null ? "/" + texts.getString(i) : "")
                                + ", expected " + expected);
                    }
                    seen++;
                }
            }
            return seen;
        }

        /**
         * A query the server stops at once when asked (one row every 20 ms): a 100-200 ms timeout must end
         * it with a query-timeout exception, never with its rows cut short silently.
         */
        private void timeoutConfirmed(Random r) {
            Duration timeout = Duration.ofMillis(100 + r.nextInt(100));
            long seen = -1;
            try (QueryResult result = client.query("SELECT number, sleepEachRow(0.02) FROM numbers(50) "
                    + "SETTINGS max_block_size = 1", QueryOptions.builder().timeout(timeout).build())) {
                seen = checkedRows(result, 0, Long.MAX_VALUE, false);
            } catch (ClickHouseTimeoutException e) {
                expectQueryTimeout(e, timeout);
                return;
            }
            throw new Violation("a 1 s query with a " + timeout + " timeout returned " + seen + " rows without an exception");
        }

        /** A query the server cannot stop (sleep): the timeout must fire anyway, and the connection is dropped. */
        private void timeoutUnconfirmed(Random r) {
            Duration timeout = Duration.ofMillis(100 + r.nextInt(100));
            try {
                client.execute("SELECT sleep(0.5)", QueryOptions.builder().timeout(timeout).build());
            } catch (ClickHouseTimeoutException e) {
                expectQueryTimeout(e, timeout);
                return;
            }
            throw new Violation("SELECT sleep(0.5) with a " + timeout + " timeout ended without an exception");
        }

        private static void expectQueryTimeout(ClickHouseTimeoutException e, Duration timeout) {
            FIGURES.exception(e);
            FIGURES.fault("query timeout");
            check(e.deadline() == Deadline.QUERY && timeout.equals(e.timeout()),
                    "the timeout names " + e.deadline() + " " + e.timeout() + " instead of QUERY " + timeout + ": " + e);
        }

        /**
         * A slow stream that another thread cancels (see {@link #canceller}): it ends with every row, or
         * early without an exception only because it was cancelled; rows are correct either way.
         */
        private void cancelTarget(Random r) {
            int n = 200;
            int registerAfter = 1 + r.nextInt(5);
            try (QueryResult result = client.query("SELECT number, sleepEachRow(0.005) FROM numbers(" + n + ") "
                    + "SETTINGS max_block_size = 1")) {
                long seen = checkedRows(result, 0, registerAfter, false);
                targets.add(result);
                seen += checkedRows(result, seen, Long.MAX_VALUE, false);
                if (seen < n) {
                    check(result.isCancelled(), "the stream ended without an exception after " + seen + " of " + n
                            + " rows, and it was not cancelled");
                    cancelledEarly.incrementAndGet();
                }
                if (r.nextBoolean()) {
                    targets.remove(result); // else a canceller cancels it after it ended: that must change nothing
                }
            }
        }

        /** Cancels another thread's running (or just finished) result; uses no connection. */
        private void canceller(Random r) {
            try {
                QueryResult target = targets.poll(200 + r.nextInt(800), TimeUnit.MILLISECONDS);
                if (target != null) {
                    target.cancel();
                    cancelsSent.incrementAndGet();
                    FIGURES.fault("cancel from another thread");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Breaks out of a long stream after a few blocks; closing it cancels and drains the rest. */
        private void earlyBreak(Random r) {
            long start = r.nextInt(1_000_000);
            int blocks = 1 + r.nextInt(5);
            int blockSize = 1000 + r.nextInt(10_000);
            try (QueryResult result = client.query("SELECT number FROM numbers(" + start + ", 50000000) SETTINGS "
                    + "max_block_size = " + blockSize)) {
                int i = 0;
                long seen = 0;
                for (Block b : result) {
                    for (int row = 0; row < b.rowCount(); row++) {
                        check(b.column(0).getLong(row) == start + seen, "row " + seen + " is " + b.column(0).getLong(row));
                        seen++;
                    }
                    if (++i == blocks) {
                        break;
                    }
                }
                check(i == blocks, "the stream ended after " + i + " blocks without an exception");
                FIGURES.fault("early close");
            }
        }

        /** A stream of records, closed early or read to its end. */
        private void mappedStream(Random r) {
            long start = r.nextInt(1_000_000);
            int n = 1000 + r.nextInt(100_000);
            boolean early = r.nextInt(3) > 0;
            long limit = early ? 1 + r.nextInt(n) : Long.MAX_VALUE;
            long[] seen = {0};
            if (early) {
                FIGURES.fault("early close");
            }
            try (Stream<Pair> rows = client.stream("SELECT number AS n, toString(number) AS s FROM numbers(" + start
                    + ", " + n + ") SETTINGS max_block_size = " + (500 + r.nextInt(10_000)), Pair.class)) {
                rows.limit(limit).forEach(p -> {
                    long expected = start + seen[0]++;
                    if (p.n() != expected || !Long.toString(expected).equals(p.s())) {
                        throw new Violation("row " + (seen[0] - 1) + " is " + p + ", expected " + expected);
                    }
                });
            }
            check(seen[0] == Math.min(limit, n), "the stream gave " + seen[0] + " rows, expected " + Math.min(limit, n));
        }

        /** A session: a temporary table and a SET persist across its calls, and never reach pooled queries. */
        private void session(Random r) {
            long id = nextId.incrementAndGet();
            int blockSize = 1000 + r.nextInt(50_000);
            int n = 1 + r.nextInt(5000);
            String tmp = "tmp_" + id;
            try (ClickHouseSession s = client.openSession()) {
                s.execute("CREATE TEMPORARY TABLE " + tmp + " (x UInt64)");
                s.execute("SET max_block_size = " + blockSize);
                List<Object[]> rows = new ArrayList<>();
                for (long i = 0; i < n; i++) {
                    rows.add(new Object[] {i});
                }
                check(s.insert(tmp, List.of("x"), rows) == n, "the session insert reported another row count");
                s.execute("INSERT INTO " + tmp + " SELECT number FROM numbers(" + n + ")");
                List<Object[]> got = s.query("SELECT count(), sum(x), toString(getSetting('max_block_size')) FROM " + tmp,
                        QueryOptions.DEFAULT, (row, i) -> new Object[] {row.getLong(0), row.getLong(1), row.getString(2)});
                check((long) got.get(0)[0] == 2L * n && (long) got.get(0)[1] == (long) n * (n - 1),
                        "session table has count/sum " + got.get(0)[0] + "/" + got.get(0)[1] + ", expected " + 2 * n + "/"
                                + (long) n * (n - 1));
                check(Integer.toString(blockSize).equals(got.get(0)[2]), "the session's SET max_block_size = "
                        + blockSize + " reads back as " + got.get(0)[2]);
            }
        }

        // ------------------------------------------------------------------ inserts

        private List<Object[]> insertRows(long op, int n) {
            List<Object[]> rows = new ArrayList<>(n);
            for (long i = 0; i < n; i++) {
                rows.add(new Object[] {op, i});
            }
            return rows;
        }

        private void expectInsert(long op, int n) {
            expectedInserts.put(op, new long[] {n, (long) n * (n - 1) / 2});
        }

        /** A plain insert (no token): it must succeed, once. */
        private void insert(Random r) {
            long op = nextId.incrementAndGet();
            int n = 1 + r.nextInt(3000);
            unknownInserts.add(op);
            long sent = client.insert(table, List.of("op", "x"), insertRows(op, n));
            check(sent == n, "insert reported " + sent + " rows, expected " + n);
            unknownInserts.remove(op);
            expectInsert(op, n);
        }

        /** An insert with a token, sent twice as a retry would: the table must hold its rows once. */
        private void insertWithToken(Random r) {
            long op = nextId.incrementAndGet();
            int n = 1 + r.nextInt(3000);
            InsertOptions.Builder b = InsertOptions.builder().deduplicationToken(table + "-" + op);
            if (r.nextBoolean()) {
                b.tokenPerBlock(true).maxRowsPerBlock(100 + r.nextInt(1000)).maxAttempts(3);
            }
            InsertOptions options = b.build();
            List<Object[]> rows = insertRows(op, n);
            unknownInserts.add(op);
            check(client.insert(table, List.of("op", "x"), rows, options) == n, "first insert: wrong row count");
            check(client.insert(table, List.of("op", "x"), rows, options) == n, "repeated insert: wrong row count");
            unknownInserts.remove(op);
            expectInsert(op, n);
        }

        /**
         * An insert whose rows come slowly (1 ms each) and whose timeout passes while they are produced:
         * it must throw a query timeout; the retry with the same token (one INSERT per block) must then
         * leave every row exactly once, whatever blocks the timed-out attempt had committed.
         */
        private void insertTimeoutRetry(Random r) {
            long op = nextId.incrementAndGet();
            int n = 200;
            Duration timeout = Duration.ofMillis(50 + r.nextInt(100));
            InsertOptions retry = InsertOptions.builder().deduplicationToken(table + "-" + op).tokenPerBlock(true)
                    .maxRowsPerBlock(20).build();
            InsertOptions first = InsertOptions.builder().deduplicationToken(table + "-" + op).tokenPerBlock(true)
                    .maxRowsPerBlock(20).queryOptions(QueryOptions.builder().timeout(timeout).build()).build();
            List<Object[]> rows = insertRows(op, n);
            Iterable<Object[]> slow = () -> new Iterator<>() {
                final Iterator<Object[]> it = rows.iterator();

                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public Object[] next() {
                    LockSupport.parkNanos(1_000_000); // producing a row takes 1 ms
                    return it.next();
                }
            };
            unknownInserts.add(op);
            try {
                client.insert(table, List.of("op", "x"), slow, first);
                throw new Violation("an insert whose rows take 200 ms ended within its " + timeout + " timeout");
            } catch (ClickHouseTimeoutException e) {
                expectQueryTimeout(e, timeout);
                check(!e.insertMayHaveBeenApplied() || e.deduplicationToken() != null,
                        "a timed-out insert that may have been applied names no token: " + e);
            }
            check(client.insert(table, List.of("op", "x"), rows, retry) == n, "the retry reported another row count");
            unknownInserts.remove(op);
            expectInsert(op, n);
        }

        // ------------------------------------------------------------------ server errors

        private void serverError(Random r) {
            switch (r.nextInt(3)) {
                case 0 -> {
                    int n = 2000 + r.nextInt(20_000);
                    int k = r.nextInt(n);
                    long[] seen = {0};
                    expectServerError(395, () -> {
                        try (QueryResult result = client.query("SELECT number, throwIf(number = " + k + ") FROM numbers("
                                + n + ") SETTINGS max_block_size = 1000")) {
                            seen[0] = checkedRows(result, 0, Long.MAX_VALUE, false);
                        }
                    });
                    check(seen[0] <= k, "rows past the failing one were returned");
                }
                case 1 -> expectServerError(60, () -> client.queryRows("SELECT * FROM no_such_table_" + r.nextInt(1000)));
                default -> expectServerError(60, () -> client.insert("no_such_table_" + r.nextInt(1000), List.of("x"),
                        List.<Object[]>of(new Object[] {1L})));
            }
        }

        private static void expectServerError(int code, Runnable action) {
            try {
                action.run();
            } catch (ClickHouseServerException e) {
                FIGURES.exception(e);
                check(e.code() == code, "server error " + e.code() + " instead of " + code + ": " + e);
                return;
            }
            throw new Violation("expected server error " + code + ", but the operation ended without an exception");
        }

        // ------------------------------------------------------------------ afterwards

        /** Nothing lent, the counters add up, and the server holds exactly the pool's connections. */
        private void verifyPool() {
            PoolStats s = client.poolStats();
            if (s.active() != 0 || s.pending() != 0) {
                violations.add(name + " after the run: " + s + " (connections still lent or waited for)");
                FIGURES.leakedConnections(s.active());
            }
            if (s.idle() + s.active() != s.total() || s.created() - s.destroyed() != s.total()) {
                violations.add(name + " counters do not add up: " + s);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            long onServer;
            while ((onServer = serverConnections(ch)) != s.total() && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // polling the server's metric
            }
            if (onServer != s.total()) {
                violations.add(name + " holds " + s.total() + " connections, the server counts " + onServer);
                FIGURES.leakedConnections(Math.max(0, onServer - s.total()));
            }
        }

        /** Every insert's rows are in the table exactly once. */
        private void verifyInserts() {
            Map<Long, long[]> actual = new java.util.HashMap<>();
            for (Object[] row : client.query("SELECT op, count(), sum(x) FROM " + table + " GROUP BY op",
                    QueryOptions.DEFAULT, (row, i) -> new Object[] {row.getLong(0), row.getLong(1), row.getLong(2)})) {
                actual.put((Long) row[0], new long[] {(Long) row[1], (Long) row[2]});
            }
            for (Map.Entry<Long, long[]> e : expectedInserts.entrySet()) {
                long[] want = e.getValue();
                long[] got = actual.getOrDefault(e.getKey(), new long[] {0, 0});
                if (got[0] < want[0]) {
                    FIGURES.rowsLost(want[0] - got[0]);
                }
                if (got[0] > want[0]) {
                    FIGURES.rowsDuplicated(got[0] - want[0]);
                }
                if (got[0] != want[0] || got[1] != want[1]) {
                    violations.add("seed=" + SEED + " run='" + name + "'" + " insert op " + e.getKey() + " left count/sum "
                            + got[0] + "/" + got[1] + ", expected " + want[0] + "/" + want[1]);
                }
            }
            for (Long op : actual.keySet()) {
                if (!expectedInserts.containsKey(op) && !unknownInserts.contains(op)) {
                    violations.add("rows of an insert nobody made: op " + op);
                }
            }
        }

        /** Once the client is closed, the server sees none of its connections. */
        private void verifyClosed() {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            long onServer;
            while ((onServer = serverConnections(ch)) != 0 && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // polling the server's metric
            }
            if (onServer != 0) {
                violations.add(name + ": " + onServer + " connections still open on the server after close");
                FIGURES.leakedConnections(onServer);
            }
            if (!server.isAlive()) {
                violations.add("the server died during the run (a connection was reset?)");
            }
        }
    }

    static void check(boolean ok, String problem) {
        if (!ok) {
            throw new Violation(problem);
        }
    }

    static String stackTrace(Throwable e) {
        java.io.StringWriter w = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }

    static String threadDump() {
        StringBuilder s = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, stack) -> {
            s.append(t.getName()).append(" ").append(t.getState()).append('\n');
            for (StackTraceElement e : stack) {
                s.append("    at ").append(e).append('\n');
            }
        });
        return s.toString();
    }
}
