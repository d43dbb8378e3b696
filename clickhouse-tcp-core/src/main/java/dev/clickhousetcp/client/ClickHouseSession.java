package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.mapping.Mappers;
import java.time.Duration;

/**
 * A session: every call runs on one pinned connection, so temporary tables, {@code SET} statements
 * and other per-connection server state persist across calls (the native protocol's session is the
 * TCP connection itself).
 *
 * <p>Not thread-safe: use it from one thread at a time. {@link #close()} closes the pinned
 * connection instead of returning it to the pool, because its server-side state must not leak to
 * other borrowers; {@link #release()} gives it back for reuse when no statement changed that state. A query
 * timeout whose Cancel the server confirms only after the grace keeps the session: the next call first reads the
 * rest of the cancelled response ({@link QueryOptions.Builder#timeout}). If the connection breaks (I/O error, a
 * cancelled response that does not end within that next call's bounds), the session is over: its server-side
 * state went with the connection, and every later call throws a
 * {@link ClickHouseConnectionException} naming the original cause (open a new session to go on).
 */
public final class ClickHouseSession extends QueryOperations implements AutoCloseable {
    private final ConnectionLease lease;
    private final ClickHouseConnection conn;
    private boolean closed;

    ClickHouseSession(ConnectionLease lease, int insertBlockRows, Mappers mappers,
                      Duration defaultQueryTimeout, Instrumentation instrumentation) {
        super(insertBlockRows, mappers, defaultQueryTimeout, instrumentation);
        this.lease = lease;
        this.conn = lease.connection();
    }

    @Override
    ConnectionLease acquire(Budget budget) {
        if (closed) {
            throw new ClickHouseException("session is closed");
        }
        if (conn.awaitsCancelConfirmation()) {
            conn.finishCancelledResponse(budget); // the rest of a cancelled response first; broken when it fails
        }
        if (conn.isClosed()) {
            throw new ClickHouseConnectionException("the session's connection is broken (open a new session): "
                    + conn.brokenBy(), conn.brokenBy());
        }
        return ConnectionLease.unpooled(conn); // pinned: giving it back keeps it in the session
    }

    @Override
    boolean retriesUnansweredReads() {
        return false;
    }

    @Override
    boolean runsSessionStatements() {
        return true;
    }

    /**
     * Whether the pinned connection is still usable.
     *
     * @return {@code false} once the session is closed or its connection broke
     */
    public boolean isOpen() {
        return !closed && !conn.isClosed();
    }

    /**
     * Changes the socket timeout of the pinned connection (see {@link ClickHouseConnection#setSocketTimeout}):
     * sends nothing, applies from the wait under way on, safe from any thread.
     *
     * @param timeout the longest wait for the server's next bytes; {@code null} or zero restores the configured
     *                {@link ConnectionConfig#socketTimeout()}
     * @throws IllegalArgumentException when {@code timeout} is negative
     */
    public void setSocketTimeout(Duration timeout) {
        conn.setSocketTimeout(timeout);
    }

    /**
     * The socket timeout in force on the pinned connection.
     *
     * @return the configured one, or what {@link #setSocketTimeout(Duration)} set
     */
    public Duration socketTimeout() {
        return conn.socketTimeout();
    }

    /**
     * Ends the session and gives its connection back to the pool for the next borrower when the session's
     * server state is still what a new connection gets: the connection is usable (idle, neither broken nor
     * closed, nothing streaming on it) and no statement changed its server session
     * ({@link ClickHouseConnection#carriesSessionState()} false: no {@code USE}, {@code SET}, {@code SET ROLE},
     * transaction, {@code EXECUTE AS} or temporary table). Otherwise, and past the pool's lifetime limits, the
     * connection is closed as by {@link #close()}. The socket timeout set with {@link #setSocketTimeout} is
     * restored to the configured one first. The statements the server ran are recognised by their leading
     * keywords ({@code ClickHouseSessionRequiredException} lists them); a caller that ran anything else that may
     * change the session, or is in doubt, calls {@link #close()} instead. Idempotent, and a no-op after
     * {@link #close()}; not thread-safe (the session's own thread, after its last result is closed).
     */
    public void release() {
        if (!closed) {
            closed = true;
            conn.setSocketTimeout(null);
            lease.close(); // the pool keeps it only when usable and free of session state
        }
    }

    /** Closes the session and its connection (freeing the pool slot). Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            lease.discard();
        }
    }
}
