package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.protocol.Progress;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A statement over the connection's native session. Whether it returned rows is decided by the server's
 * answer (a header block with at least one column), never by reading the SQL. Plain statements are never
 * scanned for {@code ?} (ClickHouse's ternary {@code a ? b : c} stays as written).
 *
 * <p>Not thread-safe, except {@link #cancel()}, which may be called from any thread.
 */
class ClickHouseStatement implements Statement {
    final ClickHouseJdbcConnection conn;
    private boolean closed;
    private boolean closeOnCompletion;
    private ClickHouseResultSet resultSet;
    private long updateCount = -1;
    private int queryTimeout;
    private long maxRows;
    private int fetchSize;
    boolean escapeProcessing = true;
    private final List<String> batch = new ArrayList<>();
    private SQLWarning warnings;
    /** The statements of a split multi-statement text not run yet. */
    private final Deque<String> pending = new ArrayDeque<>();
    /** The query parameters of the whole split text; each pending statement takes those it names. */
    private Map<String, Object> pendingParameters;
    private volatile QueryResult running;
    private volatile boolean cancelRequested;
    private String lastQueryId;

    ClickHouseStatement(ClickHouseJdbcConnection conn) throws SQLException {
        this.conn = conn;
        this.queryTimeout = conn.config.intValue(DriverProperty.QUERY_TIMEOUT);
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("the statement is closed", "HY010");
        }
        conn.checkOpen();
    }

    /** The text to send: JDBC escapes rewritten unless turned off. */
    String prepareText(String sql) throws SQLException {
        if (sql == null) {
            throw new SQLException("sql must not be null", "HY009");
        }
        return escapeProcessing ? SqlLexer.processEscapes(sql) : sql;
    }

    /**
     * Runs {@code sql} (one statement or, with {@code multiStatement=split}, several) with these server-side
     * query parameters.
     *
     * @return whether the first result is a ResultSet
     */
    boolean run(String sql, Map<String, Object> parameters) throws SQLException {
        checkOpen();
        closeResults();
        List<String> statements = SqlLexer.split(sql);
        if (statements.isEmpty()) {
            throw new SQLSyntaxErrorException("the statement is empty (only blanks or comments)", "42000");
        }
        if (statements.size() > 1) {
            if (!conn.config.choice(DriverProperty.MULTI_STATEMENT).equals("split")) {
                throw new SQLSyntaxErrorException("the text holds " + statements.size() + " statements separated by ';';"
                        + " the native protocol runs one statement per query: run them one by one, or set the "
                        + "property multiStatement=split", "42000");
            }
            pending.addAll(statements.subList(1, statements.size()));
            pendingParameters = parameters;
            return runOne(statements.get(0), namedIn(statements.get(0), parameters));
        }
        return runOne(statements.get(0), parameters);
    }

    /**
     * The parameters {@code statement} names as {@code {name:Type}}: a split text's statements each get their own
     * (the server refuses a query that carries none of its parameters' values, not one with extra ones, but a
     * statement should not carry another's values).
     */
    private static Map<String, Object> namedIn(String statement, Map<String, Object> parameters) {
        if (parameters == null) {
            return null;
        }
        Map<String, Object> own = new java.util.LinkedHashMap<>();
        parameters.forEach((name, value) -> {
            if (statement.contains("{" + name + ":")) {
                own.put(name, value);
            }
        });
        return own;
    }

    private boolean runOne(String sql, Map<String, Object> parameters) throws SQLException {
        cancelRequested = false;
        String queryId = UUID.randomUUID().toString();
        lastQueryId = queryId;
        QueryOptions options;
        try {
            QueryOptions.Builder o = QueryOptions.builder().queryId(queryId);
            if (queryTimeout > 0) {
                o.timeout(Duration.ofSeconds(queryTimeout));
            }
            if (parameters != null) {
                parameters.forEach(o::parameter);
            }
            options = o.build();
        } catch (RuntimeException e) {
            throw SqlStates.translate(e, null, false); // a value the parameter encoder refuses
        }
        conn.lock.lock();
        conn.running = this;
        try {
            conn.checkOpen();
            conn.beforeQuery(null);
            QueryResult r;
            conn.beforeStatement(sql);
            try {
                r = conn.session.query(sql, options);
            } catch (RuntimeException e) {
                throw SqlStates.translate(e, queryId, false);
            }
            running = r;
            if (cancelRequested) {
                r.cancel();
            }
            Block first;
            try {
                first = r.next();
            } catch (RuntimeException e) {
                running = null;
                r.close();
                throw SqlStates.translate(e, queryId, false);
            }
            if (first == null && r.isCancelled()) {
                running = null;
                r.close();
                throw cancelled(queryId);
            }
            Block header = r.header();
            if (header != null && header.columnCount() > 0) {
                try {
                    ClickHouseResultSet rs = new ClickHouseResultSet(this, r, header, first, maxRows, queryId);
                    conn.beforeQuery(rs);
                    resultSet = rs;
                } catch (SQLException | RuntimeException | Error e) {
                    running = null;
                    try {
                        r.close(); // nothing else will: the result was never handed out
                    } catch (RuntimeException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                    throw e;
                }
                updateCount = -1;
                return true;
            }
            running = null;
            Progress p = r.progress();
            r.close();
            updateCount = p.writtenRows();
            if (p.writtenRows() > 0 || changesData(sql)) {
                conn.wrote();
            }
            return false;
        } finally {
            conn.running = null;
            conn.lock.unlock();
        }
    }

    /**
     * Whether a statement changes stored data or schema even when the server reports no written rows for it (26.7
     * reports none for lightweight DELETE and UPDATE, mutations and DDL), for the emulated rollback's warning.
     */
    private static boolean changesData(String sql) {
        return switch (SqlLexer.firstWord(sql)) {
            case "INSERT", "DELETE", "UPDATE", "ALTER", "TRUNCATE", "DROP", "CREATE", "RENAME", "EXCHANGE", "REPLACE",
                 "ATTACH", "DETACH", "UNDROP", "OPTIMIZE" -> true;
            default -> false;
        };
    }

    /** Records the update count of a statement that ran without {@link #run} (a native insert). */
    void setUpdateCount(long count) throws SQLException {
        closeResults();
        updateCount = count;
    }

    static SQLException cancelled(String queryId) {
        return new SQLException("the query was cancelled (query_id " + queryId + ")", SqlStates.CANCELLED,
                SqlStates.QUERY_WAS_CANCELLED);
    }

    /** Called by the ResultSet when its stream ended or it was closed. */
    void resultEnded(ClickHouseResultSet rs) {
        running = null;
        conn.streamEnded(rs);
    }

    boolean cancelRequested() {
        return cancelRequested;
    }

    private void closeResults() throws SQLException {
        pending.clear();
        pendingParameters = null;
        if (resultSet != null) {
            resultSet.close();
            resultSet = null;
        }
        updateCount = -1;
    }

    String lastQueryId() {
        return lastQueryId;
    }

    // ------------------------------------------------------------------ Statement

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        if (!execute(sql)) {
            throw new SQLException("the statement returned no result set (use executeUpdate or execute)", "07000");
        }
        return resultSet;
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return clampCount(executeLargeUpdate(sql));
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        if (execute(sql)) {
            closeResults();
            throw new SQLException("the statement returned a result set (use executeQuery or execute)", "07000");
        }
        return Math.max(0, updateCount);
    }

    static int clampCount(long n) {
        return n > Integer.MAX_VALUE ? Statement.SUCCESS_NO_INFO : (int) n;
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        checkOpen();
        return run(prepareText(sql), null);
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        try {
            closeResults();
        } finally {
            closed = true;
        }
    }

    @Override
    public int getMaxFieldSize() throws SQLException {
        checkOpen();
        return 0;
    }

    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw new SQLException("max field size must not be negative", "HY024");
        }
    }

    @Override
    public int getMaxRows() throws SQLException {
        return (int) Math.min(Integer.MAX_VALUE, getLargeMaxRows());
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        setLargeMaxRows(max);
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    /** Truncates results on the client (the rest is cancelled); no server setting is sent. */
    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw new SQLException("max rows must not be negative", "HY024");
        }
        maxRows = max;
    }

    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        checkOpen();
        escapeProcessing = enable;
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeout;
    }

    /**
     * A client deadline over the whole execution, reading rows included: when it passes the query is cancelled
     * and {@link java.sql.SQLTimeoutException} (HYT00) is thrown. No server setting is sent.
     */
    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw new SQLException("query timeout must not be negative", "HY024");
        }
        queryTimeout = seconds;
    }

    /** Sends the native Cancel packet for the running query; its reader then gets HY008. Any thread. */
    @Override
    public void cancel() throws SQLException {
        if (closed) {
            return;
        }
        cancelRequested = true;
        QueryResult r = running;
        if (r != null) {
            r.cancel();
        }
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        warnings = null;
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        throw SqlStates.notSupported("setCursorName");
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        return resultSet;
    }

    @Override
    public int getUpdateCount() throws SQLException {
        return clampCount(getLargeUpdateCount());
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        return resultSet != null ? -1 : updateCount;
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        return getMoreResults(CLOSE_CURRENT_RESULT);
    }

    @Override
    public boolean getMoreResults(int current) throws SQLException {
        checkOpen();
        if (resultSet != null) {
            resultSet.close();
            resultSet = null;
        }
        updateCount = -1;
        String next = pending.poll();
        if (next == null) {
            return false;
        }
        return runOne(next, namedIn(next, pendingParameters));
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw new SQLException("result sets are TYPE_FORWARD_ONLY", SqlStates.INVALID_CURSOR_STATE);
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return ResultSet.FETCH_FORWARD;
    }

    /** A hint only: the server decides the block size. */
    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw new SQLException("fetch size must not be negative", "HY024");
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw new SQLException("sql must not be null", "HY009");
        }
        batch.add(sql);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        long[] large = executeLargeBatch();
        int[] out = new int[large.length];
        for (int i = 0; i < large.length; i++) {
            out[i] = clampCount(large[i]);
        }
        return out;
    }

    /** Runs the added statements in turn; a failure throws {@link BatchUpdateException} with the counts so far. */
    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<String> todo = new ArrayList<>(batch);
        batch.clear();
        long[] counts = new long[todo.size()];
        for (int i = 0; i < todo.size(); i++) {
            try {
                if (execute(todo.get(i))) {
                    closeResults();
                    throw new SQLException("statement " + (i + 1) + " of the batch returned a result set", "07000");
                }
                counts[i] = Math.max(0, updateCount);
            } catch (SQLException e) {
                long[] done = java.util.Arrays.copyOf(counts, i);
                throw new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(), done, e);
            }
        }
        return counts;
    }

    @Override
    public Connection getConnection() throws SQLException {
        checkOpen();
        return conn;
    }

    /** An empty result set: ClickHouse generates no keys. */
    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        checkOpen();
        return ClickHouseResultSet.empty(this);
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return executeLargeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return executeLargeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        return executeLargeUpdate(sql);
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        return execute(sql);
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    /** Closed by {@link #close()} or with its connection. */
    @Override
    public boolean isClosed() {
        return closed || conn.isClosed();
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        checkOpen();
    }

    @Override
    public boolean isPoolable() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        checkOpen();
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        checkOpen();
        return closeOnCompletion;
    }

    /** Closes this statement when {@link #closeOnCompletion()} was asked and its result set closed. */
    void resultSetClosed() throws SQLException {
        if (closeOnCompletion && !closed) {
            close();
        }
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Wrappers.unwrap(iface, this);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return Wrappers.isWrapperFor(iface, this);
    }
}
