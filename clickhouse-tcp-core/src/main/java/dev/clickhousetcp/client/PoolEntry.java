package dev.clickhousetcp.client;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;

/**
 * A pooled connection with the pool's bookkeeping of it: when it was opened, when it was last given
 * back, its lifetime (with variance), and while it is lent, the lease, when it was borrowed and by whom
 * (for leak detection). The connection keeps its own state (READY, BUSY, BROKEN, CLOSED); the times
 * here are the pool's alone and read its clock.
 *
 * <p>Mutable fields are guarded by the pool's lock; the final ones may be read anywhere.
 */
final class PoolEntry {
    /** Lifetimes above this (10 s) get a variance, as HikariCP does. */
    static final long VARIANCE_ABOVE_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** The variance is below {@code maxLifetime / VARIANCE_DIVISOR}, i.e. below 2.5 % of it. */
    static final long VARIANCE_DIVISOR = 40;

    final ClickHouseConnection connection;
    /** Pool clock at opening. */
    final long createdNanos;
    /** How long after {@link #createdNanos} the connection is retired; 0 = never. */
    final long lifetimeNanos;
    /** Pool clock when last given back (at first: when opened). */
    long lastReturnedNanos;
    /** The current lease, or {@code null} while idle. */
    ConnectionLease lease;
    /** Pool clock when the current lease began. */
    long leasedNanos;
    /** The stack of the current lease's borrower (leak detection on), else {@code null}. */
    Throwable borrower;
    /** The thread that borrowed the current lease, or {@code null} while idle. */
    Thread holder;
    /** Whether leak detection reported the current lease already. */
    boolean leakReported;

    PoolEntry(ClickHouseConnection connection, long createdNanos, long lifetimeNanos) {
        this.connection = connection;
        this.createdNanos = createdNanos;
        this.lifetimeNanos = lifetimeNanos;
        this.lastReturnedNanos = createdNanos;
    }

    /**
     * The lifetime of a new entry: {@code maxLifetime} less a random variance below 2.5 % of it when
     * {@code maxLifetime} is above 10 s (so connections opened together do not all retire at once),
     * {@code maxLifetime} itself otherwise, and 0 (never) for a zero {@code maxLifetime}.
     *
     * @param maxLifetime the configured maximum lifetime
     * @param random      given a positive bound, a number from 0 (inclusive) to the bound (exclusive)
     */
    static long lifetimeNanos(Duration maxLifetime, LongUnaryOperator random) {
        long max = maxLifetime.toNanos();
        if (max <= 0) {
            return 0;
        }
        long variance = max > VARIANCE_ABOVE_NANOS ? random.applyAsLong(max / VARIANCE_DIVISOR) : 0;
        return max - variance;
    }

    /** Whether the entry has lived its lifetime by {@code now}. */
    boolean expired(long now) {
        return lifetimeNanos > 0 && now - createdNanos >= lifetimeNanos;
    }

    /** Whether the entry has been idle for more than {@code timeoutNanos} by {@code now}. */
    boolean idleLongerThan(long timeoutNanos, long now) {
        return now - lastReturnedNanos > timeoutNanos;
    }

    /** Starts a lease at {@code now}, recording the borrower's stack when {@code trace}. */
    void lend(ConnectionLease l, long now, boolean trace) {
        lease = l;
        leasedNanos = now;
        leakReported = false;
        holder = Thread.currentThread();
        borrower = trace ? new Throwable("connection borrowed here by thread " + Thread.currentThread().getName())
                : null;
    }

    /** Ends the current lease at {@code now}. */
    void returned(long now) {
        lease = null;
        holder = null;
        borrower = null;
        lastReturnedNanos = now;
    }

    /** Whether the current lease is held longer than {@code thresholdNanos} by {@code now}. */
    boolean heldLongerThan(long thresholdNanos, long now) {
        return lease != null && now - leasedNanos > thresholdNanos;
    }

    @Override
    public String toString() {
        return "PoolEntry[" + connection.endpoint() + ", " + (lease != null ? "lent" : "idle") + "]";
    }
}
