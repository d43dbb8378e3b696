package dev.clickhousetcp.testsupport;

import dev.clickhousetcp.testsupport.FaultProxy.Action;
import dev.clickhousetcp.testsupport.FaultProxy.Direction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fault rule installed on a {@link FaultProxy} by its builder ({@link FaultProxy#on(Direction)}): where it
 * acts, what it does, and how often it has fired. Thread-safe.
 */
public final class FaultRule {

    /** Which connections a rule fires on. */
    enum Scope {
        /** The first connection that reaches the fault offset. */
        ONCE,
        /** Every connection, once each. */
        EVERY,
        /** One numbered connection. */
        CONNECTION
    }

    private final FaultProxy proxy;
    private final Direction direction;
    private final Action action;
    private final Duration latency;
    private final long offset;
    private final Direction markerDirection;
    private final byte[] marker;
    private final int[] markerFailure;
    private final Scope scope;
    private final long connection;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition firedCondition = lock.newCondition();
    private int firedCount; // guarded by lock
    private boolean spent; // guarded by lock: a once-only rule claimed by a connection, or cancelled

    FaultRule(FaultProxy proxy, Direction direction, Action action, Duration latency, long offset,
            Direction markerDirection, byte[] marker, Scope scope, long connection) {
        this.proxy = proxy;
        this.direction = direction;
        this.action = action;
        this.latency = latency;
        this.offset = offset;
        this.markerDirection = markerDirection;
        this.marker = marker;
        this.markerFailure = marker == null ? null : failureFunction(marker);
        this.scope = scope;
        this.connection = connection;
    }

    /** @return the direction the fault acts on */
    public Direction direction() {
        return direction;
    }

    /** @return what the fault does */
    public Action action() {
        return action;
    }

    /** @return whether the rule fired at least once */
    public boolean fired() {
        return firedCount() > 0;
    }

    /** @return how many connections the rule fired on so far */
    public int firedCount() {
        lock.lock();
        try {
            return firedCount;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the rule fired at least once, or the timeout expires.
     *
     * @param timeout how long to wait at most
     * @return whether the rule fired (false: the timeout expired first)
     * @throws InterruptedException if the calling thread was interrupted
     */
    public boolean awaitFired(Duration timeout) throws InterruptedException {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (firedCount == 0) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = firedCondition.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes the rule: it fires on no connection from now on. Faults it already put into effect (a delay,
     * a stall) stay; see {@link FaultProxy#releaseStalls()}. Idempotent.
     */
    public void cancel() {
        lock.lock();
        try {
            spent = true;
        } finally {
            lock.unlock();
        }
        proxy.removeRule(this);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("FaultRule[").append(action);
        if (latency != null) {
            s.append(' ').append(latency);
        }
        s.append(' ').append(direction);
        if (marker != null) {
            s.append(" after marker \"").append(new String(marker, StandardCharsets.UTF_8)).append("\" in ")
                    .append(markerDirection).append(" +").append(offset);
        } else {
            s.append(" at offset ").append(offset);
        }
        switch (scope) {
            case ONCE:
                s.append(", once");
                break;
            case EVERY:
                s.append(", every connection");
                break;
            default:
                s.append(", connection #").append(connection);
                break;
        }
        return s.append(", fired ").append(firedCount()).append(']').toString();
    }

    // ------------------------------------------------------------------ used by ProxiedConnection

    Duration latency() {
        return latency;
    }

    long offset() {
        return offset;
    }

    Direction markerDirection() {
        return markerDirection;
    }

    boolean hasMarker() {
        return marker != null;
    }

    boolean appliesTo(long connectionNumber) {
        lock.lock();
        try {
            return !spent && (scope != Scope.CONNECTION || connection == connectionNumber);
        } finally {
            lock.unlock();
        }
    }

    /** @return whether the rule can still fire on some connection */
    boolean live() {
        lock.lock();
        try {
            return !spent;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Claims one firing on a connection that reached the fault offset. Takes only this rule's lock, so it
     * may be called under a connection's lock; the caller calls {@link #reportFired()} after releasing it.
     *
     * @return false if the rule is spent or cancelled (the connection must not apply it)
     */
    boolean tryFire() {
        lock.lock();
        try {
            if (spent) {
                return false;
            }
            if (scope != Scope.EVERY) {
                spent = true;
            }
            firedCount++;
            firedCondition.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Updates the proxy after a successful {@link #tryFire()}; called holding no connection lock. */
    void reportFired() {
        if (scope != Scope.EVERY) {
            proxy.removeRule(this);
        }
        proxy.countFault(action);
    }

    /**
     * Advances a streaming marker search (Knuth-Morris-Pratt) over {@code buf[0, length)}.
     *
     * @param state in: the matched prefix length before this chunk; out: {@code state[0]} updated
     * @return the index in {@code buf} right after the first completed match, or -1
     */
    int findMarkerEnd(int[] state, byte[] buf, int length) {
        int matched = state[0];
        for (int i = 0; i < length; i++) {
            byte b = buf[i];
            while (matched > 0 && marker[matched] != b) {
                matched = markerFailure[matched - 1];
            }
            if (marker[matched] == b) {
                matched++;
            }
            if (matched == marker.length) {
                state[0] = 0;
                return i + 1;
            }
        }
        state[0] = matched;
        return -1;
    }

    private static int[] failureFunction(byte[] pattern) {
        int[] failure = new int[pattern.length];
        int k = 0;
        for (int i = 1; i < pattern.length; i++) {
            while (k > 0 && pattern[k] != pattern[i]) {
                k = failure[k - 1];
            }
            if (pattern[k] == pattern[i]) {
                k++;
            }
            failure[i] = k;
        }
        return failure;
    }
}
