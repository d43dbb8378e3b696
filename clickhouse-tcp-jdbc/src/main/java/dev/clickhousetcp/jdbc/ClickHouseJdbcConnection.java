package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.client.ClickHouseSession;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.protocol.ServerHello;

import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A JDBC connection over one native session: temporary tables and {@code SET} statements persist for its
 * lifetime, because the session pins one TCP connection. Never reconnected behind the caller's back: once the
 * native connection broke, every call fails with 08003. No ping before queries.
 *
 * <p>Closing it over a shared pool ({@link ClickHousePooledDataSource}, {@link ClickHouseClientDataSource}) gives
 * the native connection back for the next borrower only when its server session is still as the configuration
 * gives it ({@link ClickHouseSession#release()}): every statement began with a keyword known to leave the session
 * alone ({@link #leavesSessionAlone}), the core saw no {@code USE}, {@code SET}, temporary table or the like,
 * nothing was running or streaming at the close, the connection was not aborted and the session was never
 * unwrapped. Anything else closes the native connection, as in doubt.
 *
 * <p>Thread safety: statements on one connection run one at a time (a lock, not {@code synchronized}, so
 * virtual threads do not pin); {@link #abort}, {@link #isClosed()} and {@link Statement#cancel()} are safe
 * from any thread.
 */
final class ClickHouseJdbcConnection implements Connection {
    private static final System.Logger LOG = System.getLogger(ClickHouseJdbcConnection.class.getName());

    final JdbcConfig config;
    /** The client this connection owns and closes, or {@code null} when it came from a shared pool. */
    private final ClickHouseTcpClient ownedClient;
    private final ClickHouseTcpClient client;
    final ClickHouseSession session;
    final ServerHello hello;
    /** Serializes the statements of this connection. */
    final ReentrantLock lock = new ReentrantLock();
    /** Guards the end of the streaming ResultSet, which a statement of another thread may wait for. */
    private final ReentrantLock streamLock = new ReentrantLock();
    private final java.util.concurrent.locks.Condition streamDone = streamLock.newCondition();
    private final boolean strict;
    private final boolean catalogTerm;
    private final long busyBufferBytes;
    private final Map<String, String> clientInfo = new ConcurrentHashMap<>();
    /** Created at the first {@link #getMetaData()}; it caches which system columns the server has. */
    private volatile ClickHouseDatabaseMetaData metaData;
    private volatile boolean closed;
    private boolean autoCommit = true;
    private boolean readOnly;
    private boolean wroteSinceCommit;
    private boolean rollbackLogged;
    private volatile int networkTimeout;
    /**
     * Whether the native connection may go back to the pool at {@link #close()}: cleared by anything that changed
     * its server session or may have (see the class comment). The core's own check of the statements it ran
     * ({@link dev.clickhousetcp.client.ClickHouseConnection#carriesSessionState()}) applies on top.
     */
    private volatile boolean reusable;
    private String database;
    private SQLWarning warnings;
    /** The ResultSet that still streams on the session, if any. */
    private volatile ClickHouseResultSet streaming;
    /** The statement that runs under {@link #lock} right now, if any (cancelled by a close from another thread). */
    volatile ClickHouseStatement running;

    ClickHouseJdbcConnection(JdbcConfig config, ClickHouseTcpClient client, boolean ownsClient) throws SQLException {
        this.config = config;
        this.client = client;
        this.ownedClient = ownsClient ? client : null;
        this.reusable = !ownsClient; // an owned client closes with the connection anyway
        try {
            this.session = client.openSession();
            this.hello = session.serverInfo();
        } catch (RuntimeException e) {
            if (ownsClient) {
                client.close();
            }
            throw SqlStates.translate(e, null, true);
        }
        this.strict = config.choice(DriverProperty.TRANSACTION_MODE).equals("strict");
        this.catalogTerm = config.choice(DriverProperty.DATABASE_TERM).equals("catalog");
        this.database = config.get(DriverProperty.DATABASE);
        this.busyBufferBytes = config.longValue(DriverProperty.BUSY_BUFFER_BYTES);
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("the connection is closed", SqlStates.CONNECTION_CLOSED);
        }
        if (!session.isOpen()) {
            throw new SQLException("the connection is broken (its native connection failed; open a new one)",
                    SqlStates.CONNECTION_CLOSED);
        }
    }

    /**
     * Records a statement about to run on the session: one whose first keyword is not known to leave the server
     * session alone makes the native connection close with this connection instead of going back to the pool.
     */
    void beforeStatement(String sql) {
        if (reusable && !leavesSessionAlone(SqlLexer.firstWord(sql))) {
            reusable = false;
        }
    }

    /**
     * Whether a statement beginning with {@code firstWord} (upper case) leaves the server session of its
     * connection as it was: it reads, writes or changes stored data, schema or access, which every session sees
     * alike. {@code CREATE TEMPORARY TABLE} and the other session statements among them are caught by the core
     * ({@link dev.clickhousetcp.client.ClickHouseConnection#carriesSessionState()}); {@code SET}, {@code USE},
     * {@code BEGIN}, {@code COMMIT}, {@code EXECUTE} and any keyword not listed here count as changing it.
     */
    static boolean leavesSessionAlone(String firstWord) {
        return switch (firstWord) {
            case "SELECT", "WITH", "INSERT", "SHOW", "DESCRIBE", "DESC", "EXISTS", "EXPLAIN", "CHECK", "CREATE", "DROP",
                 "ALTER", "TRUNCATE", "RENAME", "EXCHANGE", "REPLACE", "ATTACH", "DETACH", "UNDROP", "OPTIMIZE",
                 "DELETE", "UPDATE", "KILL", "SYSTEM", "GRANT", "REVOKE" -> true;
            default -> false;
        };
    }

    boolean catalogTerm() {
        return catalogTerm;
    }

    boolean strict() {
        return strict;
    }

    /** Records that a statement wrote data (for the emulated rollback's warning). */
    void wrote() {
        if (!autoCommit) {
            wroteSinceCommit = true;
        }
    }

    /**
     * Makes room for a new statement (called under {@link #lock}). A ResultSet still streaming on the session and
     * read by this thread is buffered (up to {@code busyBufferBytes}, else 24000); one read by another thread is
     * waited for until it ends or closes, bounded by the {@code socketTimeout} (then 24000; 0 waits without bound): its reader's rows stay
     * exact either way.
     */
    void beforeQuery(ClickHouseResultSet next) throws SQLException {
        ClickHouseResultSet open = streaming;
        if (open != null && open != next && !open.isClosedOrEnded()) {
            if (open.owner() == Thread.currentThread()) {
                open.bufferRest(busyBufferBytes);
            } else {
                awaitStreamEnd(open);
            }
        }
        streaming = next == null || next.isClosedOrEnded() ? null : next;
    }

    private void awaitStreamEnd(ClickHouseResultSet open) throws SQLException {
        int timeoutMillis = config.intValue(DriverProperty.SOCKET_TIMEOUT); // 0: no bound
        long waitNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        streamLock.lock();
        try {
            while (streaming == open && !open.isClosedOrEnded()) {
                if (timeoutMillis == 0) {
                    streamDone.await();
                    continue;
                }
                if (waitNanos <= 0) {
                    throw new SQLException("the connection is busy: another thread still reads a ResultSet on it "
                            + "(close it first)", SqlStates.INVALID_CURSOR_STATE);
                }
                waitNanos = streamDone.awaitNanos(waitNanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while another thread read a ResultSet on the connection", "HY008", e);
        } finally {
            streamLock.unlock();
        }
    }

    void streamEnded(ClickHouseResultSet rs) {
        streamLock.lock();
        try {
            if (streaming == rs) {
                streaming = null;
            }
            streamDone.signalAll();
        } finally {
            streamLock.unlock();
        }
    }

    void addWarning(SQLWarning w) {
        if (warnings == null) {
            warnings = w;
        } else {
            warnings.setNextWarning(w);
        }
    }

    // ------------------------------------------------------------------ statements

    @Override
    public Statement createStatement() throws SQLException {
        checkOpen();
        return new ClickHouseStatement(this);
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        checkOpen();
        return new ClickHousePreparedStatement(this, sql);
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        throw SqlStates.notSupported("prepareCall");
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkOpen();
        return SqlLexer.processEscapes(sql);
    }

    private void checkResultSetType(int type, int concurrency) throws SQLException {
        if (type != ResultSet.TYPE_FORWARD_ONLY || concurrency != ResultSet.CONCUR_READ_ONLY) {
            if (strict) {
                throw SqlStates.notSupported("scrollable or updatable result sets");
            }
            addWarning(new SQLWarning("result sets are TYPE_FORWARD_ONLY and CONCUR_READ_ONLY; the requested type "
                    + type + " / concurrency " + concurrency + " was downgraded"));
        }
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        checkResultSetType(resultSetType, resultSetConcurrency);
        return createStatement();
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        checkResultSetType(resultSetType, resultSetConcurrency);
        return createStatement();
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        checkResultSetType(resultSetType, resultSetConcurrency);
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
                                              int resultSetHoldability) throws SQLException {
        checkResultSetType(resultSetType, resultSetConcurrency);
        return prepareStatement(sql);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        throw SqlStates.notSupported("prepareCall");
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
                                         int resultSetHoldability) throws SQLException {
        throw SqlStates.notSupported("prepareCall");
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return prepareStatement(sql);
    }

    // ------------------------------------------------------------------ transactions

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        if (!autoCommit && strict) {
            throw SqlStates.notSupported("transactions (setAutoCommit(false), transactionMode=strict)");
        }
        if (autoCommit && !this.autoCommit) {
            wroteSinceCommit = false; // JDBC: switching back commits
        }
        this.autoCommit = autoCommit;
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return autoCommit;
    }

    @Override
    public void commit() throws SQLException {
        checkOpen();
        if (strict) {
            throw SqlStates.notSupported("commit (transactionMode=strict)");
        }
        wroteSinceCommit = false;
    }

    @Override
    public void rollback() throws SQLException {
        checkOpen();
        if (strict) {
            throw SqlStates.notSupported("rollback (transactionMode=strict)");
        }
        if (wroteSinceCommit) {
            addWarning(new SQLWarning("rollback() cannot undo the writes since the last commit: ClickHouse has no "
                    + "transactions (transactionMode=emulate); they stay applied"));
            if (!rollbackLogged) {
                rollbackLogged = true;
                LOG.log(System.Logger.Level.WARNING, "rollback() after writes on a ClickHouse connection: the writes "
                        + "stay applied (ClickHouse has no transactions; transactionMode=emulate)");
            }
            wroteSinceCommit = false;
        }
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        if (level == TRANSACTION_NONE) {
            return;
        }
        if (strict) {
            throw SqlStates.notSupported("transaction isolation levels (transactionMode=strict)");
        }
        addWarning(new SQLWarning("ClickHouse has no transactions; isolation level " + level + " is not applied"));
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        return TRANSACTION_NONE;
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        throw SqlStates.notSupported("savepoints");
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        throw SqlStates.notSupported("savepoints");
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        throw SqlStates.notSupported("savepoints");
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        throw SqlStates.notSupported("savepoints");
    }

    // ------------------------------------------------------------------ state

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        if (cancelRunning()) {
            reusable = false; // a statement was cut short: its connection is not trusted for another borrower
        }
        closeSession();
    }

    /**
     * Cancels what runs or streams on the session now, from any thread; its reader then ends with HY008.
     *
     * @return whether anything was running or streaming
     */
    private boolean cancelRunning() {
        ClickHouseStatement s = running;
        ClickHouseResultSet open = streaming;
        boolean busy = s != null || open != null && !open.isClosedOrEnded();
        if (s != null) {
            try {
                s.cancel();
            } catch (SQLException | RuntimeException ignored) {
                // closing anyway
            }
        }
        if (open != null) {
            open.cancelQuietly();
        }
        return busy;
    }

    /**
     * Closes the open ResultSet and the session once no other thread reads on it: the statement running under
     * {@link #lock} ends first (it was cancelled), and the ResultSet is closed under its own lock, so the closing
     * drain never reads the socket while another thread decodes from it (which spliced their bytes). Waits at
     * most the {@code socketTimeout} (0: without bound) for the statement, then closes anyway.
     */
    private void closeSession() {
        boolean locked = false;
        int timeoutMillis = config.intValue(DriverProperty.SOCKET_TIMEOUT); // 0: no bound
        try {
            if (timeoutMillis == 0) {
                lock.lockInterruptibly();
                locked = true;
            } else {
                locked = lock.tryLock(timeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            ClickHouseResultSet open = streaming;
            if (open != null) {
                open.closeQuietly();
            }
            if (locked && reusable) {
                session.release(); // back to the pool unless the core saw session state or the connection broke
            } else {
                session.close();
            }
        } finally {
            try {
                if (ownedClient != null) {
                    ownedClient.close();
                }
            } finally {
                if (locked) {
                    lock.unlock();
                }
            }
        }
    }

    @Override
    public boolean isClosed() {
        return closed || !session.isOpen();
    }

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        ClickHouseDatabaseMetaData m = metaData;
        if (m == null) {
            m = new ClickHouseDatabaseMetaData(this);
            metaData = m;
        }
        return m;
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        this.readOnly = readOnly;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return readOnly;
    }

    /** The database unqualified names refer to. */
    String database() {
        return database;
    }

    private void use(String db) throws SQLException {
        checkOpen();
        if (db == null || db.equals(database)) {
            return;
        }
        try (Statement s = createStatement()) {
            s.execute("USE " + quoteIdentifier(db));
        }
        database = db;
    }

    /** {@code name} as a backquoted ClickHouse identifier. */
    static String quoteIdentifier(String name) {
        StringBuilder sb = new StringBuilder("`");
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '`' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.append('`').toString();
    }

    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen();
        if (catalogTerm) {
            use(catalog);
        }
    }

    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        return catalogTerm ? database : null;
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
        if (!catalogTerm) {
            use(schema);
        }
    }

    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        return catalogTerm ? null : database;
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
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkOpen();
        return new java.util.HashMap<>();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw SqlStates.notSupported("user-defined type maps");
        }
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        if (holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT && holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT) {
            throw new SQLException("unknown holdability " + holdability, "HY092");
        }
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public Clob createClob() throws SQLException {
        throw SqlStates.notSupported("createClob");
    }

    @Override
    public Blob createBlob() throws SQLException {
        throw SqlStates.notSupported("createBlob");
    }

    @Override
    public NClob createNClob() throws SQLException {
        throw SqlStates.notSupported("createNClob");
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        throw SqlStates.notSupported("createSQLXML");
    }

    /**
     * Round-trips a Ping within {@code timeout} seconds (0: the socket timeout). A connection busy with a
     * streaming ResultSet answers from its state without touching the wire.
     */
    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (timeout < 0) {
            throw new SQLException("timeout must not be negative: " + timeout, "HY024");
        }
        if (isClosed()) {
            return false;
        }
        if (streaming != null || !lock.tryLock()) {
            return session.isOpen();
        }
        try {
            session.ping(timeout == 0 ? null : Duration.ofSeconds(timeout));
            return true;
        } catch (RuntimeException e) {
            return false;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        if (value == null) {
            clientInfo.remove(name);
        } else {
            clientInfo.put(name, value);
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        clientInfo.clear();
        for (String n : properties.stringPropertyNames()) {
            clientInfo.put(n, properties.getProperty(n));
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        return clientInfo.get(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        Properties p = new Properties();
        p.putAll(clientInfo);
        return p;
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        checkOpen();
        return new ClickHouseArray(ClickHouseArray.clickHouseTypeName(typeName, elements), elements);
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        checkOpen();
        return new ClickHouseStruct(typeName, attributes);
    }

    /**
     * Closes the native connection at once; later calls fail with 08003. Safe from any thread.
     *
     * @throws SQLException HY009 for a null executor; HY000 when the executor rejects the close (the session is
     *                      then closed in the calling thread first)
     */
    @Override
    public void abort(Executor executor) throws SQLException {
        if (executor == null) {
            throw new SQLException("executor must not be null", "HY009");
        }
        if (closed) {
            return;
        }
        closed = true;
        reusable = false; // aborted: the native connection is closed, never lent again
        cancelRunning();
        try {
            executor.execute(this::closeSession);
        } catch (RuntimeException e) { // e.g. RejectedExecutionException: close here, the session must not leak
            closeSession();
            throw new SQLException("the executor did not take the close; closed in the calling thread", "HY000", e);
        }
    }

    /**
     * A read deadline per wait for the server's next bytes (and per stalled write) on this connection: when
     * {@code milliseconds} pass without data, the connection is aborted, the statement waiting fails with
     * {@link java.sql.SQLNonTransientConnectionException} (SQLState 08006, so pools evict it), and
     * {@link #isClosed()} / {@link #isValid(int)} answer {@code true} / {@code false}. It applies from the wait under
     * way on (checked every 100 ms) and is independent of {@link Statement#setQueryTimeout(int)}, whose expiry
     * cancels the query and keeps the connection. {@code 0} removes it: the {@code socketTimeout} property
     * applies again. Sends nothing (cheap enough for a pool to call around every validation). Safe from any
     * thread; the executor is not used.
     *
     * @throws SQLException 08003 when the connection is closed; HY024 when {@code milliseconds} is negative
     */
    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        checkOpen();
        if (milliseconds < 0) {
            throw new SQLException("timeout must not be negative: " + milliseconds, "HY024");
        }
        session.setSocketTimeout(milliseconds == 0 ? null : Duration.ofMillis(milliseconds));
        this.networkTimeout = milliseconds;
    }

    /** The value last given to {@link #setNetworkTimeout} (0: none, the {@code socketTimeout} property applies). */
    @Override
    public int getNetworkTimeout() throws SQLException {
        checkOpen();
        return networkTimeout;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        T unwrapped = Wrappers.unwrap(iface, this, session, client);
        if (unwrapped == session) {
            reusable = false; // the caller may change the session in ways this connection cannot see
        }
        return unwrapped;
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return Wrappers.isWrapperFor(iface, this, session, client);
    }

    @Override
    public String toString() {
        return "ClickHouseJdbcConnection[" + config.safeUrl() + "]";
    }

    @Override
    public void setShardingKey(java.sql.ShardingKey shardingKey, java.sql.ShardingKey superShardingKey)
            throws SQLException {
        throw SqlStates.notSupported("sharding keys");
    }

    @Override
    public void setShardingKey(java.sql.ShardingKey shardingKey) throws SQLException {
        throw SqlStates.notSupported("sharding keys");
    }

    @Override
    public boolean setShardingKeyIfValid(java.sql.ShardingKey shardingKey, java.sql.ShardingKey superShardingKey,
                                         int timeout) throws SQLException {
        throw SqlStates.notSupported("sharding keys");
    }

    @Override
    public boolean setShardingKeyIfValid(java.sql.ShardingKey shardingKey, int timeout) throws SQLException {
        throw SqlStates.notSupported("sharding keys");
    }
}
