package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseInterruptedException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DataType;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.protocol.Progress;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Collections;
import java.util.List;

/**
 * An INSERT in progress, per the INSERT phase of ClickHouse's NativeProtocol.mdx: the server has sent
 * the insert header (column names and types, zero rows); the caller fills the column writers from
 * {@link #newWriters()} and sends them with {@link #sendBlock}, then calls {@link #finish()}, which
 * sends the empty end-of-data block and waits for EndOfStream.
 *
 * <p>{@link #close()} without {@code finish()} abandons the insert: the connection is discarded
 * (closing the socket makes the server drop the rows not yet committed; a block the server already
 * wrote is not rolled back, so use insert deduplication for retries).
 *
 * <p><b>Deadline.</b> The query's timeout covers the whole insert: waiting for the header, producing
 * the rows ({@link #checkDeadline()}, called by the client's insert methods between rows), sending
 * the blocks and waiting for the server's confirmation. An insert cannot be cancelled halfway, so at
 * the deadline it is abandoned and its connection dropped. A server that refuses the data while it is
 * still being sent (a block over a memory limit, a value it cannot take) sends its Exception and closes
 * the connection: the failed write is then reported as that {@link ClickHouseServerException}, with the
 * write failure suppressed. Every other failure after data reached the server
 * is a {@link ClickHouseConnectionException} (or its {@link ClickHouseTimeoutException} subtype) whose
 * {@link ClickHouseConnectionException#insertMayHaveBeenApplied()} is {@code true} and which names the
 * deduplication token that makes a retry safe.
 *
 * <p>The stream owns its connection's lease from construction on and gives it back exactly once,
 * after its outcome is known. Not thread-safe.
 */
public final class InsertStream implements AutoCloseable {
    private final ConnectionLease lease;
    private final ClickHouseConnection conn;
    private final Exchange exchange;
    private final ResponseReader reader;
    private final String deduplicationToken;
    /** The insert call's observation, or {@code null}. */
    private final ObservedOperation op;
    private final Block header;
    private final String[] names;
    private final DataType[] types;
    private boolean done;
    private boolean endSent;
    private long rowsSent;

    /**
     * Reads the insert header. Owns {@code lease} from here on: on failure it gives it back before
     * throwing.
     */
    InsertStream(ConnectionLease lease, Exchange exchange, QueryListener listener,
                 String deduplicationToken, ObservedOperation op) {
        this.lease = lease;
        this.op = op;
        this.conn = lease.connection();
        this.exchange = exchange;
        this.deduplicationToken = deduplicationToken;
        this.reader = new ResponseReader(conn, listener);
        if (op != null) {
            reader.countInserted();
        }
        Block h;
        try {
            h = reader.next(Lifetime.FOREVER);
        } catch (ClickHouseServerException e) {
            throw ended(e);
        } catch (IOException | RuntimeException e) {
            throw ended(failure(e));
        }
        if (h == null) {
            // a protocol error: the connection is discarded even though the response ended cleanly
            throw ended(conn.fail(new ClickHouseProtocolException("server ended the INSERT without "
                    + "sending its header block (was the statement an INSERT ... VALUES without inline rows?)")));
        }
        this.header = h;
        this.names = h.names().toArray(new String[0]);
        this.types = new DataType[names.length];
        for (int i = 0; i < names.length; i++) {
            types[i] = h.column(i).type();
        }
    }

    /** Whether a failure to open this insert happened before the server answered, on a reused connection. */
    static boolean retryableOpen(RuntimeException e, ConnectionLease lease, Exchange x) {
        return e instanceof ClickHouseConnectionException && !(e instanceof ClickHouseTimeoutException)
                && QueryResult.transportFailure(e.getCause()) && lease.isReused() && x.unanswered(lease.connection());
    }

    /**
     * Column names in the order the server expects them.
     *
     * @return the insert header's column names, unmodifiable
     */
    public List<String> columnNames() {
        return Collections.unmodifiableList(List.of(names));
    }

    /**
     * Column types in order.
     *
     * @return the insert header's column types, parallel to {@link #columnNames()}, unmodifiable
     */
    public List<DataType> columnTypes() {
        return List.of(types);
    }

    /**
     * The header block (zero rows).
     *
     * @return the insert header as the server sent it, detached (valid after the insert ends)
     */
    public Block header() {
        return header;
    }

    /**
     * Column description text from a TableColumns packet, if the server sent one.
     *
     * @return the table's column descriptions (names, types, default expressions) in ClickHouse's
     *         {@code ColumnsDescription} text form, or {@code null} when no TableColumns packet came
     */
    public String tableColumnsDescription() {
        return reader.tableColumns();
    }

    /**
     * Fresh writers, one per header column, in header order.
     *
     * @return new empty writers for the header's column types, to fill and pass to {@link #sendBlock}
     */
    public ColumnWriter[] newWriters() {
        ColumnWriter[] w = new ColumnWriter[types.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = types[i].newWriter();
        }
        return w;
    }

    /**
     * Abandons the insert with a {@link ClickHouseTimeoutException} when its query timeout has passed, or with a
     * {@link ClickHouseInterruptedException} when the calling thread was interrupted (both say whether the
     * insert may have been applied). Cheap; the client's insert methods call it between rows.
     */
    public void checkDeadline() {
        if (done) {
            return;
        }
        if (Thread.currentThread().isInterrupted()) {
            throw ended(failure(new InterruptedIOException("interrupted while the rows were being produced")));
        }
        if (exchange.budget.unlimited()) {
            return;
        }
        if (exchange.budget.expired()) {
            throw ended(failure(new DeadlineExpired(exchange.budget.kind(),
                    exchange.budget.timeout(), "the deadline passed while the rows were being produced")));
        }
    }

    /**
     * Sends one Data block built from {@code writers} (all with {@code rows} values), then resets the
     * writers for reuse. A block of zero rows sends nothing.
     *
     * @param writers one writer per header column, in header order (as from {@link #newWriters()})
     * @param rows    the number of values every writer holds
     * @throws IllegalStateException         when the insert was already finished or abandoned
     * @throws ClickHouseTypeException       when the writer count or a writer's size does not match
     *                                       (nothing is sent; the insert stays open)
     * @throws ClickHouseTimeoutException    when the query timeout passed (the insert is abandoned)
     * @throws ClickHouseConnectionException when the connection fails (the insert is abandoned)
     */
    public void sendBlock(ColumnWriter[] writers, int rows) {
        checkOpen();
        if (writers.length != names.length) {
            throw new ClickHouseTypeException("insert block has " + writers.length + " columns, the table expects "
                    + names.length + " " + columnNames());
        }
        for (int i = 0; i < writers.length; i++) {
            if (writers[i].size() != rows) {
                throw new ClickHouseTypeException("column '" + names[i] + "' has " + writers[i].size()
                        + " values, the block has " + rows + " rows");
            }
        }
        if (rows == 0) {
            return;
        }
        checkDeadline();
        try {
            conn.blocks().writeData(conn.revision(), names, writers, rows); // compressed when the query is
            conn.out().flush();
            rowsSent += rows;
        } catch (IOException | RuntimeException e) {
            throw ended(writeFailure(e));
        }
        for (ColumnWriter w : writers) {
            w.reset();
        }
    }

    /**
     * Rows sent so far.
     *
     * @return the total rows of the blocks {@link #sendBlock} has sent
     */
    public long rowsSent() {
        return rowsSent;
    }

    /**
     * Ends the data stream and waits for the server to confirm.
     *
     * @return the server's accumulated progress (written rows/bytes)
     * @throws ClickHouseServerException     when the server rejects the data
     * @throws ClickHouseTimeoutException    when the query timeout passes first (the insert may have been
     *                                       applied: see the class documentation)
     * @throws ClickHouseConnectionException when the connection fails first (likewise)
     */
    public Progress finish() {
        checkOpen();
        checkDeadline();
        endSent = true;
        try {
            conn.blocks().writeEmptyData();
            conn.out().flush();
        } catch (IOException | RuntimeException e) {
            throw ended(writeFailure(e));
        }
        try {
            while (true) {
                Lifetime l = new Lifetime("an insert response block");
                Block b = reader.next(l);
                l.release();
                if (b == null) {
                    break;
                }
            }
            Progress p = reader.progress();
            end();
            return p;
        } catch (ClickHouseServerException e) {
            throw ended(e);
        } catch (IOException | RuntimeException e) {
            throw ended(failure(e));
        }
    }

    /**
     * A write to the server failed: the server's own error when it had sent one before closing (it
     * refused the data while it was being sent), else the failure ({@link #failure}); the connection is
     * dropped either way.
     */
    private RuntimeException writeFailure(Throwable e) {
        ClickHouseServerException answer = conn.serverErrorAfterWriteFailure(e, reader);
        RuntimeException failed = failure(e);
        return answer != null ? answer : failed;
    }

    /** Ends the insert (see {@link #end}) and returns {@code e}, for the caller to throw. */
    private RuntimeException ended(RuntimeException e) {
        end();
        return e;
    }

    /**
     * The connection has failed: it is dropped, and the exception says whether the insert may have been
     * applied (some rows reached the server) and with which token a retry is safe.
     */
    private RuntimeException failure(Throwable e) {
        ClickHouseException ce = conn.fail(e);
        boolean mayHaveBeenApplied = rowsSent > 0;
        if (!(ce instanceof ClickHouseConnectionException)) {
            return ce;
        }
        String note = mayHaveBeenApplied
                ? "; the insert may have been applied, wholly or in part (" + rowsSent + " rows had been sent"
                + (endSent ? " and the end of the data" : "") + "): " + (deduplicationToken != null
                ? "retrying with the same insert_deduplication_token '" + deduplicationToken + "' is safe"
                : "it had no insert_deduplication_token, so a retry may duplicate rows")
                : "; no rows had been sent: the insert was not applied";
        if (ce instanceof ClickHouseInterruptedException) {
            return new ClickHouseInterruptedException(ce.getMessage() + note, ce.getCause() != null ? ce.getCause() : ce,
                    mayHaveBeenApplied, deduplicationToken);
        }
        if (ce instanceof ClickHouseTimeoutException t) {
            return new ClickHouseTimeoutException(t.getMessage() + note, t.getCause() != null ? t.getCause() : t,
                    t.deadline(), t.timeout(), mayHaveBeenApplied, deduplicationToken);
        }
        return new ClickHouseConnectionException(ce.getMessage() + note, ce.getCause() != null ? ce.getCause() : ce,
                mayHaveBeenApplied, deduplicationToken);
    }

    private void checkOpen() {
        if (done) {
            throw new IllegalStateException("insert is already finished or abandoned");
        }
    }

    /**
     * The outcome is decided: give the connection back (once), then add this statement's figures to
     * the insert call's observation (which the call ends once all its statements have).
     */
    private void end() {
        if (!done) {
            done = true;
            lease.close();
            if (op != null) {
                op.insertEnded(reader.progress(), reader.insertedRows(), reader.insertedBytes(), rowsSent);
            }
        }
    }

    /** Abandons an unfinished insert (the connection is discarded); no-op after {@link #finish()}. */
    @Override
    public void close() {
        if (!done) {
            conn.fail(new ClickHouseException("insert abandoned before finish()"));
            end();
        }
    }
}
