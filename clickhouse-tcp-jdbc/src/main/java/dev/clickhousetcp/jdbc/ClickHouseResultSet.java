package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.FixedStringColumn;
import dev.clickhousetcp.data.NullableColumn;
import dev.clickhousetcp.data.TemporalColumn;
import dev.clickhousetcp.data.VariableBytesColumn;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.net.InetAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Struct;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Calendar;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A forward-only, read-only ResultSet over the native block stream: one block in memory at a time, typed
 * getters read the column views directly (no boxing for {@code getLong}, {@code getInt}, {@code getDouble}).
 * {@link #close()} before the end sends Cancel and drains the response (the connection stays usable).
 * Not thread-safe.
 */
final class ClickHouseResultSet implements ResultSet {
    private final ClickHouseStatement statement;
    private final QueryResult result;
    private final Block header;
    private final String[] types;
    /** The columns whose getObject is their JSON text (JSON and Object('json'), as getColumnClassName says). */
    private final boolean[] jsonText;
    /**
     * Per column, the label object {@link #findColumn} last answered with it (or null): a repeated lookup with the
     * same String instance skips the comparisons.
     */
    private final String[] labels;
    /** The result set's metadata, made on first use. */
    private ResultSetMetaData metaData;
    private final long maxRows;
    private final String queryId;
    /** The thread that ran the query (the one expected to read it). */
    private final Thread owner = Thread.currentThread();
    /** Blocks copied out of the stream when another statement needed the session. */
    private final Deque<Block> buffered = new ArrayDeque<>();
    /**
     * Guards the stream: another statement of the connection may buffer it ({@link #bufferRest}) from another
     * thread while this result set's reader fetches the next block.
     */
    private final java.util.concurrent.locks.ReentrantLock streamLock = new java.util.concurrent.locks.ReentrantLock();
    private Block block;
    private int row = -1;
    private long returned;
    private volatile boolean ended;
    private volatile boolean closed;
    private boolean wasNull;
    private boolean afterLast;
    private long bufferedBytes;

    ClickHouseResultSet(ClickHouseStatement statement, QueryResult result, Block header, Block first, long maxRows,
                        String queryId) {
        this.statement = statement;
        this.result = result;
        this.header = header;
        this.block = first;
        this.maxRows = maxRows;
        this.queryId = queryId;
        this.ended = result == null || first == null;
        this.types = new String[header.columnCount()];
        this.jsonText = new boolean[types.length];
        this.labels = new String[types.length];
        for (int i = 0; i < types.length; i++) {
            types[i] = header.column(i).type().name();
            String family = JdbcTypes.family(types[i]);
            jsonText[i] = family.equals("JSON") || family.equals("Object");
        }
        if (ended && result != null) {
            finishStream();
        }
    }

    /** The detached header (names and types, zero rows) this result was built with. */
    Block header() {
        return header;
    }

    /** A result of no rows with the columns of {@code header} (a detached block), read without the server. */
    static ClickHouseResultSet empty(ClickHouseStatement statement, Block header) {
        return new ClickHouseResultSet(statement, null, header, null, 0, null);
    }

    /**
     * A result of the rows of {@code rows} (a detached block built by the driver, e.g. a metadata answer), read
     * without the server.
     */
    static ClickHouseResultSet of(ClickHouseStatement statement, Block rows) {
        return new ClickHouseResultSet(statement, null, rows, rows, 0, null);
    }

    /** An empty result with no columns (generated keys). */
    static ClickHouseResultSet empty(ClickHouseStatement statement) {
        return new ClickHouseResultSet(statement, null, new Block(new String[0], new Column[0], 0,
                dev.clickhousetcp.data.Lifetime.FOREVER), null, 0, null);
    }

    private void finishStream() {
        if (result != null) {
            result.close();
            statement.resultEnded(this);
        }
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("the result set is closed", "HY010");
        }
    }

    /** The next block of the stream, or {@code null} at its end. */
    private Block fetch() throws SQLException {
        streamLock.lock();
        try {
            return fetchLocked();
        } finally {
            streamLock.unlock();
        }
    }

    private Block fetchLocked() throws SQLException {
        if (closed) {
            // closed by another thread (its connection closed or aborted) while this reader waited: the rows so
            // far are not the whole result
            throw new SQLException("the result set was closed while it was read", "HY010");
        }
        Block b = buffered.poll();
        if (b != null) {
            bufferedBytes -= approximateBytes(b);
            return b;
        }
        if (ended) {
            return null;
        }
        try {
            b = result.next();
        } catch (RuntimeException e) {
            ended = true;
            finishStream();
            throw SqlStates.translate(e, queryId, false);
        }
        if (b == null) {
            ended = true;
            boolean cancelled = result.isCancelled();
            finishStream();
            if (cancelled) {
                throw ClickHouseStatement.cancelled(queryId);
            }
        }
        return b;
    }

    /**
     * Copies the rest of the stream into memory, so that another statement can use the session.
     *
     * @param limitBytes the most the copies may hold
     * @throws SQLException 24000 beyond {@code limitBytes} (what was copied stays readable, the rest still streams)
     */
    void bufferRest(long limitBytes) throws SQLException {
        streamLock.lock();
        try {
            bufferRestLocked(limitBytes);
        } finally {
            streamLock.unlock();
        }
    }

    private void bufferRestLocked(long limitBytes) throws SQLException {
        if (ended || closed) {
            return;
        }
        if (block != null) {
            block = block.copy(); // the stream releases its blocks as it moves on
        }
        try {
            Block b;
            while ((b = result.next()) != null) {
                Block copy = b.copy();
                buffered.add(copy);
                bufferedBytes += approximateBytes(copy);
                if (bufferedBytes > limitBytes) {
                    throw new SQLException("another statement needs this connection while a ResultSet still streams "
                            + "more than busyBufferBytes (" + limitBytes + ") on it: close the open ResultSet first "
                            + "(it stays readable)", SqlStates.INVALID_CURSOR_STATE);
                }
            }
        } catch (RuntimeException e) {
            ended = true;
            finishStream();
            throw SqlStates.translate(e, queryId, false);
        }
        ended = true;
        finishStream();
    }

    /** The memory a detached block holds, roughly: its byte arrays, else 16 bytes a value. */
    private static long approximateBytes(Block b) {
        long total = 0;
        for (int i = 0; i < b.columnCount(); i++) {
            Column c = b.column(i);
            Column inner = c instanceof NullableColumn n ? n.nested() : c;
            if (inner instanceof VariableBytesColumn v) {
                total += v.rawData().length + 4L * b.rowCount();
            } else if (inner instanceof dev.clickhousetcp.data.FixedWidthColumn f) {
                total += (long) f.width() * b.rowCount();
            } else {
                total += 16L * b.rowCount();
            }
        }
        return total;
    }

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        if (afterLast) {
            return false;
        }
        if (maxRows > 0 && returned >= maxRows) {
            afterLast = true;
            block = null;
            closeStream();
            return false;
        }
        row++;
        // one read of the field: close() from another thread sets it to null at any moment (fetch then throws HY010)
        Block b = block;
        while (b == null || row >= b.rowCount()) {
            b = fetch();
            row = 0;
            if (b == null) {
                block = null;
                afterLast = true;
                return false;
            }
        }
        block = b;
        returned++;
        return true;
    }

    private void closeStream() {
        streamLock.lock();
        try {
            if (!ended) {
                ended = true;
                finishStream();
            }
            buffered.clear();
        } finally {
            streamLock.unlock();
        }
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        block = null;
        try {
            closeStream();
        } catch (RuntimeException e) {
            throw SqlStates.translate(e, queryId, false);
        }
        statement.resultSetClosed();
    }

    void closeQuietly() {
        try {
            close();
        } catch (SQLException | RuntimeException ignored) {
            // closing the connection anyway
        }
    }

    void cancelQuietly() {
        if (result != null) {
            result.cancel();
        }
    }

    Thread owner() {
        return owner;
    }

    boolean isClosedOrEnded() {
        return closed || ended;
    }

    // ------------------------------------------------------------------ column access

    private Column column(int columnIndex) throws SQLException {
        checkOpen();
        if (columnIndex < 1 || columnIndex > types.length) {
            throw new SQLException("column index " + columnIndex + " out of range 1.." + types.length, "07009");
        }
        Block b = block; // one read: close() from another thread may set it to null
        if (b == null || row < 0) {
            checkOpen();
            throw new SQLException(afterLast ? "the cursor is after the last row" : "the cursor is before the first row"
                    + " (call next())", SqlStates.INVALID_CURSOR_STATE);
        }
        Column c = b.column(columnIndex - 1);
        wasNull = c.isNull(row);
        return c;
    }

    private SQLException conversion(int columnIndex, String to, RuntimeException e) {
        return new SQLDataException("cannot read column " + columnIndex + " (" + types[columnIndex - 1] + ") as " + to
                + ": " + e.getMessage(), e instanceof ArithmeticException ? "22003" : "22018", 0, e);
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return wasNull;
    }

    @Override
    public String getString(int columnIndex) throws SQLException {
        Column c = column(columnIndex);
        return wasNull ? null : c.getString(row);
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        Column c = column(columnIndex);
        if (wasNull) {
            return false;
        }
        try {
            return c.getBoolean(row);
        } catch (UnsupportedOperationException e) {
            String s = c.getString(row).trim();
            if (s.equalsIgnoreCase("true") || s.equals("1")) {
                return true;
            }
            if (s.equalsIgnoreCase("false") || s.equals("0")) {
                return false;
            }
            throw conversion(columnIndex, "boolean", new IllegalArgumentException("'" + s + "'"));
        } catch (RuntimeException e) {
            throw conversion(columnIndex, "boolean", e);
        }
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        long v = getLong(columnIndex);
        if (v != (byte) v) {
            throw conversion(columnIndex, "byte", new ArithmeticException("value " + v + " out of range"));
        }
        return (byte) v;
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        long v = getLong(columnIndex);
        if (v != (short) v) {
            throw conversion(columnIndex, "short", new ArithmeticException("value " + v + " out of range"));
        }
        return (short) v;
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        Column c = column(columnIndex);
        if (wasNull) {
            return 0;
        }
        try {
            return c.getInt(row);
        } catch (UnsupportedOperationException e) {
            return (int) exactLong(columnIndex, c, Integer.MIN_VALUE, Integer.MAX_VALUE, "int");
        } catch (RuntimeException e) {
            throw conversion(columnIndex, "int", e);
        }
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        Column c = column(columnIndex);
        if (wasNull) {
            return 0;
        }
        try {
            long v = c.getLong(row);
            if (v < 0 && JdbcTypes.family(types[columnIndex - 1]).equals("UInt64")) {
                throw new ArithmeticException("UInt64 value " + Long.toUnsignedString(v) + " does not fit a long");
            }
            return v;
        } catch (UnsupportedOperationException e) {
            return exactLong(columnIndex, c, Long.MIN_VALUE, Long.MAX_VALUE, "long");
        } catch (RuntimeException e) {
            throw conversion(columnIndex, "long", e);
        }
    }

    /** An integer from a column without a primitive path (String, Decimal, big integers). */
    private long exactLong(int columnIndex, Column c, long min, long max, String to) throws SQLException {
        try {
            BigDecimal d = new BigDecimal(c.getString(row).trim());
            BigInteger i = d.toBigIntegerExact();
            if (i.compareTo(BigInteger.valueOf(min)) < 0 || i.compareTo(BigInteger.valueOf(max)) > 0) {
                throw new ArithmeticException("value " + i + " out of range");
            }
            return i.longValue();
        } catch (RuntimeException e) {
            throw conversion(columnIndex, to, e);
        }
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        return (float) getDouble(columnIndex);
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        Column c = column(columnIndex);
        if (wasNull) {
            return 0;
        }
        try {
            return c.getDouble(row);
        } catch (UnsupportedOperationException e) {
            try {
                return Double.parseDouble(c.getString(row).trim());
            } catch (RuntimeException p) {
                throw conversion(columnIndex, "double", p);
            }
        } catch (RuntimeException e) {
            throw conversion(columnIndex, "double", e);
        }
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        BigDecimal d = getBigDecimal(columnIndex);
        return d == null ? null : d.setScale(scale, RoundingMode.HALF_UP);
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        Column c = column(columnIndex);
        if (wasNull) {
            return null;
        }
        Object o = c.getObject(row);
        try {
            if (o instanceof BigDecimal d) {
                return d;
            }
            if (o instanceof BigInteger i) {
                return new BigDecimal(i);
            }
            if (o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte) {
                return BigDecimal.valueOf(((Number) o).longValue());
            }
            if (o instanceof Boolean b) {
                return b ? BigDecimal.ONE : BigDecimal.ZERO;
            }
            return new BigDecimal(c.getString(row).trim());
        } catch (RuntimeException e) {
            throw conversion(columnIndex, "BigDecimal", e);
        }
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        Column c = column(columnIndex);
        if (wasNull) {
            return null;
        }
        Column inner = c instanceof NullableColumn n ? n.nested() : c;
        if (inner instanceof VariableBytesColumn v) {
            return v.getBytes(row);
        }
        if (inner instanceof FixedStringColumn f) {
            return f.getBytes(row);
        }
        return c.getString(row).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        LocalDate d = getObject(columnIndex, LocalDate.class);
        return d == null ? null : Date.valueOf(d);
    }

    @Override
    public Time getTime(int columnIndex) throws SQLException {
        LocalTime t = getObject(columnIndex, LocalTime.class);
        return t == null ? null : Time.valueOf(t);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        return getObject(columnIndex, Timestamp.class);
    }

    @Override
    public InputStream getAsciiStream(int columnIndex) throws SQLException {
        byte[] b = getBytes(columnIndex);
        return b == null ? null : new ByteArrayInputStream(b);
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(int columnIndex) throws SQLException {
        throw SqlStates.notSupported("getUnicodeStream");
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        byte[] b = getBytes(columnIndex);
        return b == null ? null : new ByteArrayInputStream(b);
    }

    @Override
    public String getString(String columnLabel) throws SQLException {
        return getString(findColumn(columnLabel));
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        return getBoolean(findColumn(columnLabel));
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        return getByte(findColumn(columnLabel));
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        return getShort(findColumn(columnLabel));
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        return getInt(findColumn(columnLabel));
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        return getLong(findColumn(columnLabel));
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        return getFloat(findColumn(columnLabel));
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        return getDouble(findColumn(columnLabel));
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        return getBigDecimal(findColumn(columnLabel), scale);
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        return getBytes(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel) throws SQLException {
        return getDate(findColumn(columnLabel));
    }

    @Override
    public Time getTime(String columnLabel) throws SQLException {
        return getTime(findColumn(columnLabel));
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        return getTimestamp(findColumn(columnLabel));
    }

    @Override
    public InputStream getAsciiStream(String columnLabel) throws SQLException {
        return getAsciiStream(findColumn(columnLabel));
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(String columnLabel) throws SQLException {
        return getUnicodeStream(findColumn(columnLabel));
    }

    @Override
    public InputStream getBinaryStream(String columnLabel) throws SQLException {
        return getBinaryStream(findColumn(columnLabel));
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    @Override
    public String getCursorName() throws SQLException {
        throw SqlStates.notSupported("getCursorName");
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        ResultSetMetaData m = metaData;
        if (m == null) {
            // immutable, so one per result set: row mappers (Spring's BeanPropertyRowMapper) ask for it per row
            m = new ClickHouseResultSetMetaData(header.names(), types);
            metaData = m;
        }
        return m;
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        Column c = column(columnIndex);
        if (wasNull) {
            return null;
        }
        try {
            if (jsonText[columnIndex - 1]) {
                return c.getString(row);
            }
            Object v = c.getObject(row);
            // numbers and strings are their own JDBC value: skip the conversion's class tests (per row of a read)
            return v instanceof String || v instanceof Number ? v : JdbcTypes.toJdbc(v, types[columnIndex - 1]);
        } catch (RuntimeException e) {
            throw conversion(columnIndex, "Object", e);
        }
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return getObject(findColumn(columnLabel));
    }

    /** The first column with this label (exact, else ignoring case). */
    @Override
    public int findColumn(String columnLabel) throws SQLException {
        checkOpen();
        if (columnLabel == null) {
            return lookUp(null);
        }
        String[] seen = labels;
        for (int i = 0; i < seen.length; i++) {
            if (seen[i] == columnLabel) {
                return i + 1; // the same label object as an earlier lookup (row mappers ask per row)
            }
        }
        int found = lookUp(columnLabel);
        seen[found - 1] = columnLabel;
        return found;
    }

    private int lookUp(String columnLabel) throws SQLException {
        for (int i = 0; i < types.length; i++) {
            if (header.name(i).equals(columnLabel)) {
                return i + 1;
            }
        }
        for (int i = 0; i < types.length; i++) {
            if (header.name(i).equalsIgnoreCase(columnLabel)) {
                return i + 1;
            }
        }
        throw new SQLException("no column labelled '" + columnLabel + "' in " + header.names(), "42S22");
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new StringReader(s);
    }

    @Override
    public Reader getCharacterStream(String columnLabel) throws SQLException {
        return getCharacterStream(findColumn(columnLabel));
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        return getBigDecimal(findColumn(columnLabel));
    }

    // ------------------------------------------------------------------ cursor position

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        return returned == 0 && !afterLast && (block != null || !buffered.isEmpty() || !ended);
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return afterLast && returned > 0;
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return returned == 1 && !afterLast;
    }

    @Override
    public boolean isLast() throws SQLException {
        throw forwardOnly();
    }

    private static SQLException forwardOnly() {
        return new SQLException("ResultSet is TYPE_FORWARD_ONLY", SqlStates.INVALID_CURSOR_STATE);
    }

    @Override
    public void beforeFirst() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public void afterLast() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean first() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean last() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return afterLast ? 0 : (int) Math.min(Integer.MAX_VALUE, returned);
    }

    @Override
    public boolean absolute(int row) throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean relative(int rows) throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean previous() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != FETCH_FORWARD) {
            throw forwardOnly();
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return FETCH_FORWARD;
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw new SQLException("fetch size must not be negative", "HY024");
        }
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return 0;
    }

    @Override
    public int getType() throws SQLException {
        checkOpen();
        return TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() throws SQLException {
        checkOpen();
        return CONCUR_READ_ONLY;
    }

    // ------------------------------------------------------------------ updates: refused

    @Override
    public boolean rowUpdated() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public boolean rowInserted() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public boolean rowDeleted() throws SQLException {
        checkOpen();
        return false;
    }

    private static SQLException readOnly() {
        return SqlStates.notSupported("updatable result sets");
    }

    @Override
    public void updateNull(int columnIndex) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBoolean(int columnIndex, boolean x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateByte(int columnIndex, byte x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateShort(int columnIndex, short x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateInt(int columnIndex, int x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateLong(int columnIndex, long x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateFloat(int columnIndex, float x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateDouble(int columnIndex, double x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBigDecimal(int columnIndex, BigDecimal x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateString(int columnIndex, String x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBytes(int columnIndex, byte[] x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateDate(int columnIndex, Date x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateTime(int columnIndex, Time x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateTimestamp(int columnIndex, Timestamp x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(int columnIndex, InputStream x, int length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(int columnIndex, InputStream x, int length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(int columnIndex, Reader x, int length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(int columnIndex, Object x, int scaleOrLength) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(int columnIndex, Object x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNull(String columnLabel) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBoolean(String columnLabel, boolean x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateByte(String columnLabel, byte x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateShort(String columnLabel, short x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateInt(String columnLabel, int x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateLong(String columnLabel, long x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateFloat(String columnLabel, float x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateDouble(String columnLabel, double x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBigDecimal(String columnLabel, BigDecimal x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateString(String columnLabel, String x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBytes(String columnLabel, byte[] x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateDate(String columnLabel, Date x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateTime(String columnLabel, Time x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateTimestamp(String columnLabel, Timestamp x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(String columnLabel, InputStream x, int length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(String columnLabel, InputStream x, int length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(String columnLabel, Reader reader, int length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(String columnLabel, Object x, int scaleOrLength) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(String columnLabel, Object x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void insertRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void deleteRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void refreshRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void cancelRowUpdates() throws SQLException {
        throw readOnly();
    }

    @Override
    public void moveToInsertRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void moveToCurrentRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        return getObject(columnIndex);
    }

    @Override
    public Ref getRef(int columnIndex) throws SQLException {
        throw SqlStates.notSupported("getRef");
    }

    @Override
    public Blob getBlob(int columnIndex) throws SQLException {
        throw SqlStates.notSupported("getBlob");
    }

    @Override
    public Clob getClob(int columnIndex) throws SQLException {
        throw SqlStates.notSupported("getClob");
    }

    @Override
    public Array getArray(int columnIndex) throws SQLException {
        Object o = getObject(columnIndex);
        if (o == null || o instanceof Array) {
            return (Array) o;
        }
        throw new SQLDataException("column " + columnIndex + " (" + types[columnIndex - 1] + ") is not an Array", "22018");
    }

    @Override
    public Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        return getObject(findColumn(columnLabel));
    }

    @Override
    public Ref getRef(String columnLabel) throws SQLException {
        throw SqlStates.notSupported("getRef");
    }

    @Override
    public Blob getBlob(String columnLabel) throws SQLException {
        throw SqlStates.notSupported("getBlob");
    }

    @Override
    public Clob getClob(String columnLabel) throws SQLException {
        throw SqlStates.notSupported("getClob");
    }

    @Override
    public Array getArray(String columnLabel) throws SQLException {
        return getArray(findColumn(columnLabel));
    }

    @Override
    public Date getDate(int columnIndex, Calendar cal) throws SQLException {
        LocalDate d = getObject(columnIndex, LocalDate.class);
        if (d == null || cal == null) {
            return d == null ? null : Date.valueOf(d);
        }
        return new Date(d.atStartOfDay(cal.getTimeZone().toZoneId()).toInstant().toEpochMilli());
    }

    @Override
    public Date getDate(String columnLabel, Calendar cal) throws SQLException {
        return getDate(findColumn(columnLabel), cal);
    }

    @Override
    public Time getTime(int columnIndex, Calendar cal) throws SQLException {
        return getTime(columnIndex);
    }

    @Override
    public Time getTime(String columnLabel, Calendar cal) throws SQLException {
        return getTime(findColumn(columnLabel), cal);
    }

    /** The stored instant whatever the calendar (DateTime values are instants). */
    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        return getTimestamp(columnIndex);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        return getTimestamp(findColumn(columnLabel), cal);
    }

    @Override
    public URL getURL(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        try {
            return s == null ? null : new java.net.URI(s).toURL();
        } catch (Exception e) {
            throw new SQLDataException("not a URL: " + e.getMessage(), "22018", e);
        }
    }

    @Override
    public URL getURL(String columnLabel) throws SQLException {
        return getURL(findColumn(columnLabel));
    }

    @Override
    public void updateRef(int columnIndex, Ref x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateRef(String columnLabel, Ref x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(int columnIndex, Blob x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(String columnLabel, Blob x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(int columnIndex, Clob x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(String columnLabel, Clob x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateArray(int columnIndex, Array x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateArray(String columnLabel, Array x) throws SQLException {
        throw readOnly();
    }

    @Override
    public RowId getRowId(int columnIndex) throws SQLException {
        throw SqlStates.notSupported("getRowId");
    }

    @Override
    public RowId getRowId(String columnLabel) throws SQLException {
        throw SqlStates.notSupported("getRowId");
    }

    @Override
    public void updateRowId(int columnIndex, RowId x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateRowId(String columnLabel, RowId x) throws SQLException {
        throw readOnly();
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void updateNString(int columnIndex, String nString) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNString(String columnLabel, String nString) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(int columnIndex, NClob nClob) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(String columnLabel, NClob nClob) throws SQLException {
        throw readOnly();
    }

    @Override
    public NClob getNClob(int columnIndex) throws SQLException {
        throw SqlStates.notSupported("getNClob");
    }

    @Override
    public NClob getNClob(String columnLabel) throws SQLException {
        throw SqlStates.notSupported("getNClob");
    }

    @Override
    public SQLXML getSQLXML(int columnIndex) throws SQLException {
        throw SqlStates.notSupported("getSQLXML");
    }

    @Override
    public SQLXML getSQLXML(String columnLabel) throws SQLException {
        throw SqlStates.notSupported("getSQLXML");
    }

    @Override
    public void updateSQLXML(int columnIndex, SQLXML xmlObject) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateSQLXML(String columnLabel, SQLXML xmlObject) throws SQLException {
        throw readOnly();
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return getString(columnIndex);
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        return getString(columnLabel);
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        return getCharacterStream(columnIndex);
    }

    @Override
    public Reader getNCharacterStream(String columnLabel) throws SQLException {
        return getCharacterStream(columnLabel);
    }

    @Override
    public void updateNCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(String columnLabel, Reader reader, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(int columnIndex, InputStream x, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(int columnIndex, InputStream x, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(String columnLabel, InputStream x, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(String columnLabel, InputStream x, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(String columnLabel, Reader reader, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(int columnIndex, InputStream inputStream, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(String columnLabel, InputStream inputStream, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(int columnIndex, Reader reader, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(String columnLabel, Reader reader, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(int columnIndex, Reader reader, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(String columnLabel, Reader reader, long length) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(int columnIndex, Reader x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(String columnLabel, Reader reader) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(int columnIndex, InputStream x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(int columnIndex, InputStream x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(int columnIndex, Reader x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(String columnLabel, InputStream x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(String columnLabel, InputStream x) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(String columnLabel, Reader reader) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(int columnIndex, InputStream inputStream) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(String columnLabel, InputStream inputStream) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(int columnIndex, Reader reader) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(String columnLabel, Reader reader) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(int columnIndex, Reader reader) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(String columnLabel, Reader reader) throws SQLException {
        throw readOnly();
    }

    // ------------------------------------------------------------------ getObject(i, Class)

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        if (type == null) {
            throw new SQLException("type must not be null", "HY009");
        }
        Column c = column(columnIndex);
        if (wasNull) {
            return null;
        }
        try {
            return type.cast(convert(columnIndex, c, type));
        } catch (ClassCastException | UnsupportedOperationException | IllegalArgumentException
                 | java.time.DateTimeException | ArithmeticException e) {
            // ArithmeticException: a value that does not fit the class (a fraction as BigInteger): 22003
            throw conversion(columnIndex, type.getName(), e);
        }
    }

    private Object convert(int columnIndex, Column c, Class<?> type) throws SQLException {
        if (type == String.class) {
            return c.getString(row);
        }
        if (type == Long.class || type == long.class) {
            return getLong(columnIndex);
        }
        if (type == Integer.class || type == int.class) {
            return getInt(columnIndex);
        }
        if (type == Short.class || type == short.class) {
            return getShort(columnIndex);
        }
        if (type == Byte.class || type == byte.class) {
            return getByte(columnIndex);
        }
        if (type == Double.class || type == double.class) {
            return getDouble(columnIndex);
        }
        if (type == Float.class || type == float.class) {
            return getFloat(columnIndex);
        }
        if (type == Boolean.class || type == boolean.class) {
            return getBoolean(columnIndex);
        }
        if (type == BigDecimal.class) {
            return getBigDecimal(columnIndex);
        }
        if (type == BigInteger.class) {
            Object o = c.getObject(row);
            if (o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte) {
                return BigInteger.valueOf(((Number) o).longValue()); // what getBigDecimal(i).toBigIntegerExact() gives
            }
            return o instanceof BigInteger b ? b : getBigDecimal(columnIndex).toBigIntegerExact();
        }
        if (type == byte[].class) {
            return getBytes(columnIndex);
        }
        Column inner = c instanceof NullableColumn n ? n.nested() : c;
        if (inner instanceof TemporalColumn t) {
            Object v = temporal(t, type);
            if (v != null) {
                return v;
            }
        }
        Object raw = c.getObject(row);
        if (type == Instant.class || type == Timestamp.class || type == java.util.Date.class
                || type == OffsetDateTime.class || type == ZonedDateTime.class) {
            ZonedDateTime z = zoned(inner, raw);
            if (z == null) {
                throw new IllegalArgumentException("not a date-time");
            }
            if (type == Instant.class) {
                return z.toInstant();
            }
            if (type == OffsetDateTime.class) {
                return z.toOffsetDateTime();
            }
            if (type == ZonedDateTime.class) {
                return z;
            }
            return Timestamp.from(z.toInstant());
        }
        if (type == LocalDateTime.class) {
            if (inner instanceof TemporalColumn t) {
                return t.getLocalDateTime(row);
            }
            if (raw instanceof LocalDate d) {
                return d.atStartOfDay();
            }
            return LocalDateTime.parse(c.getString(row).trim().replace(' ', 'T'));
        }
        if (type == LocalDate.class || type == Date.class) {
            LocalDate d;
            if (raw instanceof LocalDate l) {
                d = l;
            } else if (inner instanceof TemporalColumn t) {
                d = t.getLocalDate(row);
            } else {
                d = LocalDate.parse(c.getString(row).trim());
            }
            return type == Date.class ? Date.valueOf(d) : d;
        }
        if (type == LocalTime.class || type == Time.class) {
            LocalTime t;
            if (raw instanceof Duration d) {
                if (d.isNegative() || d.compareTo(Duration.ofDays(1)) >= 0) {
                    throw new SQLDataException("time " + d + " is outside a day", "22008");
                }
                t = LocalTime.ofNanoOfDay(d.toNanos());
            } else if (inner instanceof TemporalColumn tc) {
                t = tc.getLocalDateTime(row).toLocalTime();
            } else {
                t = LocalTime.parse(c.getString(row).trim());
            }
            return type == Time.class ? Time.valueOf(t) : t;
        }
        if (type == Duration.class && raw instanceof Duration d) {
            return d;
        }
        if (type == UUID.class) {
            return raw instanceof UUID u ? u : UUID.fromString(c.getString(row).trim());
        }
        if (InetAddress.class.isAssignableFrom(type) && raw instanceof InetAddress a) {
            return a;
        }
        if (type == Array.class || type == Struct.class) {
            return JdbcTypes.toJdbc(raw, types[columnIndex - 1]);
        }
        if (type == List.class && raw instanceof List<?> l) {
            return l;
        }
        if (type == Object[].class && raw instanceof List<?> l) {
            return l.toArray();
        }
        if (type.isArray() && raw instanceof List<?> l && type.getComponentType().isPrimitive()) {
            return primitiveArray(l, type.getComponentType());
        }
        if (type == Map.class && raw instanceof Map<?, ?> m) {
            return m;
        }
        Object jdbc = JdbcTypes.toJdbc(raw, types[columnIndex - 1]);
        if (type.isInstance(jdbc)) {
            return jdbc;
        }
        if (type.isInstance(raw)) {
            return raw;
        }
        throw new SQLDataException("cannot read column " + columnIndex + " (" + types[columnIndex - 1] + ") as "
                + type.getName(), "22018");
    }

    /**
     * A DateTime or DateTime64 value as one of the java.time or java.sql date-time classes, read from the column
     * without its boxed {@code getObject} (a ZonedDateTime per row); the same value the general path gives, as
     * {@code getObject} of these columns is {@link TemporalColumn#getZonedDateTime}. {@code null} for other classes.
     */
    private Object temporal(TemporalColumn t, Class<?> type) {
        if (type == LocalDateTime.class) {
            return t.getLocalDateTime(row);
        }
        if (type == Instant.class) {
            return t.getInstant(row);
        }
        if (type == Timestamp.class || type == java.util.Date.class) {
            return Timestamp.from(t.getInstant(row));
        }
        if (type == OffsetDateTime.class) {
            return t.getOffsetDateTime(row);
        }
        if (type == ZonedDateTime.class) {
            return t.getZonedDateTime(row);
        }
        if (type == LocalDate.class) {
            return t.getLocalDate(row);
        }
        if (type == Date.class) {
            return Date.valueOf(t.getLocalDate(row));
        }
        if (type == LocalTime.class) {
            return t.getLocalDateTime(row).toLocalTime();
        }
        if (type == Time.class) {
            return Time.valueOf(t.getLocalDateTime(row).toLocalTime());
        }
        return null;
    }

    private ZonedDateTime zoned(Column inner, Object raw) {
        if (raw instanceof ZonedDateTime z) {
            return z;
        }
        if (inner instanceof TemporalColumn t) {
            return t.getZonedDateTime(row);
        }
        if (raw instanceof LocalDate d) {
            return d.atStartOfDay(ZoneId.of("UTC"));
        }
        return null;
    }

    private static Object primitiveArray(List<?> l, Class<?> component) {
        Object out = java.lang.reflect.Array.newInstance(component, l.size());
        for (int i = 0; i < l.size(); i++) {
            Object v = l.get(i);
            if (component == long.class) {
                java.lang.reflect.Array.setLong(out, i, ((Number) v).longValue());
            } else if (component == int.class) {
                java.lang.reflect.Array.setInt(out, i, ((Number) v).intValue());
            } else if (component == short.class) {
                java.lang.reflect.Array.setShort(out, i, ((Number) v).shortValue());
            } else if (component == byte.class) {
                java.lang.reflect.Array.setByte(out, i, ((Number) v).byteValue());
            } else if (component == double.class) {
                java.lang.reflect.Array.setDouble(out, i, ((Number) v).doubleValue());
            } else if (component == float.class) {
                java.lang.reflect.Array.setFloat(out, i, ((Number) v).floatValue());
            } else if (component == boolean.class) {
                java.lang.reflect.Array.setBoolean(out, i, (Boolean) v);
            } else {
                throw new IllegalArgumentException("no conversion to " + component + "[]");
            }
        }
        return out;
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return getObject(findColumn(columnLabel), type);
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Wrappers.unwrap(iface, this, result);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return Wrappers.isWrapperFor(iface, this, result);
    }

    @Override
    public String toString() {
        return "ClickHouseResultSet[" + Arrays.toString(types) + (queryId == null ? "" : ", query_id " + queryId) + "]";
    }

    @Override
    public void updateObject(int columnIndex, Object x, java.sql.SQLType targetSqlType) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(int columnIndex, Object x, java.sql.SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(String columnLabel, Object x, java.sql.SQLType targetSqlType) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(String columnLabel, Object x, java.sql.SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        throw readOnly();
    }
}
