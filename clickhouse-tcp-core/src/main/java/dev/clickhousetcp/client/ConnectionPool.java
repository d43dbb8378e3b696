package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseAuthenticationException;
import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.protocol.ServerHello;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;

/**
 * A bounded pool of {@link ClickHouseConnection}s over one or more endpoints.
 *
 * <p>State is explicit and small: each pooled connection has an entry with the pool's bookkeeping of
 * it (opened, last given back, its lifetime, and while lent, when and by whom it was borrowed); the
 * pool keeps a stack of idle entries (most recently used first, so surplus connections age out), the
 * set of lent entries, a queue of waiting borrowers, and counters. Thread-safe: the bookkeeping is
 * done under a {@link ReentrantLock} held for a few field updates only (never {@code synchronized},
 * so virtual threads do not pin), and connections are opened, pinged and closed outside it.
 *
 * <p>Waiting is a direct hand-off, first come first served: a borrower that finds no idle connection
 * and no free slot queues itself and parks; a connection given back goes straight to the longest
 * waiter (which is unparked already owning it) rather than to the idle stack, and a freed slot goes
 * to the longest waiter as the right to open a connection. The waiter never competes for the lock
 * or the connection again, so thousands of waiting (virtual) threads cost one unpark per
 * hand-off.
 *
 * <p>Reuse rules: a connection goes back to the idle stack only when it is READY, within its
 * lifetime and in the session state a new connection has
 * ({@link ClickHouseConnection#carriesSessionState()} false: no {@code USE}, {@code SET} or temporary
 * table of an earlier borrower on it); one that saw an I/O error, a timeout, a protocol error or an
 * unfinished stream is closed and its slot freed, and so is one given back past its lifetime. Before
 * reuse, a connection idle longer than {@code validateAfterIdle} is pinged and one past its lifetime is
 * retired. A
 * housekeeping thread (daemon, one per pool) closes idle connections past {@code idleTimeout} down to
 * {@code minIdle}, refills {@code minIdle}, retires idle connections past their lifetime and logs
 * leak warnings. Lent connections are never closed for their age: they are retired when given back.
 *
 * <p>Lifetimes: each connection lives {@code maxLifetime} less a random variance of up to 2.5 % of
 * it when {@code maxLifetime} is above 10 s (the rule of HikariCP), so connections opened together
 * are retired at different times rather than all at once.
 *
 * <p>Several endpoints: each connection picks its endpoint when it is opened (per
 * {@link LoadBalancing}); an endpoint that fails to connect is skipped for {@code failoverBackoff}
 * (unless every endpoint is failing, then all are tried). One pool therefore spreads its connections
 * over the endpoints rather than keeping a pool per endpoint: the size limit stays a single number and
 * failover needs no rebalancing.
 */
public final class ConnectionPool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionPool.class);
    /** Upper bounds (µs) of the acquire-time histogram buckets; the last bucket is everything above. */
    static final long[] ACQUIRE_BUCKETS_MICROS = {100, 1_000, 10_000, 100_000, 1_000_000};
    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private final ConnectionConfig config;
    private final PoolConfig pool;
    private final Connector connector;
    /** The pool's clock (nanoseconds, as {@link System#nanoTime()}) for entry times and back-off. */
    private final LongSupplier clock;
    /** Given a positive bound, a random number from 0 to below it (lifetime variance). */
    private final LongUnaryOperator random;
    /** Held only for bookkeeping; non-fair: waiting for a connection is done in {@link #waiters}. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a lent connection of a closed pool is given back (its shutdown grace may end). */
    private final Condition allGivenBack = lock.newCondition();
    private final Deque<PoolEntry> idle = new ArrayDeque<>();
    /** Borrowers waiting for a connection or a slot, longest waiting first (under the lock). */
    private final Deque<Waiter> waiters = new ArrayDeque<>();
    private final Set<PoolEntry> lent = Collections.newSetFromMap(new IdentityHashMap<>());
    private final long[] downUntil;
    /** Per endpoint index: the Hello of the most recent connection opened to it, or null (under the lock). */
    private final ServerHello[] lastHello;
    private final AtomicInteger roundRobin = new AtomicInteger();
    private final ScheduledExecutorService housekeeper;
    private int total;
    private int pending;
    private boolean closed;
    private long created;
    private long destroyed;
    private long timeouts;
    private long acquireNanos;
    private long maxAcquireNanos;
    private long acquisitions;
    private long leaksReported;
    private final long[] acquireHistogram = new long[ACQUIRE_BUCKETS_MICROS.length + 1];

    /**
     * Creates the pool and starts its housekeeping thread; with {@code minIdle} above 0 the first
     * connections are opened in the background right away. No connection is opened on the calling thread.
     *
     * @param config the settings of every connection; the host and port are replaced by each
     *               connection's endpoint from {@code pool}
     * @param pool   size limits, timeouts, endpoints and load balancing
     */
    public ConnectionPool(ConnectionConfig config, PoolConfig pool) {
        this(config, pool, Connector.of(config), System::nanoTime, bound -> ThreadLocalRandom.current().nextLong(bound));
    }

    /**
     * A pool that opens its connections through {@code connector} and reads {@code clock} for its
     * bookkeeping (entry times, lifetimes, idle and leak thresholds, endpoint back-off); acquire
     * timeouts stay on the real clock. For tests.
     */
    ConnectionPool(ConnectionConfig config, PoolConfig pool, Connector connector, LongSupplier clock,
                   LongUnaryOperator random) {
        this.config = config;
        this.pool = pool;
        this.connector = connector;
        this.clock = clock;
        this.random = random;
        this.downUntil = new long[pool.endpoints().size()];
        this.lastHello = new ServerHello[pool.endpoints().size()];
        int id = POOL_IDS.incrementAndGet();
        ScheduledThreadPoolExecutor ex = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "clickhouse-tcp-pool-" + id + "-housekeeper");
            t.setDaemon(true);
            return t;
        });
        ex.setRemoveOnCancelPolicy(true);
        this.housekeeper = ex;
        long period = Math.max(10, pool.housekeepingPeriod().toMillis());
        ex.scheduleWithFixedDelay(this::housekeep, period, period, TimeUnit.MILLISECONDS);
        if (pool.minIdle() > 0) {
            ex.execute(this::housekeep);
        }
    }

    /**
     * Borrows a connection: an idle one that is still open (checked without a round trip, and pinged
     * when idle longer than {@code validateAfterIdle}), else a new one when below the maximum, else
     * waits; all within the acquire timeout, which covers opening a new connection too.
     *
     * @return the lease; close it to give the connection back
     * @throws ClickHouseTimeoutException when the acquire timeout passed (waiting, connecting or in the
     *                                    handshake); {@link ClickHouseTimeoutException#deadline()} says so
     * @throws ClickHouseException        when opening a connection fails on every endpoint
     */
    public ConnectionLease acquire() {
        return acquire(Budget.NONE);
    }

    /**
     * {@link #acquire()} within {@code caller} as well: the wait and the opening stop at the earlier of
     * the acquire timeout and the caller's deadline, and the exception names the one that expired.
     */
    ConnectionLease acquire(Budget caller) {
        return acquire(caller, true);
    }

    /**
     * Borrows a connection only if one is to be had without waiting for another borrower: an idle one
     * (validated as in {@link #acquire()}), or a new one when the pool is below its maximum size, opened
     * within {@code caller} and the acquire timeout.
     *
     * @return the lease, or {@code null} when every connection is lent and the pool is at its maximum size
     * @throws ClickHouseTimeoutException when opening the new connection ran out of time
     * @throws ClickHouseException        when opening a connection fails on every endpoint
     */
    ConnectionLease tryAcquire(Budget caller) {
        return acquire(caller, false);
    }

    /**
     * Opens a connection outside the pool (not counted in its size, never lent or given back: the caller
     * closes it), on an endpoint picked and failed over as for pooled ones, within {@code budget}.
     */
    ClickHouseConnection openUnpooled(Budget budget) {
        checkOpen();
        return openNew(budget, false).connection;
    }

    /**
     * Opens a connection to {@code endpoint} outside the pool, as {@link #openUnpooled(Budget)} but with no
     * choice of endpoint and no failover; its outcome leaves the endpoint's back-off as it is.
     */
    ClickHouseConnection openUnpooled(Endpoint endpoint, Budget budget) {
        checkOpen();
        return connector.connect(endpoint, budget);
    }

    private void checkOpen() {
        lock.lock();
        try {
            if (closed) {
                throw new ClickHouseException("connection pool is closed");
            }
        } finally {
            lock.unlock();
        }
    }

    /** {@link #acquire(Budget)}, or with {@code wait} false {@link #tryAcquire(Budget)}. */
    private ConnectionLease acquire(Budget caller, boolean wait) {
        long start = System.nanoTime();
        Budget budget = Budget.of(pool.acquireTimeout(), Deadline.ACQUIRE).min(caller);
        while (true) {
            PoolEntry e = null;
            boolean open = false;
            Waiter w = null;
            lock.lock();
            try {
                if (closed) {
                    throw new ClickHouseException("connection pool is closed");
                }
                e = pollIdleOpen();
                if (e == null) {
                    if (total < pool.maxSize()) {
                        total++;
                        open = true;
                    } else if (!wait) {
                        return null;
                    } else {
                        w = new Waiter(Thread.currentThread());
                        waiters.addLast(w);
                        pending++;
                    }
                }
            } finally {
                lock.unlock();
            }
            if (w != null) {
                Object granted = await(w, budget, start);
                if (granted == Waiter.OPEN) {
                    open = true;
                } else {
                    e = (PoolEntry) granted;
                }
            }
            if (open) {
                try {
                    e = openNew(budget, true);
                } catch (RuntimeException ex) {
                    freeSlot(false, ex instanceof ClickHouseTimeoutException t && t.deadline() == Deadline.ACQUIRE);
                    throw ex;
                }
            } else if (!healthy(e, budget)) {
                e.connection.closeLater();
                freeSlot(true, false);
                continue; // take another
            }
            lock.lock();
            try {
                if (closed) {
                    e.connection.close();
                    total--;
                    destroyed++;
                    throw new ClickHouseException("connection pool is closed");
                }
                ConnectionLease lease = ConnectionLease.pooled(e, this, !open);
                e.lend(lease, clock.getAsLong(), !pool.leakDetectionThreshold().isZero());
                lent.add(e);
                long waited = System.nanoTime() - start;
                acquisitions++;
                acquireNanos += waited;
                maxAcquireNanos = Math.max(maxAcquireNanos, waited);
                acquireHistogram[bucket(waited / 1000)]++;
                return lease;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Parks until {@code w} is granted an idle entry or a slot ({@link Waiter#OPEN}), within the
     * budget. On a timeout or an interrupt the waiter leaves the queue; a grant that raced with it is
     * passed on to the next waiter.
     */
    private Object await(Waiter w, Budget budget, long start) {
        while (true) {
            Object granted = w.granted;
            if (granted != null) {
                if (granted == Waiter.CLOSED) {
                    throw new ClickHouseException("connection pool is closed");
                }
                return granted;
            }
            long left = budget.remainingNanos();
            boolean interrupted = Thread.interrupted();
            if (left <= 0 || interrupted) {
                lock.lock();
                try {
                    granted = w.granted;
                    if (granted == null) {
                        w.cancelled = true;
                        pending--;
                        if (interrupted) {
                            Thread.currentThread().interrupt();
                            throw new ClickHouseException("interrupted while waiting for a connection",
                                    new InterruptedException());
                        }
                        timeouts++;
                        throw budget.exceeded("while waiting for a connection: timed out after "
                                + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms (pool max size "
                                + pool.maxSize() + ", all " + lent.size() + " in use)", null);
                    }
                } finally {
                    lock.unlock();
                }
                if (!interrupted) {
                    continue; // granted just as the time ran out: take it
                }
                Thread.currentThread().interrupt();
                if (granted == Waiter.OPEN) {
                    freeSlot(false, false);
                } else if (granted instanceof PoolEntry entry) {
                    offerOrClose(entry, true);
                }
                throw new ClickHouseException("interrupted while waiting for a connection", new InterruptedException());
            }
            LockSupport.parkNanos(this, left);
        }
    }

    /**
     * Under the lock: the longest waiter still waiting, taken off the queue (no longer pending), or
     * null. The caller grants it something and unparks it after unlocking.
     */
    private Waiter nextWaiter() {
        Waiter w;
        while ((w = waiters.pollFirst()) != null) {
            if (!w.cancelled) {
                pending--;
                return w;
            }
        }
        return null;
    }

    /**
     * Under the lock: hands {@code e} to the longest waiter, or puts it on the idle stack (on top when
     * {@code mostRecent}, else at the bottom). Returns the waiter to unpark after unlocking, or null.
     */
    private Waiter offer(PoolEntry e, boolean mostRecent) {
        Waiter w = nextWaiter();
        if (w != null) {
            w.granted = e;
            return w;
        }
        if (mostRecent) {
            idle.addFirst(e);
        } else {
            idle.addLast(e);
        }
        return null;
    }

    /**
     * Under the lock: while below the maximum, gives waiters the right to open a connection (the slot
     * counted in {@code total} on their behalf). Returns the waiters to unpark after unlocking.
     */
    private List<Waiter> grantFreeSlots() {
        List<Waiter> granted = null;
        while (total < pool.maxSize()) {
            Waiter w = nextWaiter();
            if (w == null) {
                break;
            }
            total++;
            w.granted = Waiter.OPEN;
            if (granted == null) {
                granted = new ArrayList<>(2);
            }
            granted.add(w);
        }
        return granted == null ? List.of() : granted;
    }

    /**
     * Not under the lock: hands {@code e} to the longest waiter or puts it on the idle stack (see
     * {@link #offer}); once the pool is closed, closes it instead and counts it destroyed. For an
     * entry the pool holds outside the lock: one granted to a waiter that gave up, or one opened by
     * housekeeping.
     */
    private void offerOrClose(PoolEntry e, boolean mostRecent) {
        Waiter w = null;
        boolean poolClosed;
        lock.lock();
        try {
            poolClosed = closed;
            if (poolClosed) {
                total--;
                destroyed++;
            } else {
                w = offer(e, mostRecent);
            }
        } finally {
            lock.unlock();
        }
        if (poolClosed) {
            e.connection.close();
        }
        unpark(w);
    }

    private static void unpark(Waiter w) {
        if (w != null) {
            LockSupport.unpark(w.thread);
        }
    }

    /** A borrower waiting in {@link #acquire(Budget)}; granted once, by the thread that dequeues it. */
    private static final class Waiter {
        /** Granted to a waiter: a slot is counted for it, it opens a new connection. */
        static final Object OPEN = new Object();
        /** Granted to a waiter: the pool closed. */
        static final Object CLOSED = new Object();

        final Thread thread;
        /** What the waiter was given: a {@link PoolEntry}, {@link #OPEN} or {@link #CLOSED}; null while waiting. */
        volatile Object granted;
        /** Gave up (timeout, interrupt); skipped when dequeued. Under the lock. */
        boolean cancelled;

        Waiter(Thread thread) {
            this.thread = thread;
        }
    }

    /**
     * The most recently used idle connection that the server has not closed; idle connections the
     * server closed (their FIN is already in the socket) are dropped on the way. Under the lock: the
     * check is one non-blocking read, no round trip.
     */
    private PoolEntry pollIdleOpen() {
        PoolEntry e;
        while ((e = idle.pollFirst()) != null) {
            ClickHouseConnection c = e.connection;
            if (!c.closedByServer()) {
                return e;
            }
            LOG.debug("idle connection to {} was closed by the server: {}", c.endpoint(), String.valueOf(c.brokenBy()));
            total--;
            destroyed++;
        }
        return null;
    }

    private static int bucket(long micros) {
        for (int i = 0; i < ACQUIRE_BUCKETS_MICROS.length; i++) {
            if (micros <= ACQUIRE_BUCKETS_MICROS[i]) {
                return i;
            }
        }
        return ACQUIRE_BUCKETS_MICROS.length;
    }

    /**
     * Lifetime and idle validation of an idle entry about to be reused (outside the lock; the entry is
     * off the idle stack and not lent, so no other thread reads it).
     */
    private boolean healthy(PoolEntry e, Budget budget) {
        long now = clock.getAsLong();
        ClickHouseConnection c = e.connection;
        if (!c.isUsable()) {
            return false;
        }
        if (e.expired(now)) {
            return false;
        }
        if (e.idleLongerThan(pool.validateAfterIdle().toNanos(), now)) {
            try {
                long left = budget.remainingNanos();
                c.ping(left == Long.MAX_VALUE ? null : Duration.ofNanos(Math.max(1, left)));
            } catch (RuntimeException ex) {
                LOG.debug("idle connection to {} failed validation: {}", c.endpoint(), ex.toString());
                return false;
            }
        }
        return true;
    }

    /**
     * Opens a connection on the endpoint chosen by the load-balancing strategy, failing over (each attempt
     * picks again, see {@link #nextEndpoint}), and makes its entry (opened now, with its lifetime); counted
     * as created when {@code pooled}.
     */
    private PoolEntry openNew(Budget budget, boolean pooled) {
        int n = pool.endpoints().size();
        boolean[] tried = new boolean[n];
        ClickHouseException last = null;
        List<ClickHouseException> failures = new ArrayList<>();
        for (int attempt = 0; attempt < n; attempt++) {
            int i = nextEndpoint(tried);
            tried[i] = true;
            Endpoint ep = pool.endpoints().get(i);
            long attemptStart = System.nanoTime();
            try {
                ClickHouseConnection c = connector.connect(ep, budget);
                PoolEntry entry = new PoolEntry(c, clock.getAsLong(),
                        PoolEntry.lifetimeNanos(pool.maxLifetime(), random));
                lock.lock();
                try {
                    if (pooled) {
                        created++;
                    }
                    downUntil[i] = 0;
                    lastHello[i] = c.serverHello();
                } finally {
                    lock.unlock();
                }
                return entry;
            } catch (ClickHouseAuthenticationException e) {
                throw e; // the same credentials fail everywhere
            } catch (ClickHouseTimeoutException e) {
                if (e.deadline() == Deadline.ACQUIRE || e.deadline() == Deadline.QUERY) {
                    if (budget.timeout() != null
                            && System.nanoTime() - attemptStart >= budget.timeout().toNanos() / 2) {
                        markDown(i); // this endpoint, not the wait before, took the caller's time
                    }
                    throw e; // the caller's time is up: no other endpoint can be tried
                }
                markDown(i);
                if (n > 1) {
                    LOG.warn("cannot connect to {} ({}); trying the next endpoint", ep, e.getMessage());
                }
                failures.add(e);
                last = e;
            } catch (ClickHouseConnectionException | ClickHouseServerException e) {
                markDown(i);
                if (n > 1) {
                    LOG.warn("cannot connect to {} ({}); trying the next endpoint", ep, e.getMessage());
                }
                failures.add(e);
                last = e;
            }
        }
        if (failures.size() == 1) {
            throw last;
        }
        ClickHouseConnectionException all = new ClickHouseConnectionException("cannot connect to any of "
                + pool.endpoints() + ": " + last.getMessage(), last);
        for (ClickHouseException f : failures) {
            if (f != last) {
                all.addSuppressed(f);
            }
        }
        throw all;
    }

    private void markDown(int endpoint) {
        lock.lock();
        try {
            downUntil[endpoint] = clock.getAsLong() + pool.failoverBackoff().toNanos();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The endpoint index for the next attempt to open a connection, one not {@code tried} yet: per
     * strategy among the endpoints that are up (not in back-off), or, when none of those is left, among
     * those in back-off (so that when every endpoint is failing all are still tried).
     *
     * <p>{@code IN_ORDER} takes the first. {@code RANDOM} takes one at random. {@code ROUND_ROBIN} takes
     * the next turn of the pool's rotation, and another turn for each turn that falls on an endpoint it
     * cannot take: so the turn of an endpoint that failed (or is in back-off) goes to whichever endpoint
     * the rotation reaches next, and the endpoints that are up share the turns evenly. Picking from the
     * endpoint after the failed one instead would give that endpoint the failed one's share as well: with
     * three endpoints, the first stalled, 12 connections opened at once went 8 and 4 over the other two.
     */
    private int nextEndpoint(boolean[] tried) {
        int n = tried.length;
        boolean[] candidate = new boolean[n];
        int candidates = 0;
        long now = clock.getAsLong();
        lock.lock();
        try {
            for (int i = 0; i < n; i++) {
                if (!tried[i] && downUntil[i] - now <= 0) {
                    candidate[i] = true;
                    candidates++;
                }
            }
        } finally {
            lock.unlock();
        }
        if (candidates == 0) {
            for (int i = 0; i < n; i++) {
                if (!tried[i]) {
                    candidate[i] = true;
                    candidates++;
                }
            }
        }
        switch (pool.loadBalancing()) {
            case ROUND_ROBIN -> {
                int turn = 0;
                for (int draw = 0; draw < 2 * n; draw++) { // other callers' turns may come in between
                    turn = Math.floorMod(roundRobin.getAndIncrement(), n);
                    if (candidate[turn]) {
                        return turn;
                    }
                }
                return nthCandidate(candidate, turn, 0);
            }
            case RANDOM -> {
                return nthCandidate(candidate, 0, ThreadLocalRandom.current().nextInt(candidates));
            }
            default -> {
                return nthCandidate(candidate, 0, 0);
            }
        }
    }

    /** The index of the {@code nth} (from 0) true entry of {@code candidate}, counting from {@code from} round. */
    private static int nthCandidate(boolean[] candidate, int from, int nth) {
        int n = candidate.length;
        for (int k = 0; ; k++) {
            int i = (from + k) % n;
            if (candidate[i] && nth-- == 0) {
                return i;
            }
        }
    }

    /**
     * Takes back a lease's connection: kept when usable, within its lifetime and not {@code discard},
     * closed otherwise. A lease that is not the entry's current one (given back already) changes
     * nothing.
     */
    void giveBack(ConnectionLease lease, boolean discard) {
        PoolEntry e = lease.entry();
        if (e == null) {
            return;
        }
        ClickHouseConnection c = e.connection;
        Waiter next;
        lock.lock();
        try {
            if (e.lease != lease || !lent.remove(e)) {
                return; // not ours, or given back already
            }
            if (closed) {
                allGivenBack.signalAll(); // close() waits for the connections of other threads than its own
            }
            long now = clock.getAsLong();
            if (e.leakReported) {
                LOG.info("a connection to {} reported as possibly leaked was given back after {} ms", c.endpoint(),
                        Duration.ofNanos(now - e.leasedNanos).toMillis());
            }
            e.returned(now);
            if (!discard && c.isUsable() && !c.carriesSessionState() && !closed && !e.expired(now)) {
                next = offer(e, true);
            } else {
                next = null;
                e = null;
            }
        } finally {
            lock.unlock();
        }
        if (e != null) {
            unpark(next);
            return;
        }
        c.closeLater();
        freeSlot(true, false);
    }

    private void freeSlot(boolean wasCreated, boolean timedOut) {
        List<Waiter> granted;
        lock.lock();
        try {
            total--;
            if (wasCreated) {
                destroyed++;
            }
            if (timedOut) {
                timeouts++;
            }
            granted = closed ? List.of() : grantFreeSlots();
        } finally {
            lock.unlock();
        }
        granted.forEach(ConnectionPool::unpark);
    }

    /** One housekeeping pass: eviction, retirement, refill, leak detection. */
    void housekeep() {
        List<ClickHouseConnection> toClose = new ArrayList<>();
        int toOpen = 0;
        long now = clock.getAsLong();
        List<Waiter> granted;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            // idle stack: most recent first; evict from the old end
            var it = idle.descendingIterator();
            while (it.hasNext()) {
                PoolEntry e = it.next();
                boolean idleTooLong = !pool.idleTimeout().isZero() && e.idleLongerThan(pool.idleTimeout().toNanos(), now)
                        && idle.size() - toClose.size() > pool.minIdle();
                if (e.expired(now) || idleTooLong || e.connection.closedByServer()) {
                    it.remove();
                    toClose.add(e.connection);
                }
            }
            total -= toClose.size();
            destroyed += toClose.size();
            toOpen = Math.min(pool.minIdle() - idle.size(), pool.maxSize() - total);
            if (toOpen > 0) {
                total += toOpen;
            }
            if (!pool.leakDetectionThreshold().isZero()) {
                for (PoolEntry e : lent) {
                    if (!e.leakReported && e.heldLongerThan(pool.leakDetectionThreshold().toNanos(), now)) {
                        e.leakReported = true;
                        leaksReported++;
                        LOG.warn("possible connection leak: a connection to {} has been held for more than {}",
                                e.connection.endpoint(), pool.leakDetectionThreshold(), e.borrower);
                    }
                }
            }
            granted = grantFreeSlots();
        } finally {
            lock.unlock();
        }
        granted.forEach(ConnectionPool::unpark);
        for (ClickHouseConnection c : toClose) {
            c.close();
        }
        for (int i = 0; i < toOpen; i++) {
            try {
                offerOrClose(openNew(Budget.NONE, true), false);
            } catch (RuntimeException ex) {
                freeSlot(false, false);
                LOG.debug("could not open a min-idle connection: {}", ex.toString());
            }
        }
    }

    /**
     * A consistent snapshot of the pool's counters.
     *
     * @return the counters, all taken at one moment under the pool's lock
     */
    public PoolStats stats() {
        lock.lock();
        try {
            return new PoolStats(lent.size(), idle.size(), pending, total, pool.maxSize(), created, destroyed, timeouts,
                    acquireNanos, acquisitions, maxAcquireNanos, acquireHistogram.clone(), leaksReported);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Per endpoint, the server's Hello to the most recent connection this pool opened to it (version,
     * display name, time zone, protocol revision), in the order of {@link PoolConfig#endpoints()};
     * endpoints the pool has not connected to yet are absent. Never opens a connection.
     *
     * @return a new map, endpoint to its last Hello
     */
    public Map<Endpoint, ServerHello> serverHellos() {
        lock.lock();
        try {
            Map<Endpoint, ServerHello> hellos = new LinkedHashMap<>();
            for (int i = 0; i < lastHello.length; i++) {
                if (lastHello[i] != null) {
                    hellos.put(pool.endpoints().get(i), lastHello[i]);
                }
            }
            return hellos;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The connection settings the pool was created with.
     *
     * @return the configuration (host and port replaced per endpoint when connections are opened)
     */
    public ConnectionConfig config() {
        return config;
    }

    /**
     * The pool settings the pool was created with.
     *
     * @return the pool configuration
     */
    public PoolConfig poolConfig() {
        return pool;
    }

    /** A snapshot of the entries, idle ones first (most recently used first), then the lent ones. For tests. */
    List<PoolEntry> entries() {
        lock.lock();
        try {
            List<PoolEntry> all = new ArrayList<>(idle);
            all.addAll(lent);
            return all;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes the pool: new borrowers and waiting ones are refused ("connection pool is closed"), idle
     * connections are closed and housekeeping stops; then it waits up to
     * {@link PoolConfig#shutdownGrace()} for the lent connections to be given back (each is closed as it
     * comes back), and ends those still lent after it: a FIN, never a reset, so the server cancels their
     * queries and their borrowers get a {@link ClickHouseConnectionException} saying the client was closed.
     * Those are logged as a warning with their query ids. Connections the closing thread borrowed itself
     * are not waited for (it cannot give them back while it waits here): they are ended with the others. Returns within about the grace; idempotent (a
     * second call returns at once). An interrupt ends the wait early and stays set.
     */
    @Override
    public void close() {
        List<ClickHouseConnection> toClose;
        List<Waiter> waiting = new ArrayList<>();
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(idle.size());
            for (PoolEntry e : idle) {
                toClose.add(e.connection);
            }
            total -= idle.size();
            destroyed += idle.size();
            idle.clear();
            Waiter w;
            while ((w = nextWaiter()) != null) {
                w.granted = Waiter.CLOSED;
                waiting.add(w);
            }
        } finally {
            lock.unlock();
        }
        waiting.forEach(ConnectionPool::unpark);
        housekeeper.shutdownNow();
        for (ClickHouseConnection c : toClose) {
            c.close();
        }
        Duration grace = pool.shutdownGrace();
        List<PoolEntry> inUse = awaitGivenBack(grace);
        if (inUse.isEmpty()) {
            return;
        }
        // connections still lent out are ended (their users get a connection error), so a closed client
        // leaves no socket and no server query behind; their release later only frees the slot
        String why = grace.isZero() ? "the client was closed"
                : "the client was closed and its shutdown grace of " + grace + " passed";
        Thread self = Thread.currentThread();
        List<String> ended = new ArrayList<>(inUse.size());
        for (PoolEntry e : inUse) {
            Exchange x = e.connection.exchange();
            String queryId = x == null ? null : x.queryId;
            boolean own = e.holder == self; // only this thread changes the holder of its own lease
            ended.add(e.connection.endpoint() + (queryId == null ? " (no request under way)" : " query_id " + queryId)
                    + (own ? " (borrowed by the closing thread)" : ""));
            e.connection.abort(own ? "the client was closed by the thread using this connection" : why);
        }
        LOG.warn("closing the pool: {} connection(s) still in use after the shutdown grace of {} (the closing "
                + "thread's own are not waited for) were ended, so the server cancels their queries: {}",
                inUse.size(), grace, ended);
    }

    /**
     * Waits up to {@code grace} until no connection is lent to another thread than the calling one (which
     * cannot give its own back while it waits here: close called inside a callback or with a session of
     * its own open); returns the entries lent after it, the caller's own among them (an interrupt ends the
     * wait early and stays set).
     */
    private List<PoolEntry> awaitGivenBack(Duration grace) {
        long left = Budget.of(grace, null).remainingNanos(); // Long.MAX_VALUE for a practically endless grace
        boolean interrupted = false;
        Thread self = Thread.currentThread();
        lock.lock();
        try {
            while (left > 0 && lent.stream().anyMatch(e -> e.holder != self)) {
                try {
                    left = allGivenBack.awaitNanos(left);
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
            }
            return new ArrayList<>(lent);
        } finally {
            lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
