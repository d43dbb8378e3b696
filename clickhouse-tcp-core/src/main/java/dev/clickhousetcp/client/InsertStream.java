package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.types.ColumnWriter;
import dev.clickhousetcp.types.DataType;

import java.io.IOException;

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
 * wrote is not rolled back, so use insert deduplication for retries). Not thread-safe.
 */
public final class InsertStream implements AutoCloseable {
    private final ClickHouseConnection conn;
    private final ResponseReader reader;
    private final Runnable onDone;
    private final Block header;
    private final String[] names;
    private final DataType[] types;
    private boolean done;
    private long rowsSent;

    /** Reads the insert header; on failure throws without running {@code onDone} (the caller releases). */
    InsertStream(ClickHouseConnection conn, QueryListener listener, Runnable onDone) {
        this.conn = conn;
        this.reader = new ResponseReader(conn, listener);
        this.onDone = onDone;
        Block h;
        try {
            h = reader.next(Lifetime.FOREVER);
        } catch (ClickHouseServerException e) {
            done = true;
            throw e;
        } catch (IOException | RuntimeException e) {
            done = true;
            throw conn.fail(e);
        }
        if (h == null) {
            done = true;
            throw new ClickHouseProtocolException("server ended the INSERT without sending its header block "
                    + "(was the statement an INSERT ... VALUES without inline rows?)");
        }
        this.header = h;
        this.names = h.names().toArray(new String[0]);
        this.types = new DataType[names.length];
        for (int i = 0; i < names.length; i++) {
            types[i] = h.column(i).type();
        }
    }

    /** Column names in the order the server expects them. */
    public List<String> columnNames() {
        return Collections.unmodifiableList(List.of(names));
    }

    /** Column types in order. */
    public List<DataType> columnTypes() {
        return List.of(types);
    }

    /** The header block (zero rows). */
    public Block header() {
        return header;
    }

    /** Column description text from a TableColumns packet, if the server sent one. */
    public String tableColumnsDescription() {
        return reader.tableColumns();
    }

    /** Fresh writers, one per header column, in header order. */
    public ColumnWriter[] newWriters() {
        ColumnWriter[] w = new ColumnWriter[types.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = types[i].newWriter();
        }
        return w;
    }

    /**
     * Sends one Data block built from {@code writers} (all with {@code rows} values), then resets the
     * writers for reuse.
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
        try {
            conn.blocks().writeData(conn.revision(), names, writers, rows); // compressed when the query is
            conn.out().flush();
            rowsSent += rows;
        } catch (IOException | RuntimeException e) {
            done = true;
            ClickHouseException ce = conn.fail(e);
            onDone.run();
            throw ce;
        }
        for (ColumnWriter w : writers) {
            w.reset();
        }
    }

    /** Rows sent so far. */
    public long rowsSent() {
        return rowsSent;
    }

    /**
     * Ends the data stream and waits for the server to confirm.
     *
     * @return the server's accumulated progress (written rows/bytes)
     * @throws ClickHouseServerException when the server rejects the data (nothing is reported written)
     */
    public Progress finish() {
        checkOpen();
        try {
            conn.blocks().writeEmptyData();
            conn.out().flush();
            while (true) {
                Lifetime l = new Lifetime("an insert response block");
                Block b = reader.next(l);
                l.release();
                if (b == null) {
                    break;
                }
            }
            return reader.progress();
        } catch (ClickHouseServerException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw conn.fail(e);
        } finally {
            done = true;
            onDone.run();
        }
    }

    private void checkOpen() {
        if (done) {
            throw new IllegalStateException("insert is already finished or abandoned");
        }
    }

    /** Abandons an unfinished insert (the connection is discarded); no-op after {@link #finish()}. */
    @Override
    public void close() {
        if (!done) {
            done = true;
            conn.fail(new ClickHouseException("insert abandoned before finish()"));
            onDone.run();
        }
    }

}
