package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.client.InsertStream;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.protocol.Progress;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.BatchUpdateException;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A prepared statement: {@code ?} placeholders (found by {@link SqlLexer}, never inside literals, identifiers or
 * comments) are sent as server-side typed query parameters {@code {pN:Type}} where the server takes them, and
 * as escaped SQL literals elsewhere (DDL, {@code SET}, servers below protocol revision 54459). A plain
 * {@code INSERT INTO t [(cols)] VALUES (?, ...)} runs as a native insert: its rows travel as Data blocks typed
 * from the server's insert header. Nothing is sent before an execute. Not thread-safe, except {@link #cancel()}.
 */
final class ClickHousePreparedStatement extends ClickHouseStatement implements PreparedStatement {
    /** The first protocol revision whose Query packet carries parameters (ClickHouse src/Core/ProtocolDefines.h). */
    static final long PARAMETERS_REVISION = 54459;
    private static final Object UNSET = new Object();
    /** In {@code values}: the parameter's value is the primitive in {@code bits}, of the kind in {@code kinds}. */
    private static final Object PRIMITIVE = new Object();
    private static final byte LONG = 1;
    private static final byte DOUBLE = 2;
    /** Statements whose text the server reads with query parameters. */
    private static final Set<String> TAKES_PARAMETERS = Set.of("SELECT", "WITH", "INSERT", "DELETE", "UPDATE",
            "SHOW", "DESCRIBE", "DESC", "EXPLAIN", "EXISTS", "");

    private final String sql;
    private String text;
    private int[] placeholders;
    private InsertShape insert;
    /** An INSERT whose VALUES hold expressions or several groups, else {@code null}. */
    private ExpressionInsert expressions;
    private Object[] values;
    private int[] nullTypes;
    private long[] bits;
    private byte[] kinds;
    /** The batch of a statement that is not a native insert: one row of values per addBatch. */
    private final List<Object[]> batch = new ArrayList<>();
    /** The batch of a native insert, column by column (null for other statements), and its row count. */
    private BatchColumn[] columns;
    private int batchRows;
    private ResultSetMetaData described;

    ClickHousePreparedStatement(ClickHouseJdbcConnection conn, String sql) throws SQLException {
        super(conn);
        if (sql == null) {
            throw new SQLException("sql must not be null", "HY009");
        }
        this.sql = sql;
        analyze();
    }

    private void analyze() throws SQLException {
        text = prepareText(sql);
        placeholders = SqlLexer.placeholders(text);
        insert = InsertShape.of(text);
        expressions = insert == null ? ExpressionInsert.of(text, placeholders.length) : null;
        values = new Object[placeholders.length];
        Arrays.fill(values, UNSET);
        nullTypes = new int[placeholders.length];
        bits = new long[placeholders.length];
        kinds = new byte[placeholders.length];
        batch.clear();
        batchRows = 0;
        columns = null;
        if (nativeInsert()) {
            columns = newColumns(placeholders.length);
        }
        described = null;
    }

    /** Whether the statement runs as a native insert: a plain INSERT ... VALUES whose values are all placeholders. */
    private boolean nativeInsert() {
        return insert != null && insert.parameters() == placeholders.length;
    }

    private static BatchColumn[] newColumns(int n) {
        BatchColumn[] c = new BatchColumn[n];
        for (int i = 0; i < n; i++) {
            c[i] = new BatchColumn();
        }
        return c;
    }

    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        boolean changed = enable != escapeProcessing;
        super.setEscapeProcessing(enable);
        if (changed) {
            analyze();
        }
    }

    private void set(int index, Object value, int sqlType) throws SQLException {
        checkIndex(index);
        // a String or NULL is its own normal form: skip the chain of class tests (per value of a batch)
        values[index - 1] = value == null || value instanceof String ? value : JdbcValues.normalize(value);
        nullTypes[index - 1] = sqlType;
    }

    /** Sets a {@code long} (kind LONG) or a {@code double}'s raw bits (kind DOUBLE) without boxing it. */
    private void setPrimitive(int index, long value, byte kind, int sqlType) throws SQLException {
        checkIndex(index);
        values[index - 1] = PRIMITIVE;
        bits[index - 1] = value;
        kinds[index - 1] = kind;
        nullTypes[index - 1] = sqlType;
    }

    private void checkIndex(int index) throws SQLException {
        checkOpen();
        if (index < 1 || index > values.length) {
            throw new SQLException("parameter index " + index + " out of range: the statement has " + values.length
                    + " placeholders", "07009");
        }
    }

    /** Parameter {@code i}'s (0-based) value, boxed; {@link #UNSET} when not set. */
    private Object value(int i) {
        if (values[i] != PRIMITIVE) {
            return values[i];
        }
        return kinds[i] == LONG ? (Object) bits[i] : (Object) Double.longBitsToDouble(bits[i]);
    }

    private void checkAllSet() throws SQLException {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == UNSET) {
                throw new SQLException("parameter " + (i + 1) + " is not set", "07001");
            }
        }
    }

    private Object[] boundRow() throws SQLException {
        checkAllSet();
        Object[] row = new Object[values.length];
        for (int i = 0; i < row.length; i++) {
            row[i] = value(i);
        }
        return row;
    }

    /** Appends the bound values to the native insert's batch columns, primitives unboxed. */
    private void addRow(BatchColumn[] to) throws SQLException {
        checkAllSet();
        for (int i = 0; i < values.length; i++) {
            if (values[i] != PRIMITIVE) {
                to[i].add(values[i]);
            } else if (kinds[i] == LONG) {
                to[i].addLong(bits[i]);
            } else {
                to[i].addDouble(Double.longBitsToDouble(bits[i]));
            }
        }
    }

    /**
     * Per placeholder, whether it travels as a server-side parameter: by the {@code parameterMode} property, and in
     * {@code auto} mode by the server's revision and the first word of the statement holding it (a text split
     * with {@code multiStatement=split} decides statement by statement).
     */
    private boolean[] serverParameters() {
        boolean[] server = new boolean[placeholders.length];
        String mode = conn.config.choice(DriverProperty.PARAMETER_MODE);
        if (!mode.equals("auto")) {
            Arrays.fill(server, mode.equals("server"));
            return server;
        }
        if (conn.hello.revision() < PARAMETERS_REVISION) {
            return server;
        }
        int start = 0;
        int p = 0;
        int i = 0;
        while (p < placeholders.length) {
            int j = i < text.length() ? SqlLexer.skip(text, i) : i;
            if (j != i) {
                i = j;
                continue;
            }
            if (i >= text.length() || text.charAt(i) == ';') {
                boolean takes = TAKES_PARAMETERS.contains(SqlLexer.firstWord(text.substring(start, i)));
                while (p < placeholders.length && placeholders[p] < i) {
                    server[p++] = takes;
                }
                start = i + 1;
                if (i >= text.length()) {
                    break;
                }
            }
            i++;
        }
        return server;
    }

    /** Runs the statement text with one row of values. */
    private boolean runWith(Object[] row) throws SQLException {
        if (placeholders.length == 0) {
            return run(text, null);
        }
        StringBuilder out = new StringBuilder(text.length() + 16 * placeholders.length);
        int last = 0;
        boolean[] server = serverParameters();
        Map<String, Object> params = new LinkedHashMap<>();
        boolean hasBool = conn.hello.revision() >= PARAMETERS_REVISION;
        for (int i = 0; i < placeholders.length; i++) {
            out.append(text, last, placeholders[i]);
            if (server[i] && !(row[i] instanceof byte[])) { // bytes: a binary-safe literal, see JdbcValues.literal
                String name = "p" + (i + 1);
                out.append('{').append(name).append(':').append(JdbcValues.parameterType(row[i], nullTypes[i]))
                        .append('}');
                params.put(name, row[i] instanceof Enum<?> e ? e.name() : row[i]);
            } else {
                String literal = JdbcValues.literal(row[i], hasBool);
                if (literal.startsWith("-")) {
                    out.append(' '); // so a preceding '-' never makes "--", a comment to the end of the line
                }
                out.append(literal);
            }
            last = placeholders[i] + 1;
        }
        out.append(text, last, text.length());
        return run(out.toString(), params.isEmpty() ? null : params);
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        if (!execute()) {
            throw new SQLException("the statement returned no result set (use executeUpdate or execute)", "07000");
        }
        return getResultSet();
    }

    @Override
    public int executeUpdate() throws SQLException {
        return clampCount(executeLargeUpdate());
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        if (execute()) {
            getResultSet().close();
            throw new SQLException("the statement returned a result set (use executeQuery or execute)", "07000");
        }
        return Math.max(0, getLargeUpdateCount());
    }

    @Override
    public boolean execute() throws SQLException {
        checkOpen();
        if (columns != null) {
            BatchColumn[] one = newColumns(values.length);
            addRow(one);
            insertRows(one, 1);
            setUpdateCount(1);
            return false;
        }
        if (expressions != null) {
            long[] counts;
            try {
                counts = expressions.execute(this, List.<Object[]>of(boundRow()));
            } catch (BatchUpdateException e) {
                throw e.getCause() instanceof SQLException cause ? cause : e;
            }
            setUpdateCount(counts[0] == SUCCESS_NO_INFO ? expressions.rowsPerParameterRow() : counts[0]);
            return false;
        }
        return runWith(boundRow());
    }

    /** The {@link Types} the value of placeholder {@code index} (0-based) was last set with. */
    int nullType(int index) {
        return nullTypes[index];
    }

    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        if (columns != null) {
            addRow(columns);
            batchRows++;
        } else {
            batch.add(boundRow());
        }
    }

    @Override
    public void clearBatch() throws SQLException {
        super.clearBatch();
        clearRows();
    }

    private void clearRows() {
        batch.clear();
        if (columns != null) {
            for (BatchColumn c : columns) {
                c.clear();
            }
        }
        batchRows = 0;
    }

    /** A native insert's batch fills its int[] counts directly (no long[] of a count per row in between). */
    @Override
    public int[] executeBatch() throws SQLException {
        if (columns == null) {
            return super.executeBatch();
        }
        checkOpen();
        int n = batchRows;
        try {
            int[] counts = new int[n];
            if (n > 0) {
                Arrays.fill(counts, (int) insertRows(columns, n));
            }
            return counts;
        } finally {
            clearRows();
        }
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        if (columns != null) {
            int n = batchRows;
            try {
                long[] counts = new long[n];
                if (n > 0) {
                    Arrays.fill(counts, insertRows(columns, n));
                }
                return counts;
            } finally {
                clearRows();
            }
        }
        List<Object[]> rows = new ArrayList<>(batch);
        batch.clear();
        if (rows.isEmpty()) {
            return new long[0];
        }
        if (expressions != null) {
            return expressions.execute(this, rows);
        }
        long[] counts = new long[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            try {
                boolean resultSet = runWith(rows.get(i));
                long count = 0;
                while (true) { // every statement of a text split with multiStatement=split
                    if (resultSet) {
                        getResultSet().close();
                        throw new SQLException("row " + (i + 1) + " of the batch returned a result set", "07000");
                    }
                    long n = getLargeUpdateCount();
                    if (n == -1) {
                        break;
                    }
                    count += n;
                    resultSet = getMoreResults();
                }
                counts[i] = count;
            } catch (SQLException e) {
                throw new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(),
                        Arrays.copyOf(counts, i), e);
            }
        }
        return counts;
    }

    /**
     * Sends the first {@code rows} rows of {@code cols} as one native INSERT, in blocks of {@code insertBlockRows}. A value the column type
     * cannot take ends the insert cleanly after the blocks sent so far (the connection stays usable) and throws
     * {@link BatchUpdateException} whose counts say which rows were written.
     *
     * @return the update count of every row: 1, or {@link #SUCCESS_NO_INFO} when the server's written-row count
     *         differs from the rows sent
     */
    private long insertRows(BatchColumn[] cols, int rows) throws SQLException {
        String queryId = UUID.randomUUID().toString();
        QueryOptions.Builder o = QueryOptions.builder().queryId(queryId);
        if (getQueryTimeout() > 0) {
            o.timeout(Duration.ofSeconds(getQueryTimeout()));
        }
        QueryOptions options = o.build();
        int blockRows = conn.config.positiveInt(DriverProperty.INSERT_BLOCK_ROWS);
        long[] sentRows = new long[1];
        SQLException[] rejected = new SQLException[1];
        Progress progress;
        conn.lock.lock();
        try {
            conn.checkOpen();
            conn.beforeQuery(null);
            progress = conn.session.withConnection(c -> {
                try (InsertStream ins = c.insert(insert.insertSql(), options)) {
                    ColumnWriter[] w = ins.newWriters();
                    if (w.length != insert.parameters()) {
                        rejected[0] = new SQLException("the INSERT has " + insert.parameters() + " placeholders but the "
                                + "server expects " + w.length + " columns " + ins.columnNames(), "21S01");
                        return ins.finish();
                    }
                    for (int from = 0; from < rows; from += blockRows) {
                        int to = (int) Math.min(rows, (long) from + blockRows);
                        // column by column; a refused value stops the block: the first refused row is reported
                        int failedRow = to;
                        int failedColumn = -1;
                        for (int i = 0; i < w.length; i++) {
                            int stop = cols[i].appendTo(w[i], from, failedRow);
                            if (stop < failedRow) {
                                failedRow = stop;
                                failedColumn = i;
                            }
                        }
                        if (failedColumn >= 0) {
                            rejected[0] = refused(cols[failedColumn], failedRow, ins.columnNames().get(failedColumn),
                                    w[failedColumn]);
                            for (ColumnWriter cw : w) {
                                cw.reset();
                            }
                            return ins.finish();
                        }
                        ins.sendBlock(w, to - from);
                        sentRows[0] += to - from;
                    }
                    return ins.finish();
                }
            });
        } catch (RuntimeException e) {
            throw batchFailure(SqlStates.translate(e, queryId, false), rows, 0);
        } finally {
            conn.lock.unlock();
        }
        if (sentRows[0] > 0) {
            conn.wrote();
        }
        if (rejected[0] != null) {
            throw batchFailure(rejected[0], rows, sentRows[0]);
        }
        // the server confirmed the insert; a written-row count it reports that differs from the rows sent
        // (materialized views, deduplicated blocks) makes the per-row counts unknown. Native inserts usually
        // report none (0), and the rows sent are then the count.
        long written = progress.writtenRows();
        return written == 0 || written == rows ? 1 : SUCCESS_NO_INFO;
    }

    /**
     * The error for a value column {@code name}'s writer refused at 0-based {@code row}: 22004 for a NULL in a
     * column without NULL, else 22018 (the value cannot be converted to the column type).
     */
    private static SQLException refused(BatchColumn col, int row, String name, ColumnWriter w) {
        ClickHouseTypeException e = col.failure();
        return new java.sql.SQLDataException("row " + (row + 1) + ", column '" + name + "' (" + w.type().name()
                + "): " + e.getMessage(), col.failedValue() == null ? "22004" : "22018", 0, e);
    }

    private static BatchUpdateException batchFailure(SQLException e, int rows, long written) {
        long[] counts = new long[rows];
        for (int i = 0; i < rows; i++) {
            counts[i] = i < written ? SUCCESS_NO_INFO : EXECUTE_FAILED;
        }
        return new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(), counts, e);
    }

    // ------------------------------------------------------------------ setters

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        set(parameterIndex, null, sqlType);
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        set(parameterIndex, null, sqlType);
    }

    @Override
    public void setBoolean(int parameterIndex, boolean x) throws SQLException {
        set(parameterIndex, x, Types.BOOLEAN);
    }

    @Override
    public void setByte(int parameterIndex, byte x) throws SQLException {
        set(parameterIndex, x, Types.TINYINT);
    }

    @Override
    public void setShort(int parameterIndex, short x) throws SQLException {
        set(parameterIndex, x, Types.SMALLINT);
    }

    @Override
    public void setInt(int parameterIndex, int x) throws SQLException {
        set(parameterIndex, x, Types.INTEGER);
    }

    @Override
    public void setLong(int parameterIndex, long x) throws SQLException {
        setPrimitive(parameterIndex, x, LONG, Types.BIGINT);
    }

    @Override
    public void setFloat(int parameterIndex, float x) throws SQLException {
        set(parameterIndex, x, Types.REAL);
    }

    @Override
    public void setDouble(int parameterIndex, double x) throws SQLException {
        setPrimitive(parameterIndex, Double.doubleToRawLongBits(x), DOUBLE, Types.DOUBLE);
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
        set(parameterIndex, x, Types.DECIMAL);
    }

    @Override
    public void setString(int parameterIndex, String x) throws SQLException {
        set(parameterIndex, x, Types.VARCHAR);
    }

    @Override
    public void setBytes(int parameterIndex, byte[] x) throws SQLException {
        set(parameterIndex, x, Types.VARBINARY);
    }

    @Override
    public void setDate(int parameterIndex, Date x) throws SQLException {
        set(parameterIndex, x, Types.DATE);
    }

    @Override
    public void setTime(int parameterIndex, Time x) throws SQLException {
        set(parameterIndex, x, Types.TIME);
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x) throws SQLException {
        set(parameterIndex, x, Types.TIMESTAMP);
    }

    /** The stream's bytes, at most {@code limit} of them ({@code -1}: all). */
    private static byte[] readAll(InputStream in, long limit) throws SQLException {
        try {
            return limit < 0 ? in.readAllBytes() : in.readNBytes((int) Math.min(limit, Integer.MAX_VALUE));
        } catch (IOException e) {
            throw new SQLException("cannot read the stream: " + e.getMessage(), "HY000", e);
        }
    }

    /** The reader's characters, at most {@code limit} of them ({@code -1}: all). */
    private static String readAll(Reader in, long limit) throws SQLException {
        try {
            java.io.StringWriter out = new java.io.StringWriter();
            if (limit < 0) {
                in.transferTo(out);
            } else {
                char[] buf = new char[8192];
                long left = limit;
                int n;
                while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
                    out.write(buf, 0, n);
                    left -= n;
                }
            }
            return out.toString();
        } catch (IOException e) {
            throw new SQLException("cannot read the stream: " + e.getMessage(), "HY000", e);
        }
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, int length) throws SQLException {
        setAsciiStream(parameterIndex, x, (long) length);
    }

    @Override
    @Deprecated
    public void setUnicodeStream(int parameterIndex, InputStream x, int length) throws SQLException {
        throw SqlStates.notSupported("setUnicodeStream");
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, int length) throws SQLException {
        setBinaryStream(parameterIndex, x, (long) length);
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        Arrays.fill(values, UNSET);
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        set(parameterIndex, x, targetSqlType);
    }

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        set(parameterIndex, x, Types.OTHER);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, int length) throws SQLException {
        setCharacterStream(parameterIndex, reader, (long) length);
    }

    @Override
    public void setRef(int parameterIndex, Ref x) throws SQLException {
        throw SqlStates.notSupported("setRef");
    }

    @Override
    public void setBlob(int parameterIndex, Blob x) throws SQLException {
        setBytes(parameterIndex, x == null ? null : x.getBytes(1, (int) x.length()));
    }

    @Override
    public void setClob(int parameterIndex, Clob x) throws SQLException {
        setString(parameterIndex, x == null ? null : x.getSubString(1, (int) x.length()));
    }

    @Override
    public void setArray(int parameterIndex, Array x) throws SQLException {
        set(parameterIndex, x, Types.ARRAY);
    }

    /**
     * The result's columns: those of the open result once executed; before, for a {@code SELECT} or {@code WITH}
     * query, what the server's {@code DESCRIBE (query)} says (placeholders bound as typed NULLs, or as the values
     * set so far), asked once and cached; {@code null} for other statements or when the server cannot describe it.
     */
    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        ResultSet rs = getResultSet();
        if (rs != null) {
            return rs.getMetaData();
        }
        if (described == null && describable()) {
            described = describe();
        }
        return described;
    }

    private boolean describable() {
        String word = SqlLexer.firstWord(text);
        return (word.equals("SELECT") || word.equals("WITH")) && SqlLexer.split(text).size() == 1
                && (placeholders.length == 0 || conn.hello.revision() >= PARAMETERS_REVISION);
    }

    private ResultSetMetaData describe() throws SQLException {
        StringBuilder q = new StringBuilder("DESCRIBE (");
        Map<String, Object> params = new LinkedHashMap<>();
        String query = SqlLexer.split(text).get(0);
        int last = 0;
        for (int i = 0; i < placeholders.length; i++) {
            q.append(query, last, placeholders[i]);
            Object v = values[i] == UNSET ? null : value(i);
            String name = "p" + (i + 1);
            q.append('{').append(name).append(':').append(JdbcValues.parameterType(v, nullTypes[i])).append('}');
            params.put(name, v);
            last = placeholders[i] + 1;
        }
        q.append(query, last, query.length()).append("\n)");
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        try (ClickHouseStatement s = new ClickHouseStatement(conn)) {
            if (!s.run(q.toString(), params)) {
                return null;
            }
            try (ResultSet d = s.getResultSet()) {
                while (d.next()) {
                    names.add(d.getString(1));
                    types.add(d.getString(2));
                }
            }
        } catch (SQLException e) {
            return null; // not describable: the metadata comes with the result
        }
        return new ClickHouseResultSetMetaData(names, types.toArray(new String[0]));
    }

    @Override
    public void setDate(int parameterIndex, Date x, Calendar cal) throws SQLException {
        setDate(parameterIndex, x);
    }

    @Override
    public void setTime(int parameterIndex, Time x, Calendar cal) throws SQLException {
        setTime(parameterIndex, x);
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x, Calendar cal) throws SQLException {
        setTimestamp(parameterIndex, x);
    }

    @Override
    public void setURL(int parameterIndex, URL x) throws SQLException {
        setString(parameterIndex, x == null ? null : x.toString());
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        return new ClickHouseParameterMetaData(placeholders.length);
    }

    @Override
    public void setRowId(int parameterIndex, RowId x) throws SQLException {
        throw SqlStates.notSupported("setRowId");
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        setString(parameterIndex, value);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
        setCharacterStream(parameterIndex, value, length);
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        setClob(parameterIndex, value);
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        setCharacterStream(parameterIndex, reader, length);
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
        setBinaryStream(parameterIndex, inputStream, length);
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        setCharacterStream(parameterIndex, reader, length);
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException {
        throw SqlStates.notSupported("setSQLXML");
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        set(parameterIndex, x, targetSqlType);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException {
        setString(parameterIndex, x == null ? null
                : new String(readAll(x, length), StandardCharsets.US_ASCII));
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        setBytes(parameterIndex, x == null ? null : readAll(x, length));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        setString(parameterIndex, reader == null ? null : readAll(reader, length));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException {
        setAsciiStream(parameterIndex, x, -1L);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        setBinaryStream(parameterIndex, x, -1L);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        setCharacterStream(parameterIndex, reader, -1L);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        setCharacterStream(parameterIndex, value, -1L);
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        setCharacterStream(parameterIndex, reader, -1L);
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        setBinaryStream(parameterIndex, inputStream, -1L);
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        setCharacterStream(parameterIndex, reader, -1L);
    }

    // ------------------------------------------------------------------ Statement's SQL-taking methods

    private static SQLException sqlGiven() {
        return new SQLException("a PreparedStatement runs its own SQL: call execute() without an argument", "HY000");
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        throw sqlGiven();
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        throw sqlGiven();
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        throw sqlGiven();
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        throw sqlGiven();
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        throw sqlGiven();
    }

    @Override
    public String toString() {
        return "ClickHousePreparedStatement[" + dev.clickhousetcp.observe.QueryMasking.mask(sql) + "]";
    }

    @Override
    public void setObject(int parameterIndex, Object x, java.sql.SQLType targetSqlType) throws SQLException {
        set(parameterIndex, x, sqlType(targetSqlType));
    }

    @Override
    public void setObject(int parameterIndex, Object x, java.sql.SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        set(parameterIndex, x, sqlType(targetSqlType));
    }

    private static int sqlType(java.sql.SQLType type) {
        return type == null || type.getVendorTypeNumber() == null ? Types.OTHER : type.getVendorTypeNumber();
    }
}
