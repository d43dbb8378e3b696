package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseAuthenticationException;
import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.io.BinaryWriter;
import dev.clickhousetcp.protocol.ServerPacket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The pool's own rules without a server: connections come from a connector that handshakes over bytes
 * in memory (a real {@link ClickHouseConnection}, with no socket behind it), and the pool's clock is
 * moved by hand. Housekeeping runs only when a test calls {@link ConnectionPool#housekeep()}.
 */
class ConnectionPoolTest {
    private static final Endpoint A = new Endpoint("a.example", 9000);
    private static final Endpoint B = new Endpoint("b.example", 9000);
    private static final long T0 = 1_000_000_000_000L;

    private final AtomicLong now = new AtomicLong(T0);
    private final FakeConnector connector = new FakeConnector();
    private final List<ConnectionPool> pools = new ArrayList<>();

    @AfterEach
    void closePools() {
        pools.forEach(ConnectionPool::close);
    }

    /** Opens connections over in-memory bytes; endpoints in {@link #down} refuse, those in {@link #rejecting} fail the login. */
    static final class FakeConnector implements Connector {
        final Set<Endpoint> down = ConcurrentHashMap.newKeySet();
        final Set<Endpoint> rejecting = ConcurrentHashMap.newKeySet();
        final List<Endpoint> attempts = Collections.synchronizedList(new ArrayList<>());
        final List<ClickHouseConnection> opened = Collections.synchronizedList(new ArrayList<>());

        @Override
        public ClickHouseConnection connect(Endpoint endpoint, Budget budget) {
            attempts.add(endpoint);
            if (down.contains(endpoint)) {
                throw new ClickHouseConnectionException("cannot connect to " + endpoint + ": Connection refused");
            }
            ClickHouseConnection c = ConnectionOpener.handshake(ConnectionConfig.builder().host(endpoint.host())
                            .port(endpoint.port()).compression(Compression.NONE).build(),
                    new InMemoryTransport(rejecting.contains(endpoint) ? authenticationFailed() : hello(endpoint), 1 << 12),
                    new ConnectionGuard(Budget.NONE));
            opened.add(c);
            return c;
        }

        /** A server Hello of revision 54412 whose display name is the endpoint's host. */
        private static byte[] hello(Endpoint endpoint) {
            try {
                ByteArrayOutputStream bos = new ByteArrayOutputStream();
                FuzzFindingsTest.hello(bos, endpoint.host()).flush();
                return bos.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The server's answer to a Hello with wrong credentials (code 516, AUTHENTICATION_FAILED). */
        private static byte[] authenticationFailed() {
            try {
                ByteArrayOutputStream bos = new ByteArrayOutputStream();
                BinaryWriter w = new BinaryWriter(bos, 256);
                w.writeVarUInt(ServerPacket.EXCEPTION);
                w.writeInt32(516);
                w.writeString("DB::Exception");
                w.writeString("DB::Exception: default: Authentication failed");
                w.writeString("");
                w.writeBoolean(false);
                w.flush();
                return bos.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * Pool settings: no min idle, validation and housekeeping practically never (tests call housekeep), no
     * shutdown grace (a test that closes a pool while it holds a lease cannot give it back meanwhile).
     */
    private static PoolConfig settings(int maxSize, int minIdle, Duration idleTimeout, Duration maxLifetime,
                                       Duration leakThreshold, Endpoint... endpoints) {
        return new PoolConfig(maxSize, minIdle, Duration.ofSeconds(10), idleTimeout, maxLifetime, Duration.ofDays(1),
                leakThreshold, List.of(endpoints), LoadBalancing.IN_ORDER, Duration.ofSeconds(10), Duration.ofDays(1),
                Duration.ZERO);
    }

    private ConnectionPool pool(PoolConfig settings) {
        ConnectionPool p = new ConnectionPool(ConnectionConfig.builder().build(), settings, connector, now::get,
                bound -> ThreadLocalRandom.current().nextLong(bound));
        pools.add(p);
        return p;
    }

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    private static void awaitCondition(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
        }
    }

    /**
     * One of three endpoints refuses connections: ROUND_ROBIN gives its turns to the endpoint the rotation
     * reaches next, so the other two get the same number of connections, wherever the refusing one is.
     */
    @Test
    void roundRobinSharesTheTurnsOfADownEndpointEvenly() {
        Endpoint c = new Endpoint("c.example", 9000);
        for (Endpoint refusing : List.of(A, B, c)) {
            connector.down.clear();
            connector.down.add(refusing);
            ConnectionPool pool = pool(new PoolConfig(12, 0, Duration.ofSeconds(10), Duration.ZERO, Duration.ZERO,
                    Duration.ofDays(1), Duration.ZERO, List.of(A, B, c), LoadBalancing.ROUND_ROBIN,
                    Duration.ofSeconds(10), Duration.ofDays(1)));
            Map<String, Integer> counts = new TreeMap<>();
            List<ConnectionLease> held = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                ConnectionLease lease = pool.acquire();
                held.add(lease);
                counts.merge(lease.connection().endpoint().host(), 1, Integer::sum);
            }
            held.forEach(ConnectionLease::close);
            assertThat(counts).as("refusing %s", refusing).doesNotContainKey(refusing.host())
                    .containsOnlyKeys(List.of(A, B, c).stream().filter(e -> e != refusing).map(Endpoint::host)
                            .toList())
                    .allSatisfy((host, n) -> assertThat(n).isEqualTo(6));
        }
    }

    /** tryAcquire takes an idle connection or opens one while there is room, and never waits; unpooled ones are not counted. */
    @Test
    void tryAcquireNeverWaitsAndUnpooledConnectionsAreOutsideThePool() {
        ConnectionPool pool = pool(settings(1, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO, A));
        ConnectionLease first = pool.tryAcquire(Budget.NONE);
        assertThat(first).isNotNull();
        assertThat(pool.tryAcquire(Budget.NONE)).isNull(); // saturated: no wait
        assertThat(pool.stats().pending()).isZero();
        try (ClickHouseConnection own = pool.openUnpooled(Budget.NONE);
             ClickHouseConnection toB = pool.openUnpooled(B, Budget.NONE)) {
            assertThat(own.endpoint()).isEqualTo(A);
            assertThat(toB.endpoint()).isEqualTo(B);
            assertThat(pool.stats().total()).isEqualTo(1);
            assertThat(pool.stats().created()).isEqualTo(1);
        }
        ClickHouseConnection reused = first.connection();
        first.close();
        try (ConnectionLease again = pool.tryAcquire(Budget.NONE)) {
            assertThat(again.connection()).isSameAs(reused);
        }
        assertThat(pool.stats().created()).isEqualTo(1);
        pool.close();
        assertThatThrownBy(() -> pool.openUnpooled(Budget.NONE)).hasMessageContaining("closed");
    }

    @Test
    void idleConnectionsAreClosedAfterTheIdleTimeoutCountedFromTheirReturn() {
        ConnectionPool pool = pool(settings(3, 0, Duration.ofSeconds(60), Duration.ZERO, Duration.ZERO, A));
        ConnectionLease early = pool.acquire();
        ConnectionLease late = pool.acquire();
        ConnectionLease held = pool.acquire();
        early.close();
        advance(Duration.ofSeconds(30));
        late.close();
        advance(Duration.ofSeconds(45)); // held 75 s, never idle
        held.close();

        advance(Duration.ofSeconds(30)); // early idle 105 s, late 75 s, held 30 s
        pool.housekeep();
        assertThat(early.connection().isClosed()).isTrue();
        assertThat(late.connection().isClosed()).isTrue();
        assertThat(held.connection().isClosed()).isFalse();
        assertThat(pool.stats().idle()).isEqualTo(1);
        assertThat(pool.stats().total()).isEqualTo(1);
        assertThat(pool.stats().destroyed()).isEqualTo(2);

        advance(Duration.ofSeconds(30)); // exactly 60 s idle: not more than the timeout
        pool.housekeep();
        assertThat(held.connection().isClosed()).isFalse();
        advance(Duration.ofNanos(1));
        pool.housekeep();
        assertThat(held.connection().isClosed()).isTrue();
        assertThat(pool.stats().total()).isZero();
    }

    @Test
    void idleEvictionKeepsMinIdle() {
        ConnectionPool pool = pool(settings(3, 2, Duration.ofSeconds(60), Duration.ZERO, Duration.ZERO, A));
        awaitCondition("min idle filled", () -> pool.stats().idle() == 2); // opened by the housekeeper at start
        List<ConnectionLease> leases = List.of(pool.acquire(), pool.acquire(), pool.acquire());
        leases.forEach(ConnectionLease::close);
        assertThat(pool.stats().idle()).isEqualTo(3);
        advance(Duration.ofMinutes(5));
        pool.housekeep();
        assertThat(pool.stats().idle()).isEqualTo(2);
        assertThat(pool.stats().destroyed()).isEqualTo(1);
        assertThat(leases.stream().filter(l -> l.connection().isClosed()).count()).isEqualTo(1);
    }

    @Test
    void aMinIdleConnectionOpenedWhileThePoolClosesIsClosedAndCountedDestroyed() throws Exception {
        java.util.concurrent.CountDownLatch opening = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        List<ClickHouseConnection> opened = Collections.synchronizedList(new ArrayList<>());
        Connector slow = (endpoint, budget) -> {
            opening.countDown();
            boolean interrupted = false;
            while (true) { // the pool's close interrupts its housekeeper: this open finishes anyway
                try {
                    release.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            ClickHouseConnection c = connector.connect(endpoint, budget);
            opened.add(c);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return c;
        };
        ConnectionPool pool = new ConnectionPool(ConnectionConfig.builder().build(),
                settings(2, 1, Duration.ZERO, Duration.ZERO, Duration.ZERO, A), slow, now::get,
                bound -> ThreadLocalRandom.current().nextLong(bound));
        pools.add(pool);
        assertThat(opening.await(10, TimeUnit.SECONDS)).isTrue(); // the housekeeper is opening the min-idle one
        pool.close();
        release.countDown();
        awaitCondition("the late min-idle connection closed", () -> opened.size() == 1 && opened.get(0).isClosed());
        awaitCondition("its slot freed", () -> pool.stats().total() == 0);
        PoolStats stats = pool.stats();
        assertThat(stats.created()).isEqualTo(1);
        assertThat(stats.destroyed()).as("every connection created was destroyed").isEqualTo(stats.created());
        assertThat(stats.idle()).isZero();
    }

    @Test
    void maxLifetimeClosesIdleConnectionsAndRetiresLentOnesWhenGivenBack() {
        ConnectionPool pool = pool(settings(3, 0, Duration.ZERO, Duration.ofSeconds(5), Duration.ZERO, A));
        ConnectionLease idleOne = pool.acquire();
        ConnectionLease lent = pool.acquire();
        idleOne.close();
        advance(Duration.ofSeconds(5));
        pool.housekeep();
        assertThat(idleOne.connection().isClosed()).isTrue();
        assertThat(lent.connection().isClosed()).as("a lent connection is never closed for its age").isFalse();
        assertThat(lent.connection().isUsable()).isTrue();
        assertThat(pool.stats().active()).isEqualTo(1);
        assertThat(pool.stats().total()).isEqualTo(1);

        lent.close();
        assertThat(lent.connection().isClosed()).as("retired when given back").isTrue();
        assertThat(pool.stats().idle()).isZero();
        assertThat(pool.stats().total()).isZero();
        assertThat(pool.stats().destroyed()).isEqualTo(2);

        try (ConnectionLease next = pool.acquire()) {
            assertThat(next.isReused()).isFalse();
            assertThat(pool.stats().created()).isEqualTo(3);
        }
    }

    @Test
    void anIdleConnectionPastItsLifetimeIsNotLentBeforeHousekeepingRuns() {
        ConnectionPool pool = pool(settings(3, 0, Duration.ZERO, Duration.ofSeconds(5), Duration.ZERO, A));
        ConnectionLease first = pool.acquire();
        advance(Duration.ofSeconds(4));
        first.close();
        advance(Duration.ofSeconds(1));
        try (ConnectionLease second = pool.acquire()) {
            assertThat(second.isReused()).isFalse();
            assertThat(second.connection()).isNotSameAs(first.connection());
            assertThat(first.connection().isClosed()).isTrue();
        }
        assertThat(pool.stats().total()).isEqualTo(1);
    }

    @Test
    void leakDetectionReportsALeaseHeldPastTheThresholdOnceWithItsBorrower() {
        ConnectionPool pool = pool(settings(2, 0, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(2), A));
        ConnectionLease lease = pool.acquire();
        PoolEntry entry = lease.entry();
        assertThat(entry.borrower).isNotNull();
        assertThat(entry.borrower.getMessage()).contains(Thread.currentThread().getName());
        assertThat(Arrays.stream(entry.borrower.getStackTrace()).map(StackTraceElement::getMethodName))
                .contains("leakDetectionReportsALeaseHeldPastTheThresholdOnceWithItsBorrower");

        advance(Duration.ofSeconds(2)); // at the threshold, not past it
        pool.housekeep();
        assertThat(pool.stats().leaksReported()).isZero();
        advance(Duration.ofNanos(1));
        pool.housekeep();
        assertThat(pool.stats().leaksReported()).isEqualTo(1);
        advance(Duration.ofMinutes(1));
        pool.housekeep();
        assertThat(pool.stats().leaksReported()).as("reported once per lease").isEqualTo(1);
        lease.close();
        assertThat(entry.borrower).isNull();

        ConnectionLease again = pool.acquire(); // the same connection, a new lease: its own clock
        assertThat(again.entry()).isSameAs(entry);
        advance(Duration.ofSeconds(1));
        pool.housekeep();
        assertThat(pool.stats().leaksReported()).isEqualTo(1);
        advance(Duration.ofSeconds(2));
        pool.housekeep();
        assertThat(pool.stats().leaksReported()).isEqualTo(2);
        again.close();
    }

    @Test
    void withoutALeakThresholdNothingIsTracedOrReported() {
        ConnectionPool pool = pool(settings(2, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO, A));
        ConnectionLease lease = pool.acquire();
        assertThat(lease.entry().borrower).isNull();
        advance(Duration.ofDays(1));
        pool.housekeep();
        assertThat(pool.stats().leaksReported()).isZero();
        lease.close();
    }

    @Test
    void anEndpointThatFailsToConnectIsSkippedForTheBackoff() {
        connector.down.add(A);
        ConnectionPool pool = pool(settings(3, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO, A, B));
        ConnectionLease first = pool.acquire();
        assertThat(first.connection().endpoint()).isEqualTo(B);
        assertThat(connector.attempts).containsExactly(A, B);
        assertThat(pool.serverHellos()).containsOnlyKeys(B);

        connector.down.remove(A);
        ConnectionLease second = pool.acquire(); // A is still in its back-off: B first
        assertThat(second.connection().endpoint()).isEqualTo(B);
        assertThat(connector.attempts).containsExactly(A, B, B);

        advance(Duration.ofSeconds(10).plusNanos(1));
        ConnectionLease third = pool.acquire(); // back-off over: the order is A, B again
        assertThat(third.connection().endpoint()).isEqualTo(A);
        assertThat(connector.attempts).containsExactly(A, B, B, A);
        assertThat(pool.serverHellos()).containsOnlyKeys(A, B);
        assertThat(pool.serverHellos().get(A).displayName()).isEqualTo("a.example");
        List.of(first, second, third).forEach(ConnectionLease::close);
        assertThat(pool.stats().idle()).isEqualTo(3);
    }

    @Test
    void whenEveryEndpointFailsTheErrorNamesThemAllAndNoSlotIsKept() {
        connector.down.addAll(List.of(A, B));
        ConnectionPool pool = pool(settings(3, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO, A, B));
        assertThatThrownBy(pool::acquire).isInstanceOf(ClickHouseConnectionException.class)
                .hasMessageContaining("cannot connect to any of")
                .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1));
        assertThat(connector.attempts).containsExactly(A, B);
        assertThat(pool.stats().total()).isZero();
        assertThat(pool.stats().created()).isZero();
    }

    @Test
    void anAuthenticationFailureIsNotFailedOver() {
        connector.rejecting.add(A);
        ConnectionPool pool = pool(settings(3, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO, A, B));
        assertThatThrownBy(pool::acquire).isInstanceOf(ClickHouseAuthenticationException.class);
        assertThat(connector.attempts).containsExactly(A);
        assertThat(pool.stats().total()).isZero();
    }

    @Test
    void aBrokenConnectionNeverGoesBackToThePool() {
        ConnectionPool pool = pool(settings(2, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO, A));
        ConnectionLease lease = pool.acquire();
        ClickHouseConnection c = lease.connection();
        // the in-memory server has nothing more to say: the Ping meets the end of the stream
        assertThatThrownBy(c::ping).isInstanceOf(ClickHouseConnectionException.class);
        assertThat(c.isUsable()).isFalse();
        lease.close();
        lease.close();
        assertThat(pool.stats().idle()).isZero();
        assertThat(pool.stats().total()).isZero();
        assertThat(pool.stats().destroyed()).isEqualTo(1);
        assertThat(pool.entries()).isEmpty();
        try (ConnectionLease next = pool.acquire()) {
            assertThat(next.connection()).isNotSameAs(c);
            assertThat(next.isReused()).isFalse();
        }
    }

    @Test
    void aDiscardedConnectionIsClosedNotKept() {
        ConnectionPool pool = pool(settings(2, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO, A));
        ConnectionLease lease = pool.acquire();
        lease.discard();
        lease.close();
        assertThat(lease.connection().isClosed()).isTrue();
        assertThat(pool.stats().idle()).isZero();
        assertThat(pool.stats().total()).isZero();
    }

    /**
     * Waiters are served first come, first served, by hand-off; one interrupted while waiting leaves the
     * queue (and is not handed anything), one whose acquire timeout passes leaves it too, and closing the
     * pool wakes the rest with "connection pool is closed".
     */
    @Test
    void waitersAreServedInArrivalOrderAndLeaveTheQueueOnInterruptTimeoutOrClose() throws Exception {
        ConnectionPool pool = pool(new PoolConfig(1, 0, Duration.ofMillis(300), Duration.ZERO, Duration.ZERO,
                Duration.ofDays(1), Duration.ZERO, List.of(A), LoadBalancing.IN_ORDER, Duration.ofSeconds(10),
                Duration.ofDays(1)));
        ConnectionPool patient = pool(settings(1, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO, A));
        ConnectionLease held = patient.acquire();
        List<String> served = Collections.synchronizedList(new ArrayList<>());
        Map<String, Throwable> failed = new ConcurrentHashMap<>();
        List<Thread> waiters = new ArrayList<>();
        for (String name : List.of("first", "interrupted", "third")) {
            Thread t = new Thread(() -> {
                try (ConnectionLease lease = patient.acquire()) {
                    served.add(name);
                } catch (RuntimeException e) {
                    failed.put(name, e);
                }
            }, name);
            t.start();
            waiters.add(t);
            int queued = waiters.size();
            awaitCondition(name + " waiting", () -> patient.stats().pending() == queued);
        }
        waiters.get(1).interrupt();
        awaitCondition("the interrupted waiter leaving", () -> patient.stats().pending() == 2);
        held.close();
        for (Thread t : waiters) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertThat(served).containsExactly("first", "third");
        assertThat(failed).containsOnlyKeys("interrupted");
        assertThat(failed.get("interrupted")).hasMessageContaining("interrupted while waiting for a connection");
        PoolStats s = patient.stats();
        assertThat(s.pending()).isZero();
        assertThat(s.idle()).isEqualTo(1);
        assertThat(s.total()).isEqualTo(1);

        ConnectionLease busy = pool.acquire();
        assertThatThrownBy(pool::acquire).isInstanceOf(ClickHouseTimeoutException.class)
                .hasMessageContaining("while waiting for a connection");
        assertThat(pool.stats().pending()).isZero();
        assertThat(pool.stats().acquireTimeouts()).isEqualTo(1);
        busy.close();
        assertThat(pool.stats().idle()).isEqualTo(1); // not handed to the waiter that gave up
        try (ConnectionLease again = pool.acquire()) {
            assertThat(again.connection().isUsable()).isTrue();
        }

        ConnectionLease last = patient.acquire();
        Thread closedOut = new Thread(() -> {
            try (ConnectionLease lease = patient.acquire()) {
                served.add("after close");
            } catch (RuntimeException e) {
                failed.put("closed", e);
            }
        });
        closedOut.start();
        awaitCondition("a waiter", () -> patient.stats().pending() == 1);
        patient.close();
        closedOut.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(failed.get("closed")).hasMessage("connection pool is closed");
        last.close();
        assertThat(patient.stats().total()).isZero();
    }

    /** Settings with a shutdown grace. */
    private static PoolConfig withGrace(Duration grace) {
        PoolConfig p = settings(2, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO, A);
        return new PoolConfig(p.maxSize(), p.minIdle(), p.acquireTimeout(), p.idleTimeout(), p.maxLifetime(),
                p.validateAfterIdle(), p.leakDetectionThreshold(), p.endpoints(), p.loadBalancing(), p.failoverBackoff(),
                p.housekeepingPeriod(), grace);
    }

    private static boolean parked(Thread t) {
        return t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING;
    }

    @Test
    void closeRefusesNewBorrowersAndWaitsWithinItsGraceUntilTheLastLentConnectionIsBack() throws Exception {
        ConnectionPool pool = pool(withGrace(Duration.ofMinutes(10)));
        ConnectionLease first = pool.acquire();
        ConnectionLease second = pool.acquire();
        Thread closer = new Thread(pool::close, "closer");
        closer.start();
        awaitCondition("close waiting for the lent connections", () -> parked(closer));
        assertThatThrownBy(pool::acquire).hasMessage("connection pool is closed");
        first.close();
        assertThat(closer.isAlive()).as("one connection is still lent").isTrue();
        second.close();
        closer.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(closer.isAlive()).isFalse();
        assertThat(pool.stats().total()).isZero();
        assertThat(pool.stats().destroyed()).isEqualTo(2); // each closed as it came back, none kept
    }

    /**
     * The thread that closes the pool cannot give back, while it waits in close, the connections it
     * borrowed itself (close called inside withConnection, a row callback or an open session): close waits
     * for the other threads' connections only, then ends its own ones with them, instead of waiting its
     * whole grace for itself.
     */
    @Test
    void closeDoesNotWaitItsGraceForConnectionsTheClosingThreadHolds() throws Exception {
        ConnectionPool pool = pool(withGrace(Duration.ofMinutes(10)));
        ConnectionLease othersLease = pool.acquire();
        AtomicReference<ConnectionLease> own = new AtomicReference<>();
        Thread closer = new Thread(() -> {
            own.set(pool.acquire());
            pool.close();
        }, "closer");
        closer.start();
        awaitCondition("close waiting for the other thread's connection", () -> parked(closer) && own.get() != null);
        assertThat(closer.isAlive()).as("close waits for the other thread's connection").isTrue();
        othersLease.close();
        closer.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(closer.isAlive()).as("close waited for the closing thread's own connections").isFalse();
        assertThatThrownBy(() -> own.get().connection().ping()).as("ended by the close")
                .isInstanceOf(ClickHouseConnectionException.class)
                .hasMessageContaining("the client was closed by the thread using this connection");
        own.get().close();
        assertThat(pool.stats().total()).isZero();

        ConnectionPool alone = pool(withGrace(Duration.ofMinutes(10)));
        Thread selfOnly = new Thread(() -> {
            try (ConnectionLease l = alone.acquire()) {
                alone.close();
            }
        }, "self-only");
        selfOnly.start();
        selfOnly.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(selfOnly.isAlive()).as("close waited for the closing thread's own connection").isFalse();
        assertThat(alone.stats().total()).isZero();
    }

    @Test
    void anInterruptEndsTheShutdownGraceAndStaysSet() throws Exception {
        ConnectionPool pool = pool(withGrace(Duration.ofMinutes(10)));
        ConnectionLease lent = pool.acquire();
        AtomicInteger interruptedAfterClose = new AtomicInteger(-1);
        Thread closer = new Thread(() -> {
            pool.close();
            interruptedAfterClose.set(Thread.currentThread().isInterrupted() ? 1 : 0);
        }, "closer");
        closer.start();
        awaitCondition("close waiting for the lent connection", () -> parked(closer));
        closer.interrupt();
        closer.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(closer.isAlive()).isFalse();
        assertThat(interruptedAfterClose.get()).isEqualTo(1);
        lent.close(); // ended by the close: its release only frees the slot
        assertThat(pool.stats().total()).isZero();
    }

    @Test
    void concurrentAcquireAndReleaseStayWithinTheMaximum() throws Exception {
        int maxSize = 3;
        int threads = 6;
        int rounds = 400;
        ConnectionPool pool = pool(settings(maxSize, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO, A));
        AtomicInteger held = new AtomicInteger();
        AtomicInteger mostHeld = new AtomicInteger();
        AtomicInteger broken = new AtomicInteger();
        Set<String> violations = ConcurrentHashMap.newKeySet();
        ExecutorService ex = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(ex.submit(() -> {
                    for (int i = 0; i < rounds; i++) {
                        try (ConnectionLease lease = pool.acquire()) {
                            int n = held.incrementAndGet();
                            mostHeld.accumulateAndGet(n, Math::max);
                            PoolStats s = pool.stats();
                            if (s.total() > maxSize || s.active() > maxSize) {
                                violations.add(s.toString());
                            }
                            if ((thread + i) % 37 == 0) { // now and then a connection breaks in use
                                try {
                                    lease.connection().ping();
                                } catch (ClickHouseConnectionException e) {
                                    broken.incrementAndGet();
                                }
                            }
                            held.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            ex.shutdownNow();
        }
        assertThat(violations).isEmpty();
        assertThat(mostHeld.get()).isBetween(1, maxSize);
        PoolStats s = pool.stats();
        assertThat(s.active()).isZero();
        assertThat(s.pending()).isZero();
        assertThat(s.acquisitions()).isEqualTo((long) threads * rounds);
        assertThat(s.total()).isEqualTo(s.idle()).isBetween(1, maxSize);
        assertThat(s.created() - s.destroyed()).isEqualTo(s.total());
        assertThat(s.destroyed()).isEqualTo(broken.get());
        assertThat(s.created()).isLessThanOrEqualTo(maxSize + broken.get());
        assertThat(connector.opened.stream().filter(c -> !c.isClosed()).count()).isEqualTo(s.total());
    }

    @Test
    void lifetimeVarianceIsBelowTwoAndAHalfPercentAboveTenSeconds() {
        Duration max = Duration.ofMinutes(30);
        long bound = max.toNanos() / 40;
        AtomicLong asked = new AtomicLong();
        assertThat(PoolEntry.lifetimeNanos(max, b -> {
            asked.set(b);
            return b - 1;
        })).isEqualTo(max.toNanos() - bound + 1);
        assertThat(asked.get()).isEqualTo(bound);
        assertThat(PoolEntry.lifetimeNanos(max, b -> 0)).isEqualTo(max.toNanos());
        assertThat(PoolEntry.lifetimeNanos(Duration.ofSeconds(10), b -> {
            throw new AssertionError("no variance at 10 s");
        })).isEqualTo(Duration.ofSeconds(10).toNanos());
        assertThat(PoolEntry.lifetimeNanos(Duration.ofSeconds(10).plusNanos(1), b -> b - 1))
                .isLessThan(Duration.ofSeconds(10).toNanos());
        assertThat(PoolEntry.lifetimeNanos(Duration.ZERO, b -> {
            throw new AssertionError("no lifetime");
        })).isZero();
    }

    @Test
    void connectionsOpenedTogetherRetireAtDifferentTimes() {
        int n = 40;
        Duration max = Duration.ofMinutes(30);
        ConnectionPool pool = pool(settings(n, 0, Duration.ZERO, max, Duration.ZERO, A));
        List<ConnectionLease> leases = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            leases.add(pool.acquire());
        }
        leases.forEach(ConnectionLease::close);
        List<PoolEntry> entries = pool.entries();
        Set<Long> lifetimes = new HashSet<>();
        for (PoolEntry e : entries) {
            assertThat(e.lifetimeNanos).isGreaterThan(max.toNanos() - max.toNanos() / 40)
                    .isLessThanOrEqualTo(max.toNanos());
            lifetimes.add(e.lifetimeNanos);
        }
        assertThat(lifetimes).hasSizeGreaterThan(1);
        long shortest = Collections.min(lifetimes);

        advance(Duration.ofNanos(shortest - 1));
        pool.housekeep();
        assertThat(pool.stats().idle()).isEqualTo(n);
        advance(Duration.ofNanos(1));
        pool.housekeep();
        assertThat(pool.stats().idle()).isBetween(1, n - 1);
        now.set(T0 + max.toNanos());
        pool.housekeep();
        assertThat(pool.stats().idle()).isZero();
    }

    @Test
    void lifetimesOfTenSecondsOrLessHaveNoVariance() {
        int n = 20;
        ConnectionPool pool = pool(settings(n, 0, Duration.ZERO, Duration.ofSeconds(10), Duration.ZERO, A));
        List<ConnectionLease> leases = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            leases.add(pool.acquire());
        }
        leases.forEach(ConnectionLease::close);
        assertThat(pool.entries()).extracting(e -> e.lifetimeNanos).containsOnly(Duration.ofSeconds(10).toNanos());
        advance(Duration.ofSeconds(10).minusNanos(1));
        pool.housekeep();
        assertThat(pool.stats().idle()).isEqualTo(n);
        advance(Duration.ofNanos(1));
        pool.housekeep();
        assertThat(pool.stats().idle()).isZero();
    }
}
