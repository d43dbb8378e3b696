package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;

import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The streaming result of a query: its Data blocks in order, then totals, extremes, progress and
 * profile info. Iterate with {@link #next()} or for-each; each block is borrowed until the next
 * call (its columns then throw). Always close it (try-with-resources): closing an unfinished result
 * sends Cancel and drains the response within a bound so the connection can be reused, or discards
 * the connection when that fails.
 *
 * <p>Not thread-safe; {@link #cancel()} alone may be called from another thread.
 */
public final class QueryResult implements Iterable<Block>, AutoCloseable {
    static final Duration CANCEL_DRAIN_TIMEOUT = Duration.ofSeconds(10);

    private final ClickHouseConnection conn;
    private final ResponseReader reader;
    private final Runnable onDone;
    private Block header;
    private Block current;
    private Lifetime currentLifetime;
    private boolean closed;
    private volatile boolean cancelRequested;
    private long rows;

    private final boolean insert;

    QueryResult(ClickHouseConnection conn, QueryListener listener, Runnable onDone, boolean insert) {
        this.conn = conn;
        this.insert = insert;
        this.reader = new ResponseReader(conn, listener);
        this.onDone = onDone;
    }

    /**
     * The next block with at least one row, or {@code null} when the result is complete. Releases the
     * previous block.
     *
     * @throws ClickHouseServerException when the server reports an error (the connection stays usable)
     * @throws ClickHouseException       on transport or protocol failure (the connection is discarded)
     */
    public Block next() {
        if (closed) {
            throw new IllegalStateException("result is closed");
        }
        releaseCurrent();
        try {
            while (true) {
                if (cancelRequested) {
                    cancelRequested = false;
                    cancelAndDrain();
                    return null;
                }
                Lifetime l = new Lifetime("a query result block");
                Block b = reader.next(l);
                if (b == null) {
                    finish();
                    return null;
                }
                if (header == null) {
                    if (insert && b.columnCount() > 0) {
                        // the server sent an insert header and now waits for data blocks
                        throw new ClickHouseException("the server expects the INSERT's rows as data blocks "
                                + "(this server does not parse inline VALUES over the native protocol); "
                                + "use ClickHouseTcpClient.insert(...) or insertColumns(...) instead");
                    }
                    header = b;
                    if (b.rowCount() == 0) {
                        continue;
                    }
                }
                if (b.rowCount() == 0) {
                    l.release();
                    continue;
                }
                current = b;
                currentLifetime = l;
                rows += b.rowCount();
                return b;
            }
        } catch (ClickHouseServerException e) {
            finish();
            throw e;
        } catch (IOException | RuntimeException e) {
            ClickHouseException ce = conn.fail(e);
            finish();
            throw ce;
        }
    }

    /** Reads to the end, discarding blocks; returns the number of rows read by this call. */
    public long drain() {
        long before = rows;
        while (next() != null) {
            // discard
        }
        return rows - before;
    }

    /** The header block (column names and types, zero rows) once the first Data packet arrived, else {@code null}. */
    public Block header() {
        return header;
    }

    /** Rows returned so far. */
    public long rowCount() {
        return rows;
    }

    /** Accumulated progress. */
    public Progress progress() {
        return reader.progress();
    }

    /** ProfileInfo if received. */
    public ProfileInfo profileInfo() {
        return reader.profileInfo();
    }

    /** The Totals block (WITH TOTALS), detached, or {@code null}. */
    public Block totals() {
        return reader.totals();
    }

    /** The Extremes block (setting extremes=1), detached, or {@code null}. */
    public Block extremes() {
        return reader.extremes();
    }

    /** Whether the server has ended the response. */
    public boolean isFinished() {
        return reader.finished();
    }

    /** Asks the reading thread to cancel at its next packet boundary; safe from any thread. */
    public void cancel() {
        cancelRequested = true;
    }

    private void cancelAndDrain() {
        if (reader.finished()) {
            return;
        }
        try {
            conn.sendCancel();
            conn.readTimeout(CANCEL_DRAIN_TIMEOUT);
            long deadline = System.nanoTime() + CANCEL_DRAIN_TIMEOUT.toNanos();
            while (!reader.finished()) {
                if (System.nanoTime() > deadline) {
                    throw new ClickHouseException("query did not stop within " + CANCEL_DRAIN_TIMEOUT + " after Cancel");
                }
                Lifetime l = new Lifetime("a drained block");
                try {
                    reader.next(l);
                } catch (ClickHouseServerException e) {
                    // the server reports the cancellation (QUERY_WAS_CANCELLED); the connection is READY
                }
                l.release();
            }
            conn.readTimeout(null);
        } catch (IOException | RuntimeException e) {
            conn.fail(e);
        } finally {
            finish();
        }
    }

    private void releaseCurrent() {
        if (currentLifetime != null) {
            currentLifetime.release();
            currentLifetime = null;
            current = null;
        }
    }

    private void finish() {
        if (!closed) {
            closed = true;
            releaseCurrent();
            if (onDone != null) {
                onDone.run();
            }
        }
    }

    /** Cancels and drains an unfinished result, then releases the connection. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (!reader.finished() && !conn.isClosed()) {
            cancelAndDrain();
        }
        finish();
    }

    @Override
    public Iterator<Block> iterator() {
        return new Iterator<>() {
            private Block pending;
            private boolean done;

            @Override
            public boolean hasNext() {
                if (pending == null && !done) {
                    pending = closed ? null : QueryResult.this.next();
                    done = pending == null;
                }
                return pending != null;
            }

            @Override
            public Block next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Block b = pending;
                pending = null;
                return b;
            }
        };
    }
}
