package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.client.Exchange.Abort;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

/**
 * Bounds every wait of a connection's transport: each blocking read and each write that cannot
 * progress. Bridges the transport's waits to the connection (which exists only after the handshake):
 * until then the handshake's budget bounds them; afterwards the running {@link Exchange}'s deadline,
 * cancel request and interrupts do (a query answers them with Cancel and a bounded wait for the end
 * of its response), as do the deadline of a resynchronizing ping and the socket timeout.
 *
 * <p>Owns when a wait ends a request and how long the next blocking read may wait; the connection
 * owns the state these checks read (its exchange and its resync deadline).
 */
final class ConnectionGuard implements Transport.Guard {
    /** Longest single blocking read: how soon a blocked read notices a cancel request or an interrupt. */
    static final int POLL_MILLIS = 100;

    /**
     * The wait for the server's confirmation of a Cancel (EndOfStream or its exception) ended: the caller is
     * owed its outcome now. The reader decides whether the connection may await the rest of the response
     * ({@link ClickHouseConnection#awaitCancelConfirmation()}) or must be dropped.
     */
    static final class ConfirmationOverdue extends SocketTimeoutException {
        private static final long serialVersionUID = 1L;

        ConfirmationOverdue() {
            super("the server did not confirm the cancellation in time");
        }
    }

    private final Budget handshake;
    volatile ClickHouseConnection conn;

    /** Bounds the handshake by {@code handshake}, then defers to the connection's own checks. */
    ConnectionGuard(Budget handshake) {
        this.handshake = handshake;
    }

    @Override
    public void checkRead(long silentNanos) throws IOException {
        ClickHouseConnection c = conn;
        if (c != null) {
            onRead(c, silentNanos);
        } else {
            checkHandshake();
        }
    }

    @Override
    public void checkWrite(long stalledNanos) throws IOException {
        ClickHouseConnection c = conn;
        if (c != null) {
            onWrite(c, stalledNanos);
        } else {
            checkHandshake();
        }
    }

    private void checkHandshake() throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted during the handshake");
        }
        if (handshake.expired()) {
            throw new DeadlineExpired(handshake.kind(), handshake.timeout(), "no answer in time");
        }
    }

    @Override
    public int pollMillis() {
        ClickHouseConnection c = conn;
        if (c != null) {
            return pollMillis(c);
        }
        long left = handshake.remainingNanos();
        return (int) Math.max(1, Math.min(POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(left) + 1));
    }

    /**
     * {@inheritDoc} Only the deadlines the check after that wait acts on: for a read those that bound
     * {@link #pollMillis()}; for a write the request's deadline alone (a write does not look at a drain
     * or a resync deadline, and a due time it ignores would end every later wait at once). Both end at
     * the socket timeout.
     */
    @Override
    public long checkDueNanos(long sinceNanos, boolean write) {
        ClickHouseConnection c = conn;
        if (c == null) {
            return handshake.deadlineNanos(); // Long.MAX_VALUE (never) without a limit
        }
        long silence = c.socketTimeoutNanos();
        long quiet = silence >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE : sinceNanos + silence;
        long next;
        if (write) {
            Exchange x = c.exchange();
            next = x == null ? Long.MAX_VALUE : x.budget.deadlineNanos();
        } else {
            next = nextDeadlineNanos(c);
        }
        return next == Long.MAX_VALUE || quiet - next < 0 ? quiet : next;
    }

    /**
     * Acts on the running request's deadline before the reading thread takes data that has already
     * arrived (a consumer slower than the deadline): as a read would, once the deadline passed, sends
     * Cancel and starts the grace. Only until Cancel was sent; a no-op without a request.
     */
    static void checkBeforeBuffered(ClickHouseConnection c) throws IOException {
        Exchange x = c.exchange();
        if (x != null && !x.cancelSent && x.budget.expired()) {
            onRead(c, 0);
        }
    }

    /** Called by the transport before a read and after each wait for data (reading thread only). */
    private static void onRead(ClickHouseConnection c, long silentNanos) throws IOException {
        Exchange x = c.exchange();
        if (x != null) {
            long now = System.nanoTime();
            boolean interrupted = Thread.interrupted(); // cleared while stopping; the result restores it
            if (interrupted) {
                x.interruptSeen = true;
            }
            if (!x.cancelSent) {
                Abort a = Abort.NONE;
                if (interrupted) {
                    a = Abort.INTERRUPTED;
                } else if (x.cancelRequested) {
                    a = Abort.CANCELLED;
                } else if (!x.budget.unlimited() && now - x.budget.deadlineNanos() >= 0) {
                    a = Abort.TIMED_OUT;
                }
                if (a != Abort.NONE) {
                    x.abort = a;
                    if (!x.cancellable) {
                        // an insert or a ping cannot be cancelled in the middle: give the connection up
                        if (a == Abort.TIMED_OUT) {
                            throw new DeadlineExpired(x.budget.kind(), x.budget.timeout(), "the deadline passed");
                        }
                        if (a == Abort.INTERRUPTED) {
                            throw new InterruptedIOException("interrupted");
                        }
                        x.abort = Abort.NONE; // a cancel request for an insert or a ping: not applicable
                    }
                    x.cancelSent = true;
                    x.drainDeadlineNanos = switch (a) {
                        case CANCELLED -> Math.min(now + Exchange.DRAIN_NANOS, x.timeoutDrainDeadlineNanos(now));
                        case INTERRUPTED -> now + Exchange.INTERRUPT_GRACE_NANOS;
                        default -> x.timeoutDrainDeadlineNanos(now);
                    };
                    c.sendCancel();
                }
            } else if (x.drainDeadlineNanos != Long.MAX_VALUE && now - x.drainDeadlineNanos > 0) {
                throw new ConfirmationOverdue();
            }
        }
        if (x == null && Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted"); // e.g. resynchronizing after an error
        }
        long resyncDeadlineNanos = c.resyncDeadlineNanos();
        if (resyncDeadlineNanos != Long.MAX_VALUE && System.nanoTime() - resyncDeadlineNanos > 0) {
            throw new SocketTimeoutException("no Pong while resynchronizing after a server exception");
        }
        if (silentNanos >= c.socketTimeoutNanos()) {
            throw new DeadlineExpired(Deadline.SOCKET, c.socketTimeout(), "no data for " + c.socketTimeout());
        }
    }

    /**
     * Called by the transport after each wait while a write cannot progress (the server is not reading):
     * an interrupt, the request's deadline or the socket timeout abandon the write (and the connection:
     * a packet cannot be cancelled halfway).
     */
    private static void onWrite(ClickHouseConnection c, long stalledNanos) throws IOException {
        Exchange x = c.exchange();
        if (Thread.interrupted()) {
            if (x != null) {
                x.interruptSeen = true;
            }
            throw new InterruptedIOException("interrupted while sending to the server");
        }
        if (x != null && !x.budget.unlimited() && System.nanoTime() - x.budget.deadlineNanos() >= 0) {
            throw new DeadlineExpired(x.budget.kind(), x.budget.timeout(),
                    "the server stopped reading what was sent to it");
        }
        if (stalledNanos >= c.socketTimeoutNanos()) {
            throw new DeadlineExpired(Deadline.SOCKET, c.socketTimeout(), "the server read nothing for "
                    + c.socketTimeout());
        }
    }

    /** How long the next blocking read may wait: up to the nearest deadline, at most {@link #POLL_MILLIS}. */
    private static int pollMillis(ClickHouseConnection c) {
        long next = nextDeadlineNanos(c);
        if (next == Long.MAX_VALUE) {
            return POLL_MILLIS;
        }
        long left = next - System.nanoTime();
        if (left <= 0) {
            return 1;
        }
        return (int) Math.max(1, Math.min(POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(left) + 1));
    }

    /**
     * The nearest of the resynchronizing ping's deadline and the running request's (its deadline, or once
     * Cancel was sent the end of its drain), or {@link Long#MAX_VALUE} without one.
     */
    private static long nextDeadlineNanos(ClickHouseConnection c) {
        long next = c.resyncDeadlineNanos();
        Exchange x = c.exchange();
        if (x != null) {
            next = Math.min(next, x.cancelSent ? x.drainDeadlineNanos : x.budget.deadlineNanos());
        }
        return next;
    }
}
