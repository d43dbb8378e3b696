package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;

import java.io.IOException;
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
    private final ClickHouseConnection conn;
    private final ResponseReader reader;
    private final Runnable onDone;
    private Block header;
    private Block current;
    private Lifetime currentLifetime;
    private boolean closed;
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
                Lifetime l = new Lifetime("a query result block");
                Block b = reader.next(l);
                if (b == null) {
                    finish();
                    return endOfStopped();
                }
                if (conn.abort() != ClickHouseConnection.Abort.NONE) {
                    l.release(); // stopping: drain what is still in flight
                    continue;
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
                checkShape(b);
                current = b;
                currentLifetime = l;
                rows += b.rowCount();
                return b;
            }
        } catch (ClickHouseServerException e) {
            finish();
            if (conn.abort() != ClickHouseConnection.Abort.NONE) {
                return endOfStopped(); // the server reports the cancellation (QUERY_WAS_CANCELLED)
            }
            throw e;
        } catch (IOException | RuntimeException e) {
            ClickHouseException ce = conn.fail(e);
            finish();
            ClickHouseConnection.Abort a = conn.abort();
            if (a == ClickHouseConnection.Abort.INTERRUPTED) {
                Thread.currentThread().interrupt();
                throw new ClickHouseException("interrupted; the query was cancelled and its connection dropped", ce);
            }
            if (a == ClickHouseConnection.Abort.TIMED_OUT) {
                throw new dev.clickhousetcp.ClickHouseTimeoutException("the query exceeded its timeout; it was "
                        + "cancelled and its connection dropped", ce);
            }
            throw ce;
        }
    }

    /** Every data block of a result must have the header's columns: names and types, in order. */
    private void checkShape(Block b) {
        if (header == b) {
            return;
        }
        boolean same = b.columnCount() == header.columnCount();
        for (int i = 0; same && i < b.columnCount(); i++) {
            same = b.name(i).equals(header.name(i)) && b.column(i).type().name().equals(header.column(i).type().name());
        }
        if (!same) {
            throw new dev.clickhousetcp.ClickHouseProtocolException("a data block has columns " + b.names()
                    + " but the result's header announced " + header.names());
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

    /**
     * Cancels the query: the thread reading this result sends the Cancel packet within about
     * {@value ClickHouseConnection#POLL_MILLIS} ms (even while blocked waiting for data), drains what
     * is in flight, and the stream then ends ({@link #next()} returns {@code null}). Safe to call from
     * any thread; a no-op once the result is complete.
     */
    public void cancel() {
        conn.requestCancel();
    }

    /** Whether the query was stopped by {@link #cancel()}, an interrupt or its timeout. */
    public boolean isCancelled() {
        return conn.abort() != ClickHouseConnection.Abort.NONE;
    }

    /** After the response ended: null for a user cancel, else the exception for interrupt or timeout. */
    private Block endOfStopped() {
        ClickHouseConnection.Abort a = conn.abort();
        if (a == ClickHouseConnection.Abort.INTERRUPTED) {
            Thread.currentThread().interrupt();
            throw new ClickHouseException("interrupted; the query was cancelled on the server");
        }
        if (a == ClickHouseConnection.Abort.TIMED_OUT) {
            throw new dev.clickhousetcp.ClickHouseTimeoutException("the query exceeded its timeout and was cancelled");
        }
        return null;
    }

    private void cancelAndDrain() {
        if (reader.finished()) {
            return;
        }
        conn.requestCancel();
        try {
            while (!reader.finished()) {
                Lifetime l = new Lifetime("a drained block");
                try {
                    reader.next(l);
                } catch (ClickHouseServerException e) {
                    // the server reports the cancellation (QUERY_WAS_CANCELLED); the connection is READY
                }
                l.release();
            }
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
