package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The streaming result of a query: its Data blocks in order, then totals, extremes, progress and
 * profile info. Iterate with {@link #next()} or for-each; each block is borrowed until the next
 * call (its columns then throw). Always close it (try-with-resources): closing an unfinished result
 * sends Cancel and drains the response within a bound so the connection can be reused, or discards
 * the connection when that fails.
 *
 * <p><b>Outcome and ownership.</b> A result is either complete ({@link #next()} returned
 * {@code null} after the server's EndOfStream) or ended by an exception; it is never cut short
 * silently: a query stopped by its timeout throws {@link ClickHouseTimeoutException}, one stopped by
 * an interrupt throws, and only {@link #cancel()} (the caller's own request) ends the stream early
 * without one. The result decides its outcome first and gives its connection back afterwards, exactly
 * once; nothing it does later ({@link #cancel()}, {@link #close()}, {@link #isCancelled()}) reaches
 * the connection's next borrower.
 *
 * <p><b>Transparent retry.</b> A read-only query ({@code SELECT}, {@code WITH}, {@code SHOW},
 * {@code DESCRIBE}, {@code EXISTS}, {@code EXPLAIN}) on a pooled connection that had been idle is run
 * again on another connection when that connection failed before the server answered anything (it
 * had been closed by the server in the meantime). Never for other statements, inside a session, or
 * once the response has begun.
 *
 * <p>Not thread-safe; {@link #cancel()} alone may be called from another thread.
 */
public final class QueryResult implements Iterable<Block>, AutoCloseable {
    /** How many times a query may be started again after its connection failed unanswered. */
    static final int MAX_RETRIES = 3;

    /** Starts the same query again on another connection (for transparent retries). */
    interface Retry {
        Attempt start();
    }

    /** A query sent on a leased connection. */
    record Attempt(ConnectionLease lease, Exchange exchange) {
    }

    private final QueryListener listener;
    private final boolean insert;
    private final Retry retry;
    /** The call's observation, or {@code null} without one (the only cost then: null checks). */
    private final ObservedOperation op;
    private ConnectionLease lease;
    private ClickHouseConnection conn;
    private Exchange exchange;
    private ResponseReader reader;
    private int retries;
    private Block header;
    private Lifetime currentLifetime;
    private boolean closed;
    private long rows;
    /** Closed by the caller before the response ended (the observation's outcome is CANCELLED). */
    private boolean closedEarly;
    /** What ended the caller's reading early (a mapping error), reported by the observation. */
    private RuntimeException abandonedBy;

    QueryResult(ConnectionLease lease, Exchange exchange, QueryListener listener, boolean insert,
                Retry retry, ObservedOperation op) {
        this.listener = listener;
        this.insert = insert;
        this.retry = retry;
        this.op = op;
        attach(lease, exchange);
    }

    private void attach(ConnectionLease lease, Exchange exchange) {
        this.lease = lease;
        this.conn = lease.connection();
        this.exchange = exchange;
        this.reader = new ResponseReader(conn, listener);
    }

    /**
     * The next block with at least one row, or {@code null} when the result is complete (or was
     * stopped by {@link #cancel()}). Releases the previous block.
     *
     * @return the next non-empty Data block, borrowed until the next call or {@link #close()}; or
     *         {@code null} at the end
     * @throws IllegalStateException      when the result is closed, or already ended (after {@code null}
     *                                    or an exception was returned once)
     * @throws ClickHouseServerException  when the server reports an error (the connection stays usable)
     * @throws ClickHouseTimeoutException when the query's timeout passed (the query is cancelled; the
     *                                    connection is kept only if the server confirmed in time)
     * @throws ClickHouseException        on transport or protocol failure (the connection is discarded)
     */
    public Block next() {
        if (closed) {
            throw new IllegalStateException("result is closed");
        }
        releaseCurrent();
        while (true) {
            Block b;
            try {
                if (exchange.abort() == Exchange.Abort.NONE && !reader.finished()) {
                    // the deadline is the whole call's, also for rows that arrived before it passed
                    ConnectionGuard.checkBeforeBuffered(conn);
                }
                b = nextBlock();
            } catch (ClickHouseServerException e) {
                RuntimeException outcome = conn.aborted() ? conn.fail(e) // the server saw our end: say why
                        : exchange.abort() != Exchange.Abort.NONE
                        ? stopped() // the server reports the cancellation (QUERY_WAS_CANCELLED)
                        : e;
                finish(outcome);
                if (outcome == null) {
                    return null;
                }
                throw outcome;
            } catch (IOException | RuntimeException e) {
                if (awaitsConfirmation(e)) {
                    RuntimeException outcome = stopped(false);
                    finish(outcome);
                    if (outcome == null) {
                        return null;
                    }
                    throw outcome;
                }
                if (retryable(e)) {
                    conn.fail(e);
                    lease.close(); // broken: discarded
                    Attempt next;
                    if (op != null) {
                        op.retry();
                    }
                    try {
                        next = retry.start();
                    } catch (RuntimeException again) {
                        closed = true;
                        observeEnd(again);
                        throw again;
                    }
                    retries++;
                    attach(next.lease(), next.exchange());
                    continue;
                }
                RuntimeException outcome = stoppedBroken(conn.fail(e));
                finish(outcome);
                if (outcome == null) {
                    return null;
                }
                throw outcome;
            }
            if (b != null) {
                return b;
            }
            // the response ended: decide the outcome, then give the connection back
            RuntimeException outcome = stopped();
            finish(outcome);
            if (outcome != null) {
                throw outcome;
            }
            return null;
        }
    }

    /** The next block with rows, or {@code null} at the end of the response; throws what the read throws. */
    private Block nextBlock() throws IOException {
        while (true) {
            Lifetime l = new Lifetime("a query result block");
            Block b = reader.next(l);
            if (b == null) {
                return null;
            }
            if (exchange.abort() != Exchange.Abort.NONE) {
                l.release(); // stopping: drain what is still in flight
                continue;
            }
            if (header == null) {
                if (insert && b.columnCount() > 0) {
                    // the server sent an insert header and now waits for data blocks
                    l.release();
                    throw new ClickHouseException("the server expects the INSERT's rows as data blocks "
                            + "(this server does not parse inline VALUES over the native protocol); "
                            + "use ClickHouseTcpClient.insert(...) or insertColumns(...) instead");
                }
                if (b.rowCount() == 0) {
                    header = b;
                    continue;
                }
                // no empty header block first: the header is this block's shape, detached from it
                header = emptyLike(b);
            }
            if (b.rowCount() == 0) {
                l.release();
                continue;
            }
            checkShape(b);
            currentLifetime = l;
            if (op != null && rows == 0) {
                op.block();
            }
            rows += b.rowCount();
            return b;
        }
    }

    /**
     * Whether a failure may be answered by running the query again elsewhere: a retry is allowed, the
     * connection had been idle in the pool, the failure is the transport's (not a deadline's, not the
     * protocol's), and not one byte of the response had arrived.
     */
    private boolean retryable(Throwable e) {
        return retry != null && retries < MAX_RETRIES && header == null && rows == 0 && lease.isReused()
                && exchange.abort() == Exchange.Abort.NONE && exchange.unanswered(conn)
                && transportFailure(e);
    }

    /**
     * Whether the wait for the server's confirmation of the Cancel ended ({@code e}) between two packets, and
     * the connection now awaits the rest of the response: its next request reads it first and is dropped
     * only when that fails ({@link ClickHouseConnection#awaitCancelConfirmation()}). Otherwise the connection
     * is dropped now.
     */
    private boolean awaitsConfirmation(Throwable e) {
        return e instanceof ConnectionGuard.ConfirmationOverdue && reader.betweenPackets()
                && conn.awaitCancelConfirmation();
    }

    /** An I/O failure of the connection itself (closed, reset, broken pipe), not a timeout. */
    static boolean transportFailure(Throwable e) {
        return e instanceof IOException && !(e instanceof SocketTimeoutException)
                && !(e instanceof InterruptedIOException);
    }

    /** A detached block of zero rows with the columns (names and types) of {@code b}. */
    private static Block emptyLike(Block b) {
        String[] names = b.names().toArray(new String[0]);
        Column[] cols = new Column[names.length];
        for (int i = 0; i < cols.length; i++) {
            cols[i] = b.column(i).gather(new int[0]);
        }
        return new Block(names, cols, 0, Lifetime.FOREVER);
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
            throw new ClickHouseProtocolException("a data block has columns " + b.names()
                    + " but the result's header announced " + header.names());
        }
    }

    /**
     * Reads to the end, discarding blocks; returns the number of rows read by this call.
     *
     * @return rows discarded by this call
     * @throws IllegalStateException when the result is closed or already ended
     */
    public long drain() {
        long before = rows;
        while (next() != null) {
            // discard
        }
        return rows - before;
    }

    /**
     * The header block (column names and types, zero rows) once the first Data packet arrived, else {@code null}.
     *
     * @return the detached header, valid after this result is closed, or {@code null}
     */
    public Block header() {
        return header;
    }

    /**
     * Rows returned so far.
     *
     * @return the total row count of the blocks {@link #next()} has returned (including those {@link #drain()} read)
     */
    public long rowCount() {
        return rows;
    }

    /**
     * Accumulated progress.
     *
     * @return the field-wise sum of the Progress packets received so far ({@link Progress#ZERO} before any)
     */
    public Progress progress() {
        return reader.progress();
    }

    /**
     * ProfileInfo if received.
     *
     * @return the ProfileInfo packet (rows, blocks, bytes, rows before LIMIT), or {@code null} until the
     *         server sent it, usually near the end of the response
     */
    public ProfileInfo profileInfo() {
        return reader.profileInfo();
    }

    /**
     * The Totals block (WITH TOTALS), detached, or {@code null}.
     *
     * @return the totals row as a one-row block, or {@code null} when none has arrived (it comes after
     *         the Data blocks)
     */
    public Block totals() {
        return reader.totals();
    }

    /**
     * The Extremes block (setting extremes=1), detached, or {@code null}.
     *
     * @return the block of two rows, minimums then maximums, or {@code null} when none has arrived
     */
    public Block extremes() {
        return reader.extremes();
    }

    /**
     * Whether the server has ended the response.
     *
     * @return {@code true} once EndOfStream (or an Exception packet) was read
     */
    public boolean isFinished() {
        return reader.finished();
    }

    /**
     * Cancels the query: the thread reading this result sends the Cancel packet at once (a thread blocked
     * waiting for data is woken), drains what
     * is in flight, and the stream then ends ({@link #next()} returns {@code null}). Safe to call from
     * any thread; a no-op once the result is complete (it never reaches the connection's next query).
     */
    public void cancel() {
        exchange.requestCancel();
    }

    /**
     * Whether this query was stopped by {@link #cancel()}, an interrupt or its timeout.
     *
     * @return {@code true} once the reading thread has acted on a stop and sent Cancel; a {@link #cancel()}
     *         request shows here only from then on
     */
    public boolean isCancelled() {
        return exchange.abort() != Exchange.Abort.NONE;
    }

    /**
     * The outcome of a query whose response ended while it was being stopped: {@code null} for the
     * caller's own cancel (the stream just ends), else the exception for the interrupt or the timeout.
     */
    private RuntimeException stopped() {
        return stopped(true);
    }

    /**
     * The outcome of a stopped query: as {@link #stopped()}; with {@code confirmed} false, of one whose server
     * has not confirmed the Cancel yet, its connection awaiting the rest of the response ({@link #awaitsConfirmation}).
     */
    private RuntimeException stopped(boolean confirmed) {
        switch (exchange.abort()) {
            case INTERRUPTED -> {
                Thread.currentThread().interrupt();
                return new ClickHouseException(confirmed ? "interrupted; the query was cancelled on the server"
                        : "interrupted; Cancel was sent to the server");
            }
            case TIMED_OUT -> {
                return timedOut(confirmed ? "and was cancelled (the server confirmed)"
                        : "and Cancel was sent; the server did not confirm the cancellation within the grace, so "
                        + "the connection's next request first reads the rest of the response");
            }
            default -> {
                return null;
            }
        }
    }

    private ClickHouseTimeoutException timedOut(String what) {
        Budget b = exchange.budget;
        return new ClickHouseTimeoutException(b.kind().optionName() + " " + b.timeout()
                + " expired: the query exceeded its timeout " + what, null, b.kind(), b.timeout());
    }

    /** The outcome of a query whose connection failed: {@code e}, or what stopping it explains. */
    private RuntimeException stoppedBroken(ClickHouseException e) {
        switch (exchange.abort()) {
            case INTERRUPTED -> {
                Thread.currentThread().interrupt();
                return new ClickHouseException("interrupted; the query was cancelled and its connection dropped", e);
            }
            case TIMED_OUT -> {
                if (e instanceof ClickHouseTimeoutException t && t.deadline() == Deadline.QUERY) {
                    return t;
                }
                Budget b = exchange.budget;
                return new ClickHouseTimeoutException(b.kind().optionName() + " " + b.timeout()
                        + " expired: the query exceeded its timeout; the server did not confirm the cancellation in "
                        + "time, so its connection was dropped", e, b.kind(), b.timeout());
            }
            case CANCELLED -> {
                return null; // the caller asked to stop; how the connection ended is the client's business
            }
            default -> {
                return e;
            }
        }
    }

    private void cancelAndDrain() {
        exchange.requestCancel();
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
            if (!awaitsConfirmation(e)) {
                conn.fail(e);
            }
        }
    }

    private void releaseCurrent() {
        if (currentLifetime != null) {
            currentLifetime.release();
            currentLifetime = null;
        }
    }

    /**
     * The outcome is decided ({@code error}, or {@code null}): release the last block, give the
     * connection back, then end the observation (once).
     */
    private void finish(RuntimeException error) {
        if (!closed) {
            closed = true;
            releaseCurrent();
            lease.close();
            if (op != null) {
                observeEnd(error);
            }
            if (exchange.interruptSeen) {
                Thread.currentThread().interrupt(); // taken to cancel the query; the caller's again
            }
        }
    }

    /** Ends the observation with what this result knows; {@code error} or else how it ended. */
    private void observeEnd(RuntimeException error) {
        if (op == null) {
            return;
        }
        op.statementEnded(reader.progress(), reader.profileInfo());
        op.context.setReturnedRows(rows);
        if (exchange.abort() == Exchange.Abort.INTERRUPTED) {
            // the caller's thread asked the call to stop: a cancellation, although the caller gets an exception
            op.stop(null, true);
            return;
        }
        boolean cancelled = error == null && (closedEarly || exchange.abort() == Exchange.Abort.CANCELLED);
        op.stop(error, cancelled);
    }

    /**
     * Records the exception that makes the caller stop reading (e.g. a row that cannot be mapped), so
     * the observation ends with it instead of as cancelled when the result is then closed. A
     * {@link ClickHouseProtocolException} (a block the row tiers refuse) discards the connection, as one
     * from the decoder does.
     */
    void abandonWith(RuntimeException e) {
        if (!closed) {
            abandonedBy = e;
            if (e instanceof ClickHouseProtocolException) {
                conn.fail(e);
            }
        }
    }

    /** Cancels and drains an unfinished result, then releases the connection. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        releaseCurrent();
        if (!reader.finished()) {
            closedEarly = true;
            if (!conn.isClosed()) {
                cancelAndDrain();
            }
        }
        finish(abandonedBy);
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
