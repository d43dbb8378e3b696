package dev.clickhousetcp.client;

import java.util.concurrent.TimeUnit;

/**
 * One request and its response on a connection: its deadline, whether a cancel was asked for
 * (from any thread), and why it was stopped. It outlives its turn on the connection, so a result
 * can report its own outcome after the connection went back to a pool, and a cancel request that
 * arrives late lands here instead of on the connection's next request.
 *
 * <p>Owns the request's deadline and the grace after it, the cancel request, whether Cancel was
 * sent and how long the server may still take to end the response, and why the request was
 * stopped; {@link ConnectionGuard} acts on them while the request waits on the transport.
 */
final class Exchange {
    /** Why a running query was stopped early. */
    enum Abort { NONE, CANCELLED, INTERRUPTED, TIMED_OUT }

    /** How long a cancelled query may take to end its response before the connection is discarded. */
    static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** How long a query stopped by an interrupt may take to end before the connection is dropped. */
    static final long INTERRUPT_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(1000);
    /** The smallest grace a timed-out query gets to confirm its cancellation. */
    static final long MIN_TIMEOUT_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /**
     * How long before the end of the grace the client stops waiting for the confirmation: the time the
     * reading thread keeps to drop the connection and throw, so the call returns within the deadline
     * plus its grace rather than a few milliseconds after it.
     */
    static final long RETURN_RESERVE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    final Budget budget;
    /** Queries answer a deadline with Cancel and a drain; inserts and pings give up at once. */
    final boolean cancellable;
    final long graceNanos;
    final long receivedAtStart;
    /** The connection's transport, woken by a cancel request; {@code null} in tests without one. */
    private final Transport transport;
    /** The query_id sent with the request (observations report it), or {@code null} for a ping. */
    volatile String queryId;
    /** The statement and options sent, for sending it again ({@code null} for a ping). */
    String sql;
    QueryOptions options;
    /**
     * Whether the client added {@code network_compression_method} to the request's settings on its own
     * (the user set no such setting), so that the server's refusal of it (readonly) is the client's to handle.
     */
    boolean compressionSettingAdded;
    volatile boolean cancelRequested;
    volatile Abort abort = Abort.NONE;
    /** An interrupt of the request's thread was taken (to cancel); the result restores it. */
    boolean interruptSeen;
    boolean cancelSent;
    long drainDeadlineNanos = Long.MAX_VALUE;

    Exchange(Budget budget, boolean cancellable, long receivedAtStart, Transport transport) {
        this.budget = budget;
        this.transport = transport;
        this.cancellable = cancellable;
        this.receivedAtStart = receivedAtStart;
        this.graceNanos = budget.unlimited() ? 0
                : Math.max(MIN_TIMEOUT_GRACE_NANOS, budget.timeout().toNanos() / 10);
    }

    /**
     * Asks the request to stop and wakes its reading thread if it waits for the server (it sends Cancel
     * at once); harmless once it is over. Any thread.
     */
    void requestCancel() {
        cancelRequested = true;
        if (transport != null) {
            transport.wakeUp();
        }
    }

    Abort abort() {
        return abort;
    }

    /** Whether not one byte has arrived from the server since this request was sent. */
    boolean unanswered(ClickHouseConnection c) {
        return c.bytesReceived() == receivedAtStart;
    }

    /**
     * The latest time the response may end: the deadline plus its grace (max(10 %, 100 ms)), less
     * {@link #RETURN_RESERVE_NANOS} for returning within that bound.
     */
    long hardDeadlineNanos() {
        return budget.unlimited() ? Long.MAX_VALUE : budget.deadlineNanos() + graceNanos - RETURN_RESERVE_NANOS;
    }

    /**
     * How long a timed-out request waits for the server to confirm a Cancel sent at {@code sentNanos}:
     * until {@link #hardDeadlineNanos()}, or a whole grace from the Cancel when it went out later than
     * the deadline (a consumer slower than the timeout meets it at its next read, when that grace may be
     * over; the answer that arrived meanwhile is the confirmation, and reading it must not fail). Also
     * the limit of a cancelled request's drain (with {@link #DRAIN_NANOS}): a slow consumer that closes
     * or cancels its result past the deadline is in the same position.
     */
    long timeoutDrainDeadlineNanos(long sentNanos) {
        long hard = hardDeadlineNanos();
        long fromCancel = sentNanos + graceNanos - RETURN_RESERVE_NANOS;
        return hard != Long.MAX_VALUE && fromCancel - hard > 0 ? fromCancel : hard;
    }
}
