package dev.clickhousetcp.spring.core;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import dev.clickhousetcp.client.Compression;
import dev.clickhousetcp.client.ExternalTable;
import dev.clickhousetcp.client.QueryListener;
import dev.clickhousetcp.client.RowMapper;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.mapping.SchemaReport;
import dev.clickhousetcp.mapping.TableColumn;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.protocol.TraceContext;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.TypeMismatchDataAccessException;

/**
 * The operations of {@link ClickHouseTcpTemplate}, as an interface (for the operations bound to a session, and
 * for callers that want to depend on an interface, as on {@code JdbcOperations}).
 *
 * <p><b>Short forms and per-call options.</b> Each operation takes the SQL (and, for the classic JdbcTemplate
 * methods, a map of server-side parameters). Anything more — settings, query_id, timeout, listener, external
 * tables, insert deduplication — goes through a spec: {@link #sql(String)} for statements and queries,
 * {@link #insertInto(String)} for inserts. Specs are immutable and offer the same terminal operations:
 *
 * <pre>{@code
 * List<Trade> trades = template.sql("SELECT * FROM trades WHERE qty > {min:UInt64}")
 *         .param("min", 5)
 *         .setting("max_threads", 2)
 *         .queryId(id)
 *         .timeout(Duration.ofSeconds(5))
 *         .query(Trade.class);
 * template.insertInto("trades").deduplicationToken(batchId).insert(trades);
 * }</pre>
 *
 * <p><b>Parameters</b> are ClickHouse server-side query parameters: the SQL names each with its ClickHouse type,
 * {@code {name:Type}}, and the Java value is rendered as text the server parses as that type — no quoting or
 * escaping by the caller, and values never become part of the SQL text. Supported values: {@code null},
 * strings, numbers, booleans, UUIDs, enums, {@code java.time} values, {@code InetAddress}, collections, arrays
 * and maps. Instants and zoned/offset date-times are sent as Unix time, so a {@code DateTime} parameter needs
 * a whole second while {@code DateTime64} keeps the fraction; {@code LocalDateTime} is read in the parameter
 * type's time zone. A value of another type is an {@link InvalidDataAccessApiUsageException}.
 *
 * <p><b>Objects.</b> {@code query(sql, Type.class)}, {@code queryForList(sql, Type.class)}, {@code forEach},
 * {@code stream} and the object inserts map records, beans and constructor-bound classes through the client's
 * compiled, cached plans (see {@code docs/mapping.md}); a {@code java.*} type, primitive, enum or array is
 * read from a one-column result.
 *
 * <p><b>Connections.</b> Every call borrows one pooled connection and gives it back before it returns — except
 * {@link #stream(String, Class)}, which holds it until the stream is closed, and {@link #inSession}, which pins
 * one for the callback. Inserts in safe-retry mode ({@code tokenPerBlock}) take one connection per block, one
 * after the other.
 *
 * <p><b>Errors</b> of the client are translated to {@link DataAccessException}s implementing
 * {@link ClickHouseErrorDetails} (see {@link ClickHouseTcpExceptionTranslator}). Exceptions thrown by callbacks
 * ({@link RowMapper}, {@link BlockCallback}, consumers, {@link SessionCallback}) reach the caller unchanged.
 */
public interface ClickHouseTcpOperations {

    // ------------------------------------------------------------------ specs

    /**
     * Starts a statement or query with per-call options.
     * @param sql the statement
     * @return an immutable spec; nothing is sent until a terminal operation runs
     */
    StatementSpec sql(String sql);

    /**
     * Starts an insert with per-call options (settings, query_id, timeout, deduplication token, block size,
     * async insert, attempts).
     * @param table the table, as SQL ({@code db.table} allowed; quote unusual names yourself)
     * @return an immutable spec; nothing is sent until a terminal operation runs
     */
    InsertSpec insertInto(String table);

    // ------------------------------------------------------------------ statements

    /**
     * Runs a statement (DDL, {@code INSERT ... SELECT}, {@code ALTER}, ...) and reads its response to the end,
     * discarding any result rows. Holds a connection for the call.
     * @param sql the statement
     * @return the accumulated progress; {@link Progress#writtenRows()} counts rows an {@code INSERT ... SELECT}
     * wrote
     * @throws DataAccessException if the statement fails
     */
    Progress execute(String sql);

    /**
     * Runs a statement with server-side {@code {name:Type}} parameters; see {@link #execute(String)}.
     * @param sql the statement
     * @param params parameter values by name
     * @return the accumulated progress
     * @throws DataAccessException if the statement fails or a parameter value is not supported
     */
    Progress execute(String sql, Map<String, ?> params);

    // ------------------------------------------------------------------ queries

    /**
     * Runs a query and maps every row to {@code type} through the client's compiled mappers. Holds a connection
     * while the result is read; the whole result is kept in memory (see {@link #forEach} and {@link #stream}
     * for large results).
     * @param sql the query
     * @param type a record, bean or constructor-bound class, or a value type for a one-column result
     * @param <T> the element type
     * @return the mapped rows, in result order
     * @throws TypeMismatchDataAccessException if the class does not fit the result or a value its property
     * @throws DataAccessException if the query fails
     */
    <T> List<T> query(String sql, Class<T> type);

    /**
     * Like {@link #query(String, Class)}, with server-side {@code {name:Type}} parameters.
     * @param sql the query
     * @param params parameter values by name
     * @param type the class to map rows to
     * @param <T> the element type
     * @return the mapped rows, in result order
     * @throws DataAccessException if the query fails or a parameter value is not supported
     */
    <T> List<T> query(String sql, Map<String, ?> params, Class<T> type);

    /**
     * Runs a query and maps each row with a {@link RowMapper}.
     * @param sql the query
     * @param rowMapper maps the current row; the row is valid only during the call
     * @param <T> the element type
     * @return the mapped rows, in result order
     * @throws DataAccessException if the query fails
     */
    <T> List<T> query(String sql, RowMapper<T> rowMapper);

    /**
     * Like {@link #query(String, RowMapper)}, with server-side {@code {name:Type}} parameters.
     * @param sql the query
     * @param params parameter values by name
     * @param rowMapper maps the current row; the row is valid only during the call
     * @param <T> the element type
     * @return the mapped rows, in result order
     * @throws DataAccessException if the query fails or a parameter value is not supported
     */
    <T> List<T> query(String sql, Map<String, ?> params, RowMapper<T> rowMapper);

    /**
     * Runs a query and returns each row as a map from column name to value, in column order, with values as
     * the client boxes them ({@code UInt64} as {@code BigInteger}, {@code DateTime} as {@code ZonedDateTime},
     * {@code Array} as {@code List}, NULL as {@code null}, ...).
     * @param sql the query
     * @return one {@code LinkedHashMap} per row
     * @throws DataAccessException if the query fails
     */
    List<Map<String, @Nullable Object>> queryForList(String sql);

    /**
     * Like {@link #queryForList(String)}, with server-side {@code {name:Type}} parameters.
     * @param sql the query
     * @param params parameter values by name
     * @return one {@code LinkedHashMap} per row
     * @throws DataAccessException if the query fails or a parameter value is not supported
     */
    List<Map<String, @Nullable Object>> queryForList(String sql, Map<String, ?> params);

    /**
     * The same as {@link #query(String, Class)}: every row mapped to {@code elementType} (one-column results
     * for value types, as JdbcTemplate's {@code queryForList(sql, Class)}).
     * @param sql the query
     * @param elementType the class to map rows to
     * @param <T> the element type
     * @return the mapped rows, in result order
     * @throws DataAccessException if the query fails
     */
    <T> List<T> queryForList(String sql, Class<T> elementType);

    /**
     * Runs a query that returns exactly one row and converts or maps it. For a record, bean or constructor-bound
     * class the row is mapped through the compiled mappers (any number of columns). For a value type
     * ({@code java.*} types, primitives, enums, arrays) the row must have one column, converted as
     * JdbcTemplate's {@code queryForObject(sql, Class)} does: the value's own type, {@code String} (ClickHouse's
     * text form), a number type (with overflow checks), {@code Boolean}, a {@code java.time} type, or anything
     * Spring's {@code DefaultConversionService} converts to. A second row is not read: the query is cancelled.
     * @param sql the query
     * @param requiredType the type to return
     * @param <T> the type to return
     * @return the value, or {@code null} if it is NULL
     * @throws IncorrectResultSizeDataAccessException if the query returns no row or more than one
     * @throws InvalidDataAccessApiUsageException if a value type is asked of more than one column
     * @throws TypeMismatchDataAccessException if the value cannot be converted
     * @throws DataAccessException if the query fails
     */
    <T> @Nullable T queryForObject(String sql, Class<T> requiredType);

    /**
     * Like {@link #queryForObject(String, Class)}, with server-side {@code {name:Type}} parameters.
     * @param sql the query
     * @param params parameter values by name
     * @param requiredType the type to return
     * @param <T> the type to return
     * @return the value, or {@code null} if it is NULL
     * @throws IncorrectResultSizeDataAccessException if the query returns no row or more than one
     * @throws DataAccessException if the query fails or a parameter value is not supported
     */
    <T> @Nullable T queryForObject(String sql, Map<String, ?> params, Class<T> requiredType);

    /**
     * Runs a query that returns exactly one row and maps it; a second row is not mapped (the query is
     * cancelled).
     * @param sql the query
     * @param rowMapper maps the row
     * @param <T> the type to return
     * @return the mapped row
     * @throws IncorrectResultSizeDataAccessException if the query returns no row or more than one
     * @throws DataAccessException if the query fails
     */
    <T> @Nullable T queryForObject(String sql, RowMapper<T> rowMapper);

    /**
     * Like {@link #queryForObject(String, RowMapper)}, with server-side {@code {name:Type}} parameters.
     * @param sql the query
     * @param params parameter values by name
     * @param rowMapper maps the row
     * @param <T> the type to return
     * @return the mapped row
     * @throws IncorrectResultSizeDataAccessException if the query returns no row or more than one
     * @throws DataAccessException if the query fails or a parameter value is not supported
     */
    <T> @Nullable T queryForObject(String sql, Map<String, ?> params, RowMapper<T> rowMapper);

    /**
     * Runs a query and hands every row, mapped to {@code type}, to {@code action} as the blocks arrive, holding
     * at most one block's objects in memory. Holds a connection until the result is read or {@code action}
     * throws (the query is then cancelled).
     * @param sql the query
     * @param type the class to map rows to
     * @param action receives each object, on the calling thread
     * @param <T> the element type
     * @return the number of rows mapped
     * @throws DataAccessException if the query fails
     */
    <T> long forEach(String sql, Class<T> type, Consumer<? super T> action);

    /**
     * Runs a query and returns its rows mapped to {@code type} as a lazy, sequential stream. <b>The stream holds a
     * pooled connection until it is closed: always close it</b> (try-with-resources). Reading it to the end
     * releases the connection too; closing it early cancels the query. Exceptions while it is consumed are
     * translated like any other, and the query is then closed at once.
     *
     * <pre>{@code
     * try (Stream<Trade> trades = template.stream("SELECT * FROM trades", Trade.class)) {
     *     trades.filter(Trade::large).forEach(this::alert);
     * }
     * }</pre>
     *
     * @param sql the query
     * @param type the class to map rows to
     * @param <T> the element type
     * @return the stream; it must be used from one thread
     * @throws DataAccessException if the query cannot be started (later failures are thrown by the stream's
     * operations)
     */
    <T> Stream<T> stream(String sql, Class<T> type);

    /**
     * Runs a query and hands every row as a fresh {@code Object[]} (values boxed as the client's
     * {@code queryRows}: UInt64 as exact {@code BigInteger}, or as {@code Long} with the raw bits when the client's
     * mapping config sets {@code uint64AsLong}) to {@code action} as the blocks arrive, holding at most one block's
     * rows in memory. Holds a connection until the result is read or {@code action} throws (the query is then
     * cancelled and the exception rethrown as is). The result is complete when this returns; a server error part
     * way is thrown translated.
     * <p>The default implementation throws {@link UnsupportedOperationException}; {@link ClickHouseTcpTemplate}
     * implements it.
     * @param sql the query
     * @param action receives each row, on the calling thread; the array is its own to keep
     * @return the number of rows handed to {@code action}
     * @throws DataAccessException if the query fails
     */
    default long forEachRow(String sql, Consumer<? super Object[]> action) {
        throw new UnsupportedOperationException("forEachRow is not implemented by " + getClass().getName());
    }

    /**
     * Runs a query and returns its rows as fresh {@code Object[]}s (boxed as {@link #forEachRow}) in a lazy,
     * sequential stream. <b>The stream holds a pooled connection until it is closed: always close it</b>
     * (try-with-resources). Reading it to the end releases the connection too; closing it early cancels the query.
     * Exceptions while it is consumed are translated like any other, and the query is then closed at once.
     * <p>The default implementation throws {@link UnsupportedOperationException}; {@link ClickHouseTcpTemplate}
     * implements it.
     * @param sql the query
     * @return the stream; it must be used from one thread
     * @throws DataAccessException if the query cannot be started (later failures are thrown by the stream's
     * operations)
     */
    default Stream<Object[]> streamRows(String sql) {
        throw new UnsupportedOperationException("streamRows is not implemented by " + getClass().getName());
    }

    /**
     * Runs a query and hands its blocks to {@code callback}: the columnar tier, typed column views and no
     * per-row objects. Holds a connection until the result is read or the callback throws (the query is then
     * cancelled).
     * @param sql the query
     * @param callback receives each block with at least one row; a block is valid only during the call
     * @return rows, progress, profile info, totals and extremes of the query
     * @throws DataAccessException if the query fails
     */
    QuerySummary queryBlocks(String sql, BlockCallback callback);

    // ------------------------------------------------------------------ inserts

    /**
     * Inserts objects (records, beans, classes with getters or fields), matched to the table's columns by name;
     * their class is that of the first element. Sent in blocks of {@code clickhouse.tcp.insert.block-rows} rows,
     * so memory stays bounded. Holds one connection for the call (plus a {@code DESCRIBE TABLE} before it). An
     * empty collection sends nothing.
     * @param table the table, as SQL
     * @param rows the objects; {@code Object[]} elements are rows for all columns in table order
     * @param <T> the element type
     * @return the number of rows inserted
     * @throws TypeMismatchDataAccessException if the class does not fit the table (before any row is sent) or a
     * value does not fit its column
     * @throws DataAccessException if the insert fails
     */
    <T> long insert(String table, Collection<T> rows);

    /**
     * Inserts the objects of a stream, consumed once, lazily, one block at a time; their class is that of the
     * first element. The stream is not closed. Holds one connection while the stream is consumed.
     * @param table the table, as SQL
     * @param rows the objects
     * @param <T> the element type
     * @return the number of rows inserted
     * @throws DataAccessException if the insert fails
     */
    <T> long insert(String table, Stream<T> rows);

    /**
     * Inserts rows of values, sent in blocks of {@code clickhouse.tcp.insert.block-rows} rows. Holds one
     * connection for the call.
     * @param table the table, as SQL
     * @param columns the target columns; empty for all columns of the table, in table order
     * @param rows one value per column each; values are converted to the column types (for example
     * {@code Instant}, {@code LocalDateTime} or {@code ZonedDateTime} for {@code DateTime}, {@code List} or
     * arrays for {@code Array}, {@code null} for {@code Nullable})
     * @return the number of rows inserted
     * @throws TypeMismatchDataAccessException if a value does not fit its column (nothing of the block being
     * built is sent)
     * @throws DataAccessException if the insert fails
     */
    long insert(String table, List<String> columns, Iterable<Object[]> rows);

    /**
     * Inserts columns of values in one block. Holds one connection for the call.
     * @param table the table, as SQL
     * @param columns each target column's values, as a {@code List}, a Java array (primitive arrays of the
     * column's width are sent without a copy), a {@code FlatArray} or a {@code Column} read earlier; all of the
     * same length
     * @return the number of rows inserted
     * @throws DataAccessException if the insert fails or the columns differ in length
     */
    long insertColumns(String table, Map<String, ?> columns);

    /**
     * Inserts blocks read earlier (for example from {@link #queryBlocks} of another server, after
     * {@code block.copy()}), one wire block each, columns matched by name; columns of the target type are sent in
     * their native layout. Holds one connection for the call.
     * @param table the table, as SQL
     * @param blocks the blocks
     * @return the number of rows inserted
     * @throws DataAccessException if the insert fails
     */
    long insertBlocks(String table, Iterable<Block> blocks);

    // ------------------------------------------------------------------ schema and sessions

    /**
     * The columns of a table as {@code DESCRIBE TABLE} reports them.
     * @param table the table, as SQL
     * @return the columns, in table order
     * @throws DataAccessException if the table does not exist or cannot be described
     */
    List<TableColumn> describe(String table);

    /**
     * Checks a class against a table, for reading rows into it and inserting it, and reports every mismatch at
     * once.
     * @param type the class
     * @param table the table, as SQL
     * @return the report; {@link SchemaReport#ok()} when the class fits
     * @throws DataAccessException if the table cannot be described
     */
    SchemaReport checkSchema(Class<?> type, String table);

    /**
     * Runs {@code callback} in a session: every call made through the operations it is given runs on one pinned
     * connection, so temporary tables and {@code SET} persist between them. The session's connection is taken
     * from the pool when the callback starts and closed (not returned to the pool, since it carries session
     * state) when it ends, also when it throws. Called inside a session, runs the callback in that same session.
     * @param callback the work
     * @param <T> the result type
     * @return what the callback returns
     * @throws DataAccessException if the session cannot be opened, or a call in it fails (translated)
     */
    <T extends @Nullable Object> T inSession(SessionCallback<T> callback);

    // ------------------------------------------------------------------ specs

    /**
     * Options shared by statement and insert specs. Specs are immutable: every method returns a new spec and
     * leaves this one unchanged, so a spec can be kept (for example in a field) and run many times, from
     * several threads. Invalid values (a non-positive timeout, an empty name) throw
     * {@code IllegalArgumentException} at once.
     * @param <S> the spec type
     */
    interface OptionsSpec<S extends OptionsSpec<S>> {

        /**
         * A ClickHouse setting for this call, on top of the client's default settings. Sent as "important": a
         * setting the server does not know fails the call (code 115).
         * @param name the setting, for example {@code max_threads}
         * @param value its value, sent as text ({@code String.valueOf})
         * @return a new spec
         */
        S setting(String name, Object value);

        /**
         * Several settings, as {@link #setting(String, Object)}.
         * @param settings values by name
         * @return a new spec
         */
        S settings(Map<String, ?> settings);

        /**
         * The query_id to send, instead of a random UUID (which the template generates otherwise, so that
         * translated exceptions can report it).
         * @param queryId the query_id
         * @return a new spec
         */
        S queryId(String queryId);

        /**
         * Limits the whole call on the client, from waiting for a connection to the end of the response; at the
         * deadline the query is cancelled and a {@code QueryTimeoutException} thrown (see the client's
         * {@code QueryOptions.timeout}).
         * @param timeout the limit, positive
         * @return a new spec
         */
        S timeout(Duration timeout);

        /**
         * Like {@link #timeout(Duration)}, and also sends it to the server as {@code max_execution_time} (whole
         * seconds, rounded up).
         * @param timeout the limit, positive
         * @return a new spec
         */
        S timeoutOnServerToo(Duration timeout);

        /**
         * Receives Progress, ProfileInfo, ProfileEvents and server Log packets of the call, on the calling
         * thread.
         * @param listener the listener
         * @return a new spec
         */
        S listener(QueryListener listener);

        /**
         * The default database for this call (the connection switches with {@code USE} when needed).
         * @param database the database
         * @return a new spec
         */
        S database(String database);

        /**
         * Network compression for this call, instead of the client's.
         * @param compression the compression
         * @return a new spec
         */
        S compression(Compression compression);

        /**
         * The quota key sent with the call.
         * @param quotaKey the quota key
         * @return a new spec
         */
        S quotaKey(String quotaKey);

        /**
         * A W3C trace context sent with the call, so the server's spans join the caller's trace.
         * @param traceContext the trace context
         * @return a new spec
         */
        S traceContext(TraceContext traceContext);
    }

    /**
     * A statement or query with per-call options ({@link ClickHouseTcpOperations#sql(String)}); immutable, see
     * {@link OptionsSpec}. The terminal operations are those of the template, without the SQL argument, and hold
     * connections the same way.
     */
    interface StatementSpec extends OptionsSpec<StatementSpec> {

        /**
         * A value for a {@code {name:Type}} placeholder (see {@link ClickHouseTcpOperations} for the supported
         * values). The value is prepared now: later changes to a passed collection are not seen.
         * @param name the placeholder's name
         * @param value the value, {@code null} for NULL
         * @return a new spec
         * @throws InvalidDataAccessApiUsageException if the value's type is not supported
         */
        StatementSpec param(String name, @Nullable Object value);

        /**
         * Several parameter values, as {@link #param(String, Object)}.
         * @param params values by name
         * @return a new spec
         * @throws InvalidDataAccessApiUsageException if a value's type is not supported
         */
        StatementSpec params(Map<String, ?> params);

        /**
         * Temporary data the statement can read by the table's name (ClickHouse "external data"). Its rows are
         * iterated each time the spec runs.
         * @param table the table
         * @return a new spec
         */
        StatementSpec externalTable(ExternalTable table);

        /**
         * See {@link ClickHouseTcpOperations#execute(String)}.
         * @return the accumulated progress
         */
        Progress execute();

        /**
         * See {@link ClickHouseTcpOperations#query(String, Class)}.
         * @param type the class to map rows to
         * @param <T> the element type
         * @return the mapped rows
         */
        <T> List<T> query(Class<T> type);

        /**
         * See {@link ClickHouseTcpOperations#query(String, RowMapper)}.
         * @param rowMapper maps the current row
         * @param <T> the element type
         * @return the mapped rows
         */
        <T> List<T> query(RowMapper<T> rowMapper);

        /**
         * See {@link ClickHouseTcpOperations#queryForList(String)}.
         * @return one map per row
         */
        List<Map<String, @Nullable Object>> queryForList();

        /**
         * See {@link ClickHouseTcpOperations#queryForList(String, Class)}.
         * @param elementType the class to map rows to
         * @param <T> the element type
         * @return the mapped rows
         */
        <T> List<T> queryForList(Class<T> elementType);

        /**
         * See {@link ClickHouseTcpOperations#queryForObject(String, Class)}.
         * @param requiredType the type to return
         * @param <T> the type to return
         * @return the value, or {@code null} if it is NULL
         */
        <T> @Nullable T queryForObject(Class<T> requiredType);

        /**
         * See {@link ClickHouseTcpOperations#queryForObject(String, RowMapper)}.
         * @param rowMapper maps the row
         * @param <T> the type to return
         * @return the mapped row
         */
        <T> @Nullable T queryForObject(RowMapper<T> rowMapper);

        /**
         * See {@link ClickHouseTcpOperations#forEach(String, Class, Consumer)}.
         * @param type the class to map rows to
         * @param action receives each object
         * @param <T> the element type
         * @return the number of rows mapped
         */
        <T> long forEach(Class<T> type, Consumer<? super T> action);

        /**
         * See {@link ClickHouseTcpOperations#stream(String, Class)}: the stream holds a connection until it is
         * closed.
         * @param type the class to map rows to
         * @param <T> the element type
         * @return the stream, to be closed
         */
        <T> Stream<T> stream(Class<T> type);

        /**
         * See {@link ClickHouseTcpOperations#forEachRow(String, Consumer)}. The default implementation throws
         * {@link UnsupportedOperationException}; the template's specs implement it.
         * @param action receives each row as a fresh array
         * @return the number of rows handed to {@code action}
         */
        default long forEachRow(Consumer<? super Object[]> action) {
            throw new UnsupportedOperationException("forEachRow is not implemented by " + getClass().getName());
        }

        /**
         * See {@link ClickHouseTcpOperations#streamRows(String)}: the stream holds a connection until it is
         * closed. The default implementation throws {@link UnsupportedOperationException}; the template's specs
         * implement it.
         * @return the stream of fresh arrays, one per row, to be closed
         */
        default Stream<Object[]> streamRows() {
            throw new UnsupportedOperationException("streamRows is not implemented by " + getClass().getName());
        }

        /**
         * See {@link ClickHouseTcpOperations#queryBlocks(String, BlockCallback)}.
         * @param callback receives each block
         * @return rows, progress, profile info, totals and extremes
         */
        QuerySummary queryBlocks(BlockCallback callback);
    }

    /**
     * An insert with per-call options ({@link ClickHouseTcpOperations#insertInto(String)}); immutable, see
     * {@link OptionsSpec}. The terminal operations are the template's inserts, without the table argument.
     *
     * <p>Safe retries: with {@link #deduplicationToken(String)} and {@link #tokenPerBlock(boolean)}, every block
     * is its own INSERT with the token {@code <token>-<block index>}, so running the same insert again with the
     * same rows neither loses nor duplicates rows (the table must keep tokens, see {@code docs/mapping.md});
     * {@link #maxAttempts(int)} retries re-iterable sources by itself after connection failures.
     */
    interface InsertSpec extends OptionsSpec<InsertSpec> {

        /**
         * Rows per wire block, instead of {@code clickhouse.tcp.insert.block-rows}.
         * @param rows at least 1
         * @return a new spec
         */
        InsertSpec maxRowsPerBlock(int rows);

        /**
         * Sends {@code insert_deduplication_token}.
         * @param token the token
         * @return a new spec
         */
        InsertSpec deduplicationToken(String token);

        /**
         * Safe-retry mode: one INSERT per block, each with its own token (needs a deduplication token).
         * @param on whether to use it
         * @return a new spec
         */
        InsertSpec tokenPerBlock(boolean on);

        /**
         * Sends {@code async_insert} and {@code wait_for_async_insert}.
         * @param on whether the server buffers the insert
         * @param waitForInsert whether the call waits until the buffer is flushed
         * @return a new spec
         */
        InsertSpec asyncInsert(boolean on, boolean waitForInsert);

        /**
         * Attempts for re-iterable sources after connection failures and timeouts (needs a deduplication token
         * when more than one; not for streams).
         * @param attempts at least 1
         * @return a new spec
         */
        InsertSpec maxAttempts(int attempts);

        /**
         * See {@link ClickHouseTcpOperations#insert(String, Collection)}.
         * @param rows the objects
         * @param <T> the element type
         * @return the number of rows inserted
         */
        <T> long insert(Collection<T> rows);

        /**
         * See {@link ClickHouseTcpOperations#insert(String, Stream)}.
         * @param rows the objects
         * @param <T> the element type
         * @return the number of rows inserted
         */
        <T> long insert(Stream<T> rows);

        /**
         * See {@link ClickHouseTcpOperations#insert(String, List, Iterable)}.
         * @param columns the target columns, empty for all
         * @param rows one value per column each
         * @return the number of rows inserted
         */
        long insert(List<String> columns, Iterable<Object[]> rows);

        /**
         * See {@link ClickHouseTcpOperations#insertColumns(String, Map)}.
         * @param columns each column's values
         * @return the number of rows inserted
         */
        long insertColumns(Map<String, ?> columns);

        /**
         * See {@link ClickHouseTcpOperations#insertBlocks(String, Iterable)}.
         * @param blocks the blocks
         * @return the number of rows inserted
         */
        long insertBlocks(Iterable<Block> blocks);
    }
}
