package dev.clickhousetcp.client;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One borrowing of a {@link ClickHouseConnection}: from {@link ConnectionPool#acquire()} until
 * {@link #close()}. Ownership is single and explicit: the lease gives its connection back exactly
 * once (later calls do nothing), and only to the pool it came from, so a lender that closes its lease
 * twice, or after an error, can never release a connection that has since been lent to someone else.
 * A connection that is no longer usable (broken, closed, or mid-response) is discarded instead of
 * kept.
 *
 * <p>Results and insert streams hold the lease of their connection and close it after they have
 * decided their outcome; users of {@link ConnectionPool} close it themselves (try-with-resources).
 * {@link #close()} may be called from any thread.
 */
public final class ConnectionLease implements AutoCloseable {
    private final ClickHouseConnection connection;
    private final PoolEntry entry;
    private final ConnectionPool pool;
    private final boolean reused;
    private final boolean pinned;
    private final AtomicBoolean released = new AtomicBoolean();

    private ConnectionLease(ClickHouseConnection connection, PoolEntry entry, ConnectionPool pool, boolean reused,
                            boolean pinned) {
        this.connection = connection;
        this.entry = entry;
        this.pool = pool;
        this.reused = reused;
        this.pinned = pinned;
    }

    /** A lease of {@code entry}'s connection from {@code pool}; the pool records it in the entry. */
    static ConnectionLease pooled(PoolEntry entry, ConnectionPool pool, boolean reused) {
        return new ConnectionLease(entry.connection, entry, pool, reused, false);
    }

    /** A lease of a connection used without a pool: closing it leaves the connection as it is. */
    static ConnectionLease unpooled(ClickHouseConnection c) {
        return new ConnectionLease(c, null, null, true, true);
    }

    /** The pool's entry of the connection, or {@code null} for a connection used without a pool. */
    PoolEntry entry() {
        return entry;
    }

    /**
     * The borrowed connection; not to be used after {@link #close()}.
     *
     * @return the connection
     */
    public ClickHouseConnection connection() {
        return connection;
    }

    /**
     * Whether the connection had served earlier borrowers (it came from the pool's idle connections).
     *
     * @return {@code true} for a reused connection, {@code false} for one opened for this lease
     */
    public boolean isReused() {
        return reused;
    }

    /** Whether closing this lease keeps the connection where it is (a session's pinned connection). */
    boolean pinned() {
        return pinned;
    }

    /**
     * Whether this lease has been given back.
     *
     * @return {@code true} after the first {@link #close()} or {@link #discard()}
     */
    public boolean isReleased() {
        return released.get();
    }

    /**
     * Gives the connection back: to the idle connections when it is usable, else it is closed and its
     * pool slot freed. Only the first call has an effect.
     */
    @Override
    public void close() {
        if (released.compareAndSet(false, true) && pool != null && !pinned) {
            pool.giveBack(this, false);
        }
    }

    /** Gives the connection back to be closed, e.g. because it carries session state. Only the first call (of this or {@link #close()}) has an effect. */
    public void discard() {
        if (released.compareAndSet(false, true) && pool != null) {
            pool.giveBack(this, true);
        }
    }
}
