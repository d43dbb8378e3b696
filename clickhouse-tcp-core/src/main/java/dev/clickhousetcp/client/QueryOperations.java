package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseSessionRequiredException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.ColumnCopyWriter;
import dev.clickhousetcp.data.DataType;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.data.FlatArray;
import dev.clickhousetcp.data.RowObjectAccount;
import dev.clickhousetcp.mapping.Mappers;
import dev.clickhousetcp.mapping.MappingException;
import dev.clickhousetcp.mapping.ReadPlan;
import dev.clickhousetcp.mapping.SchemaReport;
import dev.clickhousetcp.mapping.TableColumn;
import dev.clickhousetcp.observe.ClickHouseTcpOperation;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.protocol.ServerHello;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The query and insert operations shared by {@link ClickHouseTcpClient} (each call borrows a pooled
 * connection) and {@link ClickHouseSession} (every call uses the session's pinned connection).
 *
 * <p>Tiers: {@link #query(String)} streams {@link Block}s (no per-row objects);
 * {@link #query(String, Class)}, {@link #stream(String, Class)} and {@link #forEach(String, Class, Consumer)}
 * map rows to records, beans or constructor-bound classes through compiled, cached plans
 * ({@link Mappers}, see {@code docs/mapping.md}); {@link #queryRows(String)} returns boxed
 * {@code Object[]} rows, {@link #forEachRow(String, Consumer)} and {@link #streamRows(String)} stream
 * them. Inserts take objects ({@link #insert(String, Iterable)}), {@code Object[]}
 * rows, Java arrays per column, or {@link Column}s read earlier ({@link #insertBlocks}).
 */
public abstract class QueryOperations {
    final int insertBlockRows;
    private final Mappers mappers;
    /** Timeout of calls whose options set none ({@code null}: none). */
    final Duration defaultQueryTimeout;
    /** Starts the observation of each call; {@code null} when the client has no observation registry. */
    final Instrumentation instrumentation;
    /** The insert batcher the insert methods delegate to. */
    private final InsertOperations inserts;

    QueryOperations(int insertBlockRows, Mappers mappers, Duration defaultQueryTimeout,
                    Instrumentation instrumentation) {
        this.insertBlockRows = insertBlockRows;
        this.mappers = mappers;
        this.defaultQueryTimeout = defaultQueryTimeout;
        this.instrumentation = instrumentation;
        this.inserts = new InsertOperations(this);
    }

    /** The started observation of a call, or {@code null} when calls are not observed. */
    ObservedOperation observe(ClickHouseTcpOperation operation, String sql, QueryOptions options) {
        return instrumentation == null ? null : instrumentation.start(operation, sql, options);
    }

    /** The budget of a call: its own timeout, else the default query timeout, else none. */
    Budget queryBudget(QueryOptions options) {
        return Budget.of(options.timeout() != null ? options.timeout() : defaultQueryTimeout, Deadline.QUERY);
    }

    /**
     * The object mappers (plan cache, {@link Mappers#plansBuilt()}) of this client.
     *
     * @return the mappers used by the object tiers ({@link #query(String, Class)}, {@link #insert(String, Iterable)})
     */
    public Mappers mappers() {
        return mappers;
    }

    /** The connection for one operation, within {@code budget}; closing the lease gives it back. */
    abstract ConnectionLease acquire(Budget budget);

    /**
     * Whether a read-only query whose pooled connection failed before any answer is run again on
     * another connection (not in a session: its state lives on its one connection).
     */
    abstract boolean retriesUnansweredReads();

    /**
     * Whether statements that change the connection's server session ({@link SqlText#sessionStatement})
     * may run: on a session's pinned connection, yes; on pooled connections they are refused, because
     * the change would stay with whichever connection ran them and reach its next borrower.
     */
    abstract boolean runsSessionStatements();

    /**
     * Refuses, before a connection is borrowed, a statement that would change the server session of a
     * pooled connection ({@link #runsSessionStatements()} false), naming what to use instead.
     */
    final void checkSessionStatement(String sql) {
        if (runsSessionStatements()) {
            return;
        }
        String kind = SqlText.sessionStatement(sql);
        if (kind == null) {
            return;
        }
        String instead = switch (kind) {
            case "USE" -> "use QueryOptions.database(...) for one query or the client's database(...) for all, "
                    + "or run it and the statements that need it in a session (client.openSession())";
            case "SET" -> "use QueryOptions.setting(...) (or a SETTINGS clause) for one query or the client's "
                    + "setting(...) for all, or run it and the statements that need it in a session "
                    + "(client.openSession())";
            case "CREATE TEMPORARY TABLE" -> "create it and use it in a session (client.openSession()), or send "
                    + "the rows with the query that reads them as an external table (QueryOptions.externalTable(...))";
            case "EXECUTE AS" -> "give the statement to run as that user after the name (EXECUTE AS user SELECT ...), "
                    + "or run it and the statements that need it in a session (client.openSession())";
            default -> "run it and the statements that need it in a session (client.openSession())";
        };
        throw new ClickHouseSessionRequiredException(kind, kind + " outside a session is refused: ClickHouse keeps "
                + "its effect in the server session of the TCP connection that runs it, so it would reach only "
                + "that pooled connection and, after it, the connection's next borrower; " + instead);
    }

    /**
     * The server's Hello as seen by a pooled connection (name, version, revision, time zone).
     *
     * @return the Hello of the connection borrowed for this call (opening one if none is idle)
     */
    public ServerHello serverInfo() {
        return withConnection(ClickHouseConnection::serverHello);
    }

    /** Round-trips Ping/Pong (bounded by the socket timeout). */
    public void ping() {
        ping(null);
    }

    /**
     * Round-trips Ping/Pong, failing with {@link ClickHouseTimeoutException} when no
     * Pong arrives within {@code timeout} (the connection is then discarded; {@code null}: the socket
     * timeout). For health checks.
     *
     * @param timeout the longest wait for the Pong, or {@code null} for the connection's socket timeout
     */
    public void ping(Duration timeout) {
        ObservedOperation op = observe(ClickHouseTcpOperation.PING, null, QueryOptions.DEFAULT);
        if (op == null) {
            withConnection(c -> {
                c.ping(timeout);
                return null;
            });
            return;
        }
        try (ConnectionLease lease = acquire(Budget.NONE)) {
            op.connected(lease.connection());
            lease.connection().ping(timeout);
        } catch (RuntimeException e) {
            op.stop(e, false);
            throw e;
        }
        op.stop(null, false);
    }

    /**
     * Runs {@code fn} with a borrowed connection, returning it to the pool afterwards (or discarding
     * it when it is no longer usable, or when {@code fn} changed its server session with {@code USE},
     * {@code SET}, a temporary table and the like: {@link ClickHouseConnection#carriesSessionState()}).
     * The connection must not escape {@code fn}.
     *
     * @param <T> the callback's result type
     * @param fn  the callback; it may run several statements on the connection, one after the other
     * @return what {@code fn} returned
     */
    public <T> T withConnection(Function<ClickHouseConnection, T> fn) {
        try (ConnectionLease lease = acquire(Budget.NONE)) {
            return fn.apply(lease.connection());
        }
    }

    /**
     * Runs a statement and reads its response to the end; returns the accumulated progress.
     *
     * @param sql the statement (DDL, {@code INSERT ... SELECT}, {@code SYSTEM}...; rows it returns are discarded)
     * @return the sum of the Progress packets the server sent (rows and bytes read and written)
     * @throws ClickHouseServerException when the server reports an error
     */
    public Progress execute(String sql) {
        return execute(sql, QueryOptions.DEFAULT);
    }

    /**
     * {@link #execute(String)} with query options.
     *
     * @param sql     the statement
     * @param options settings, query_id, timeout and the other per-query options
     * @return the sum of the Progress packets the server sent
     * @throws ClickHouseServerException when the server reports an error
     */
    public Progress execute(String sql, QueryOptions options) {
        try (QueryResult r = query(sql, options, ClickHouseTcpOperation.EXECUTE)) {
            r.drain();
            return r.progress();
        }
    }

    /**
     * Starts a query; the result holds a pooled connection until it is closed.
     *
     * @param sql the query; must not be {@code null}
     * @return the streaming result, to be closed by the caller (try-with-resources)
     * @throws IllegalArgumentException when {@code sql} is {@code null}
     */
    public QueryResult query(String sql) {
        return query(sql, QueryOptions.DEFAULT);
    }

    /**
     * {@link #query(String)} with query options.
     *
     * @param sql     the query; must not be {@code null}
     * @param options settings, query_id, parameters, timeout, listener and the other per-query options
     * @return the streaming result, to be closed by the caller (try-with-resources)
     * @throws IllegalArgumentException when {@code sql} is {@code null}
     */
    public QueryResult query(String sql, QueryOptions options) {
        return query(sql, options, ClickHouseTcpOperation.QUERY);
    }

    /** Starts a query observed as {@code operation}. */
    private QueryResult query(String sql, QueryOptions options, ClickHouseTcpOperation operation) {
        if (sql == null) {
            throw new IllegalArgumentException("sql must not be null");
        }
        checkSessionStatement(sql);
        ObservedOperation op = observe(operation, sql, options);
        QueryOptions sent = op == null ? options : op.options(options);
        Budget budget = queryBudget(sent);
        boolean retry = retriesUnansweredReads() && SqlText.isReadOnly(sql);
        QueryResult.Attempt a;
        try {
            a = send(sql, sent, budget, retry, op);
        } catch (RuntimeException e) {
            if (op != null) {
                op.stop(e, false);
            }
            throw e;
        }
        return new QueryResult(a.lease(), a.exchange(), sent.listener(), SqlText.isInsert(sql),
                retry ? () -> send(sql, sent, budget, true, op) : null, op);
    }

    /**
     * Sends a query on a leased connection. With {@code retry}, a reused connection that fails while
     * the query is sent (the server had closed it) is replaced and the query sent again.
     */
    private QueryResult.Attempt send(String sql, QueryOptions options, Budget budget, boolean retry,
                                     ObservedOperation op) {
        for (int attempt = 0; ; attempt++) {
            if (op != null && attempt > 0) {
                op.retry();
            }
            ConnectionLease lease = acquire(budget);
            try {
                if (op != null) {
                    op.connected(lease.connection());
                }
                Exchange x = lease.connection().startQuery(sql, options, budget);
                if (op != null) {
                    op.sent(x);
                }
                return new QueryResult.Attempt(lease, x);
            } catch (RuntimeException e) {
                lease.close();
                if (!(retry && attempt < QueryResult.MAX_RETRIES && unansweredFailure(e, lease))) {
                    throw e;
                }
            }
        }
    }

    /** A transport failure (not a deadline) of a reused connection. */
    static boolean unansweredFailure(RuntimeException e, ConnectionLease lease) {
        return e instanceof ClickHouseConnectionException
                && !(e instanceof ClickHouseTimeoutException)
                && QueryResult.transportFailure(e.getCause()) && lease.isReused();
    }

    /**
     * Runs a query and maps every row.
     *
     * @param <T>    the mapped type
     * @param sql    the query
     * @param mapper called once per row, in result order, on the calling thread
     * @return the mapped rows, in result order (a new mutable list)
     */
    public <T> List<T> query(String sql, RowMapper<T> mapper) {
        return query(sql, QueryOptions.DEFAULT, mapper);
    }

    /**
     * {@link #query(String, RowMapper)} with query options.
     *
     * @param <T>     the mapped type
     * @param sql     the query
     * @param options the per-query options
     * @param mapper  called once per row, in result order, on the calling thread; an exception it
     *                throws cancels the query and is rethrown
     * @return the mapped rows, in result order (a new mutable list)
     */
    public <T> List<T> query(String sql, QueryOptions options, RowMapper<T> mapper) {
        List<T> out = new ArrayList<>();
        Row row = new Row(mappers.config().uint64AsLong());
        long[] n = {0};
        BlockItems<T> items = (Block b, Consumer<? super T> sink) -> {
            for (int i = 0; i < b.rowCount(); i++) {
                row.position(b, i);
                sink.accept(mapper.mapRow(row, n[0]++));
            }
        };
        forEachBlock(sql, options, items.keptWhole(), out::add);
        return out;
    }

    /**
     * Runs a query and returns every row as a fresh {@code Object[]}, values boxed as by
     * {@code Column.getObject} (UInt64 as exact {@code BigInteger}, or as {@code Long} with the raw
     * bits when the client's {@link dev.clickhousetcp.mapping.MappingConfig#uint64AsLong()} is set).
     * The whole result is held in memory; {@link #forEachRow(String, Consumer)} and
     * {@link #streamRows(String)} hold one block of rows at a time.
     *
     * @param sql the query
     * @return one array per row, in result order, each with one value per result column ({@code null}
     *         for NULL); a new mutable list
     * @throws ClickHouseServerException when the server reports an error (no partial list is returned)
     */
    public List<Object[]> queryRows(String sql) {
        return queryRows(sql, QueryOptions.DEFAULT);
    }

    /**
     * {@link #queryRows(String)} with query options.
     *
     * @param sql     the query
     * @param options the per-query options
     * @return one array per row, in result order, each with one value per result column ({@code null} for NULL)
     * @throws ClickHouseServerException when the server reports an error (no partial list is returned)
     */
    public List<Object[]> queryRows(String sql, QueryOptions options) {
        List<Object[]> out = new ArrayList<>();
        forEachBlock(sql, options, new ArrayRows(mappers.config().uint64AsLong()).keptWhole(), out::add);
        return out;
    }

    /**
     * Runs a query and hands every row, as a fresh {@code Object[]} boxed as by
     * {@link #queryRows(String)}, to {@code action} as the blocks arrive, holding at most one block's
     * rows: the streaming form of {@link #queryRows(String)}, as {@link #forEach(String, Class, Consumer)}
     * is of {@link #query(String, Class)}. The array is the action's to keep. The call returns once
     * the result is complete; when the server reports an error part way, the rows handed over so far
     * were real rows but the result is incomplete, and the error is thrown.
     *
     * @param sql    the query
     * @param action called once per row, in result order, on the calling thread; an exception it
     *               throws cancels the query (the connection is drained or dropped as by
     *               {@link QueryResult#close()}) and is rethrown
     * @return rows handed to {@code action}
     * @throws ClickHouseServerException when the server reports an error
     */
    public long forEachRow(String sql, Consumer<? super Object[]> action) {
        return forEachRow(sql, QueryOptions.DEFAULT, action);
    }

    /**
     * {@link #forEachRow(String, Consumer)} with query options.
     *
     * @param sql     the query
     * @param options the per-query options
     * @param action  called once per row, in result order, on the calling thread; an exception it
     *                throws cancels the query and is rethrown
     * @return rows handed to {@code action}
     * @throws ClickHouseServerException when the server reports an error
     */
    public long forEachRow(String sql, QueryOptions options, Consumer<? super Object[]> action) {
        ArrayRows rows = new ArrayRows(mappers.config().uint64AsLong());
        forEachBlock(sql, options, rows, action);
        return rows.rows;
    }

    /**
     * Runs a query and returns its rows, boxed as by {@link #queryRows(String)}, as a lazy sequential
     * stream that holds one pooled connection until it is closed: use try-with-resources. Rows are
     * read one block at a time as the stream is consumed; closing it before the end cancels the
     * query (the connection is drained, or dropped when it cannot be, as by {@link QueryResult#close()}).
     * A server error part way is thrown from the stream operation that reaches it.
     *
     * @param sql the query (sent by this call; rows are read as the stream is consumed)
     * @return a sequential, ordered stream of fresh arrays, one per row, to be closed by the caller
     * @throws ClickHouseServerException when the server rejects the query before any row
     */
    public Stream<Object[]> streamRows(String sql) {
        return streamRows(sql, QueryOptions.DEFAULT);
    }

    /**
     * {@link #streamRows(String)} with query options.
     *
     * @param sql     the query (sent by this call; rows are read as the stream is consumed)
     * @param options the per-query options
     * @return a sequential, ordered stream of fresh arrays, one per row, to be closed by the caller
     * @throws ClickHouseServerException when the server rejects the query before any row
     */
    public Stream<Object[]> streamRows(String sql, QueryOptions options) {
        return stream(query(sql, options), new ArrayRows(mappers.config().uint64AsLong()), Spliterator.NONNULL);
    }

    /**
     * Inserts rows into {@code table}. {@code columns} names the target columns (empty = all columns
     * of the table, in order); each row holds one value per column. Values are converted to the
     * column types from the server's insert header before anything is sent for that block.
     *
     * @param table   table name as SQL ({@code db.table} allowed; quote unusual names yourself)
     * @param columns the target column names, sent back-quoted; empty or {@code null} for all columns
     * @param rows    the rows, each an array of one value per target column (iterated once)
     * @return rows inserted
     * @throws ClickHouseTypeException when a row has the wrong number of values or a value cannot be
     *                                 converted to its column's type (naming the row and column)
     */
    public long insert(String table, List<String> columns, Iterable<Object[]> rows) {
        return insert(table, columns, rows, QueryOptions.DEFAULT);
    }

    /**
     * {@link #insert(String, List, Iterable)} with query options.
     *
     * @param table   table name as SQL ({@code db.table} allowed)
     * @param columns the target column names; empty or {@code null} for all columns
     * @param rows    the rows, each an array of one value per target column
     * @param options the options of the INSERT statement (settings, query_id, timeout...)
     * @return rows inserted
     */
    public long insert(String table, List<String> columns, Iterable<Object[]> rows, QueryOptions options) {
        return insert(table, columns, rows, InsertOptions.builder().queryOptions(options).build());
    }

    /**
     * Inserts {@code Object[]} rows in wire blocks of {@code maxRowsPerBlock} rows with the given
     * options (deduplication token, safe-retry mode, async insert); see
     * {@link #insert(String, List, Iterable)}.
     *
     * @param table   table name as SQL ({@code db.table} allowed)
     * @param columns the target column names; empty or {@code null} for all columns
     * @param rows    the rows, each an array of one value per target column; iterated once per attempt
     *                (so it must be re-iterable when {@link InsertOptions#maxAttempts()} is above 1)
     * @param options block size, deduplication token, safe-retry mode, async insert and attempts
     * @return rows inserted
     */
    public long insert(String table, List<String> columns, Iterable<Object[]> rows, InsertOptions options) {
        return inserts.insert(table, columns, rows, options);
    }

    /**
     * Columnar insert: {@code columns} maps each column name to its values as a Java array (primitive
     * arrays of the column's own width — {@code long[]} for Int64/UInt64, {@code int[]} for
     * Int32/UInt32, {@code double[]}, {@code float[]} — are serialized straight from the array
     * without a copy), a {@code List}, a {@link FlatArray} (an Array column
     * as flattened elements plus end offsets) or a {@link Column} read earlier; all columns must
     * have the same length and every column of the insert header must be present. The arrays are
     * read while this call runs: do not modify them concurrently.
     *
     * @param table   table name as SQL ({@code db.table} allowed)
     * @param columns column name to the column's values; its key order is the INSERT's column list
     * @return rows inserted
     * @throws ClickHouseTypeException when a value cannot be converted to its column's type (nothing
     *                                 is sent then)
     */
    public long insertColumns(String table, Map<String, ?> columns) {
        return insertColumns(table, columns, QueryOptions.DEFAULT);
    }

    /**
     * {@link #insertColumns(String, Map)} with query options.
     *
     * @param table   table name as SQL ({@code db.table} allowed)
     * @param columns column name to the column's values; its key order is the INSERT's column list
     * @param options the options of the INSERT statement
     * @return rows inserted
     * @throws ClickHouseTypeException when a value cannot be converted to its column's type, a column
     *                                 is missing or the columns differ in length (nothing is sent then)
     */
    public long insertColumns(String table, Map<String, ?> columns, QueryOptions options) {
        return insertColumns(table, columns, InsertOptions.builder().queryOptions(options).build());
    }

    /**
     * Columnar insert as {@link #insertColumns(String, Map)}, sent as one block with the given options.
     * A value may also be a {@link Column} read earlier: a column of exactly the target type is
     * re-sent in its native layout ({@link ColumnCopyWriter}: no per-value conversion, fixed-width
     * data as one bulk copy, offsets, null map and dictionary as they are); another type is converted
     * value by value.
     *
     * @param table   table name as SQL ({@code db.table} allowed)
     * @param columns column name to the column's values; its key order is the INSERT's column list
     * @param options deduplication token, async insert and the query options; {@code maxRowsPerBlock}
     *                does not split the block, and the call is made once whatever {@code maxAttempts} says
     * @return rows inserted
     * @throws ClickHouseTypeException when a value cannot be converted to its column's type, a column
     *                                 is missing or the columns differ in length (nothing is sent then)
     */
    public long insertColumns(String table, Map<String, ?> columns, InsertOptions options) {
        return inserts.insertColumns(table, columns, options);
    }

    /**
     * Inserts one block (e.g. read earlier and detached with {@link Block#copy()}); see {@link #insertBlocks}.
     *
     * @param table table name as SQL ({@code db.table} allowed)
     * @param block the rows; its column names name the target columns
     * @return rows inserted (the block's row count)
     */
    public long insertBlock(String table, Block block) {
        return insertBlocks(table, List.of(block), InsertOptions.DEFAULT);
    }

    /**
     * Inserts blocks read earlier (e.g. the blocks of a {@link QueryResult} from another query or
     * server, or detached copies): each block becomes one wire block, its columns matched to the
     * table's columns by name ({@code INSERT INTO table (names of the first block)}). Columns of the
     * target type are re-sent in their native layout without rebuilding offsets, null maps or
     * dictionaries ({@link ColumnCopyWriter}); others are converted value by value. A borrowed block
     * is sent before the source moves on, so blocks may come straight from a result stream. With
     * {@code tokenPerBlock}, every block is its own INSERT (safe retries).
     *
     * @param table   table name as SQL ({@code db.table} allowed)
     * @param blocks  the blocks, iterated once; every block must have the first block's column names
     * @param options deduplication token, safe-retry mode, async insert and the query options;
     *                {@code maxRowsPerBlock} is not applied (each block is sent whole) and the call is
     *                made once whatever {@code maxAttempts} says
     * @return rows inserted (0 when {@code blocks} is empty: nothing is sent)
     */
    public long insertBlocks(String table, Iterable<Block> blocks, InsertOptions options) {
        return inserts.insertBlocks(table, blocks, options);
    }

    /**
     * Runs an INSERT statement whose data the callback streams through the {@link InsertStream};
     * finishes the insert after the callback returns, or abandons it (discarding the connection) when
     * the callback throws.
     *
     * @param <T>       the callback's result type
     * @param insertSql the {@code INSERT INTO ... VALUES} statement, without data (see {@link InsertStream})
     * @param options   the options of the INSERT statement
     * @param fn        streams the rows; the stream must not escape it
     * @return what {@code fn} returned
     */
    public <T> T withInsert(String insertSql, QueryOptions options, Function<InsertStream, T> fn) {
        return inserts.withInsert(insertSql, options, fn);
    }

    // ------------------------------------------------------------------ objects: read

    /**
     * Runs a query and maps every row to {@code type}: a record (canonical constructor), a class with
     * a no-arg constructor and setters or fields, a class with a {@code @ClickHouseConstructor} or a
     * single public constructor (parameter names from {@code -parameters}), or, for a one-column
     * result, a value type such as {@code Long}, {@code String}, {@code LocalDate}. Columns match
     * properties by {@code @ClickHouseColumn}, exact name, case-insensitive name, then snake_case to
     * camelCase. The plan is built once per (class, column names and types) and cached.
     *
     * @param <T>  the mapped type
     * @param sql  the query
     * @param type the class each row is mapped to
     * @return the mapped rows, in result order (a new mutable list)
     * @throws MappingException when the class does not fit the result (before any row is mapped), or a
     *                          value does not fit its property (a NULL into a primitive, out of range)
     */
    public <T> List<T> query(String sql, Class<T> type) {
        return query(sql, QueryOptions.DEFAULT, type);
    }

    /**
     * {@link #query(String, Class)} with query options.
     *
     * @param <T>     the mapped type
     * @param sql     the query
     * @param options the per-query options
     * @param type    the class each row is mapped to
     * @return the mapped rows, in result order (a new mutable list)
     * @throws MappingException when the class does not fit the result or a value does not fit its property
     */
    public <T> List<T> query(String sql, QueryOptions options, Class<T> type) {
        List<T> out = new ArrayList<>();
        forEachBlock(sql, options, new MappedRows<>(type).keptWhole(), out::add);
        return out;
    }

    /**
     * Runs a query and hands every row, mapped to {@code type} (see {@link #query(String, Class)}),
     * to {@code action} as the blocks arrive, holding at most one block's objects.
     *
     * @param <T>    the mapped type
     * @param sql    the query
     * @param type   the class each row is mapped to
     * @param action called once per row, in result order, on the calling thread; an exception it
     *               throws cancels the query and is rethrown
     * @return rows mapped
     * @throws MappingException when the class does not fit the result or a value does not fit its property
     */
    public <T> long forEach(String sql, Class<T> type, Consumer<? super T> action) {
        return forEach(sql, QueryOptions.DEFAULT, type, action);
    }

    /**
     * {@link #forEach(String, Class, Consumer)} with query options.
     *
     * @param <T>     the mapped type
     * @param sql     the query
     * @param options the per-query options
     * @param type    the class each row is mapped to
     * @param action  called once per row, in result order, on the calling thread
     * @return rows mapped
     * @throws MappingException when the class does not fit the result or a value does not fit its property
     */
    public <T> long forEach(String sql, QueryOptions options, Class<T> type, Consumer<? super T> action) {
        MappedRows<T> rows = new MappedRows<>(type);
        forEachBlock(sql, options, rows, action);
        return rows.rows();
    }

    /**
     * Runs a query and returns its rows mapped to {@code type} (see {@link #query(String, Class)}) as
     * a lazy sequential stream that holds one pooled connection until it is closed: use
     * try-with-resources. Closing it early cancels the query.
     *
     * @param <T>  the mapped type
     * @param sql  the query (sent by this call; rows are read as the stream is consumed)
     * @param type the class each row is mapped to
     * @return a sequential, ordered stream of the mapped rows, to be closed by the caller
     */
    public <T> Stream<T> stream(String sql, Class<T> type) {
        return stream(sql, QueryOptions.DEFAULT, type);
    }

    /**
     * {@link #stream(String, Class)} with query options.
     *
     * @param <T>     the mapped type
     * @param sql     the query (sent by this call; rows are read as the stream is consumed)
     * @param options the per-query options
     * @param type    the class each row is mapped to
     * @return a sequential, ordered stream of the mapped rows, to be closed by the caller
     */
    public <T> Stream<T> stream(String sql, QueryOptions options, Class<T> type) {
        return stream(query(sql, options), new MappedRows<>(type), 0);
    }

    /**
     * Turns each block of a result into the items a call hands on, keeping what it needs across blocks.
     * Callers go through {@link #emitChecked}, which refuses a block whose row objects its bytes do not back.
     */
    @FunctionalInterface
    private interface BlockItems<T> {
        /** Hands every row of {@code b}, as an item, to {@code sink}, in order. */
        void emit(Block b, Consumer<? super T> sink);

        /** {@link #emit}, once {@link Block#checkRowObjects()} allows objects for {@code b}'s rows. */
        default void emitChecked(Block b, Consumer<? super T> sink) {
            b.checkRowObjects();
            emit(b, sink);
        }

        /**
         * These items for a call that keeps the whole result: the row objects of all its blocks are
         * charged to one {@link RowObjectAccount} before each block's are built.
         */
        default BlockItems<T> keptWhole() {
            RowObjectAccount account = new RowObjectAccount();
            BlockItems<T> items = this;
            return new BlockItems<>() {
                @Override
                public void emit(Block b, Consumer<? super T> sink) {
                    items.emit(b, sink);
                }

                @Override
                public void emitChecked(Block b, Consumer<? super T> sink) {
                    account.add(b);
                    items.emit(b, sink);
                }
            };
        }
    }

    /** Rows mapped to {@code type} by the plan compiled for the first block's columns. */
    private final class MappedRows<T> implements BlockItems<T> {
        private final Class<T> type;
        private ReadPlan.Reader<T> reader;

        MappedRows(Class<T> type) {
            this.type = type;
        }

        @Override
        public void emit(Block b, Consumer<? super T> sink) {
            if (reader == null) {
                reader = readPlan(type, b).newReader();
            }
            reader.read(b, sink);
        }

        long rows() {
            return reader == null ? 0 : reader.rows();
        }
    }

    /** Rows as fresh {@code Object[]}, built a block at a time ({@link RowArrays}); each array is the sink's to keep. */
    private static final class ArrayRows implements BlockItems<Object[]> {
        private final RowArrays arrays;
        long rows;

        ArrayRows(boolean uint64AsLong) {
            this.arrays = new RowArrays(uint64AsLong);
        }

        @Override
        public void emit(Block b, Consumer<? super Object[]> sink) {
            int n = b.rowCount();
            Object[][] filled = arrays.read(b);
            for (int i = 0; i < n; i++) {
                Object[] row = filled[i];
                filled[i] = null; // the sink's from now on
                sink.accept(row);
            }
            rows += n;
        }
    }

    /**
     * Runs {@code sql} and hands the items of every block to {@code action} as the blocks arrive. An
     * exception from the items or the action cancels the query (the result is closed as by
     * {@link QueryResult#close()}), ends its observation and is rethrown.
     */
    private <T> void forEachBlock(String sql, QueryOptions options, BlockItems<T> items, Consumer<? super T> action) {
        try (QueryResult r = query(sql, options)) {
            try {
                Block b;
                while ((b = r.next()) != null) {
                    items.emitChecked(b, action);
                }
            } catch (RuntimeException e) {
                r.abandonWith(e); // a mapping error or the action's: the observation ends with it
                throw e;
            }
        }
    }

    /**
     * The items of {@code r}'s blocks as a lazy sequential stream that reads a block when it needs one
     * and closes {@code r} when closed. An exception from reading, the items or the action ends the
     * observation with it and is thrown from the stream operation; closing the stream then cancels.
     *
     * @param characteristics spliterator characteristics beside {@link Spliterator#ORDERED}
     */
    private static <T> Stream<T> stream(QueryResult r, BlockItems<T> items, int characteristics) {
        Spliterator<T> sp = new Spliterators.AbstractSpliterator<T>(Long.MAX_VALUE,
                Spliterator.ORDERED | characteristics) {
            private final ArrayDeque<T> buffer = new ArrayDeque<>();
            private boolean done;

            private boolean fill() {
                while (buffer.isEmpty() && !done) {
                    Block b = r.next();
                    if (b == null) {
                        done = true;
                        return false;
                    }
                    items.emitChecked(b, buffer::add);
                }
                return !buffer.isEmpty();
            }

            @Override
            public boolean tryAdvance(Consumer<? super T> action) {
                try {
                    if (!fill()) {
                        return false;
                    }
                    action.accept(buffer.poll());
                    return true;
                } catch (RuntimeException e) {
                    r.abandonWith(e); // the observation ends with it when the stream is closed
                    throw e;
                }
            }

            @Override
            public void forEachRemaining(Consumer<? super T> action) {
                try {
                    while (!buffer.isEmpty()) {
                        action.accept(buffer.poll());
                    }
                    Block b;
                    while (!done && (b = r.next()) != null) {
                        items.emitChecked(b, action);
                    }
                    done = true;
                } catch (RuntimeException e) {
                    r.abandonWith(e);
                    throw e;
                }
            }
        };
        return StreamSupport.stream(sp, false).onClose(r::close);
    }

    private <T> ReadPlan<T> readPlan(Class<T> type, Block b) {
        List<DataType> types = new ArrayList<>(b.columnCount());
        for (int i = 0; i < b.columnCount(); i++) {
            types.add(b.column(i).type());
        }
        return mappers.readPlan(type, b.names(), types);
    }

    // ------------------------------------------------------------------ objects: insert

    /**
     * Inserts objects (records, beans, classes with getters or fields) into {@code table}; their class
     * is taken from the first element. See {@link #insert(String, Class, Iterable, InsertOptions)}.
     *
     * @param <T>   the element type
     * @param table table name as SQL ({@code db.table} allowed)
     * @param rows  the objects, none {@code null}; iterated again from the start after the first
     *              element was looked at, so it must be re-iterable
     * @return rows inserted (0 for an empty source: nothing is sent)
     * @throws MappingException when the class does not fit the table, an element is {@code null}, or a
     *                          value does not fit its column
     */
    public <T> long insert(String table, Iterable<T> rows) {
        return insert(table, rows, InsertOptions.DEFAULT);
    }

    /**
     * {@link #insert(String, Iterable)} with insert options. When the first element is an
     * {@code Object[]}, the elements are taken as rows of values for all columns of the table, as by
     * {@link #insert(String, List, Iterable, InsertOptions)} with no column names.
     *
     * @param <T>     the element type
     * @param table   table name as SQL ({@code db.table} allowed)
     * @param rows    the objects, none {@code null}; must be re-iterable
     * @param options block size, deduplication token, safe-retry mode, async insert and attempts
     * @return rows inserted (0 for an empty source: nothing is sent)
     * @throws MappingException when the class does not fit the table, an element is {@code null}, or a
     *                          value does not fit its column
     */
    public <T> long insert(String table, Iterable<T> rows, InsertOptions options) {
        return inserts.insert(table, rows, options);
    }

    /**
     * Inserts objects of {@code type} into {@code table}, {@code maxRowsPerBlock} rows per wire block,
     * so memory stays bounded for any number of rows. The table's columns ({@code DESCRIBE TABLE})
     * are matched to the readable properties by the rules of {@link #query(String, Class)}; every
     * property needs a column and every column without a default needs a property (columns with
     * defaults may be left out: the INSERT names only the mapped columns); mismatches and impossible
     * type conversions fail with every problem listed before any row is sent. The server's insert
     * header then decides column order and types.
     *
     * @param <T>     the mapped type
     * @param table   table name as SQL ({@code db.table} allowed)
     * @param type    the class whose readable properties supply the column values
     * @param rows    the objects, none {@code null}; iterated once per attempt
     * @param options block size, deduplication token, safe-retry mode, async insert and attempts
     * @return rows inserted (0 for an empty source: nothing is sent)
     * @throws MappingException when the class does not fit the table, or a value does not fit its
     *                          column (naming row, column and property; the insert is abandoned)
     */
    public <T> long insert(String table, Class<T> type, Iterable<? extends T> rows, InsertOptions options) {
        return inserts.insert(table, type, rows, options);
    }

    /**
     * Inserts the objects of a (lazily generated) stream; its class is taken from the first element.
     * Runs with {@link InsertOptions#DEFAULT}.
     *
     * @param <T>   the element type
     * @param table table name as SQL ({@code db.table} allowed)
     * @param rows  the objects, none {@code null}; consumed once, lazily (the stream is not closed here)
     * @return rows inserted (0 for an empty stream: nothing is sent)
     * @throws MappingException when the class does not fit the table, an element is {@code null}, or a
     *                          value does not fit its column
     */
    public <T> long insert(String table, Stream<T> rows) {
        return inserts.insert(table, rows);
    }

    /**
     * Inserts the objects of a stream, consumed once, lazily, one window of {@code maxRowsPerBlock}
     * objects at a time. {@code maxAttempts} must be 1 (a stream cannot be replayed; retry yourself
     * with a fresh stream and the same deduplication token). See
     * {@link #insert(String, Class, Iterable, InsertOptions)}.
     *
     * @param <T>     the mapped type
     * @param table   table name as SQL ({@code db.table} allowed)
     * @param type    the class whose readable properties supply the column values
     * @param rows    the objects, none {@code null} (the stream is not closed here)
     * @param options block size, deduplication token, safe-retry mode and async insert
     * @return rows inserted (0 for an empty stream: nothing is sent)
     * @throws IllegalArgumentException when {@code options.maxAttempts()} is above 1
     * @throws MappingException         when the class does not fit the table or a value does not fit its column
     */
    public <T> long insert(String table, Class<T> type, Stream<? extends T> rows, InsertOptions options) {
        return inserts.insert(table, type, rows, options);
    }

    /**
     * The columns of {@code table} as {@code DESCRIBE TABLE} reports them. Columns of a type this
     * client cannot parse are left out when they have a default expression.
     *
     * @param table table name as SQL ({@code db.table} allowed), appended to {@code DESCRIBE TABLE} as is
     * @return the columns in table order, with their parsed types and default kinds
     *         ({@code DEFAULT}, {@code MATERIALIZED}, {@code ALIAS}..., empty for none)
     * @throws MappingException when a column without a default has a type this client does not support
     */
    public List<TableColumn> describe(String table) {
        List<TableColumn> out = new ArrayList<>();
        for (Object[] row : queryRows("DESCRIBE TABLE " + table)) {
            String name = (String) row[0];
            String typeName = (String) row[1];
            String kind = row[2] == null ? "" : (String) row[2];
            DataType t;
            try {
                t = DataTypes.parse(typeName, ZoneOffset.UTC);
            } catch (ClickHouseTypeException e) {
                if (!kind.isEmpty()) {
                    continue;
                }
                throw new MappingException("column '" + name + "' of " + table + " has type " + typeName
                        + ", which this client does not support", e);
            }
            out.add(new TableColumn(name, t, kind));
        }
        return out;
    }

    /**
     * Checks {@code type} against {@code table} ({@code DESCRIBE TABLE}) for both reading and
     * inserting, reporting every mismatch at once instead of failing at the first.
     *
     * @param type  the record, bean or constructor-bound class to check
     * @param table table name as SQL ({@code db.table} allowed)
     * @return the report of every problem found for reading and for inserting
     */
    public SchemaReport checkSchema(Class<?> type, String table) {
        return mappers.check(type, table, describe(table));
    }

}
