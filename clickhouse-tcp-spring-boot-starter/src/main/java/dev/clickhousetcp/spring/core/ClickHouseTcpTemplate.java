package dev.clickhousetcp.spring.core;

import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.client.ClickHouseSession;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.InsertOptions;
import dev.clickhousetcp.client.QueryOperations;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.client.RowMapper;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.mapping.SchemaReport;
import dev.clickhousetcp.mapping.TableColumn;
import dev.clickhousetcp.observe.QueryMasking;
import dev.clickhousetcp.protocol.Progress;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;

/**
 * The {@code JdbcTemplate} of the ClickHouse native TCP client: statements, queries mapped to objects, row
 * mappers, maps, single values, streams and blocks, inserts of objects, rows, columns and blocks, schema checks
 * and sessions — with the client's exceptions translated into Spring's {@link DataAccessException} hierarchy
 * on every path, including while a returned stream is consumed.
 *
 * <pre>{@code
 * record User(long id, String name) {}
 *
 * template.execute("CREATE TABLE IF NOT EXISTS users (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
 * template.insert("users", List.of(new User(1, "O'Brien"), new User(2, "Ada")));
 * List<User> users = template.query("SELECT id, name FROM users ORDER BY id", User.class);
 * long count = template.queryForObject("SELECT count() FROM users", Long.class);
 * List<User> some = template.sql("SELECT * FROM users WHERE id > {min:UInt64}")
 *         .param("min", 1)
 *         .timeout(Duration.ofSeconds(5))
 *         .query(User.class);
 * }</pre>
 *
 * <p>See {@link ClickHouseTcpOperations} for the operations, parameters, per-call options
 * ({@link #sql(String)}, {@link #insertInto(String)}), which calls hold a connection and for how long, and
 * errors.
 *
 * <p><b>Query ids.</b> Unless a call sets one ({@code queryId(...)}), the template sends a random UUID as the
 * query_id, so a translated exception can name it ({@link ClickHouseErrorDetails#getQueryId()}) for a look-up
 * in {@code system.query_log}. Inserts the client retries by itself ({@code maxAttempts > 1}) let the client
 * pick one per attempt instead.
 *
 * <p><b>Values</b> of {@link #queryForList(String)} and {@link RowMapper}s come as the client boxes them:
 * {@code Int8..Int64} as Byte/Short/Integer/Long, {@code UInt8..UInt32} as the next wider signed type,
 * {@code UInt64} as {@code BigInteger}, {@code DateTime}/{@code DateTime64} as {@code ZonedDateTime},
 * {@code Date} as {@code LocalDate}, {@code Array} as {@code List}, NULL as {@code null}.
 *
 * <p><b>Thread-safety</b>: thread-safe; share one instance. The operations given to a {@link SessionCallback}
 * are not: they belong to the callback's thread.
 */
public class ClickHouseTcpTemplate implements ClickHouseTcpOperations {

    private final ClickHouseTcpClient client;

    private final ClickHouseTcpExceptionTranslator exceptionTranslator;

    /** The client, or the session this template is bound to. */
    private final QueryOperations operations;

    /** The session this template is bound to, or {@code null}. */
    private final @Nullable ClickHouseSession session;

    /** Set when the session's callback has returned. */
    private volatile boolean sessionEnded;

    /**
     * Creates a template with a {@link ClickHouseTcpExceptionTranslator} that knows the client's default
     * settings.
     * @param client the client to run statements on; not closed by the template
     */
    public ClickHouseTcpTemplate(ClickHouseTcpClient client) {
        this(client, ClickHouseTcpExceptionTranslator.forClient(client));
    }

    /**
     * Creates a template.
     * @param client the client to run statements on; not closed by the template
     * @param exceptionTranslator translates the client's exceptions
     */
    public ClickHouseTcpTemplate(ClickHouseTcpClient client, ClickHouseTcpExceptionTranslator exceptionTranslator) {
        this.client = Objects.requireNonNull(client, "client");
        this.exceptionTranslator = Objects.requireNonNull(exceptionTranslator, "exceptionTranslator");
        this.operations = client;
        this.session = null;
    }

    /** A template bound to a session of {@code parent}'s client. */
    private ClickHouseTcpTemplate(ClickHouseTcpTemplate parent, ClickHouseSession session) {
        this.client = parent.client;
        this.exceptionTranslator = parent.exceptionTranslator;
        this.operations = session;
        this.session = session;
    }

    /**
     * The underlying client, for everything this template does not wrap (its exceptions are not translated).
     * @return the client
     */
    public ClickHouseTcpClient getClient() {
        return this.client;
    }

    /**
     * The translator used for the client's exceptions.
     * @return the exception translator
     */
    public ClickHouseTcpExceptionTranslator getExceptionTranslator() {
        return this.exceptionTranslator;
    }

    // ------------------------------------------------------------------ specs

    @Override
    public StatementSpec sql(String sql) {
        Objects.requireNonNull(sql, "sql");
        return new DefaultStatementSpec(this, sql, CallOptions.NONE);
    }

    @Override
    public InsertSpec insertInto(String table) {
        Objects.requireNonNull(table, "table");
        return new DefaultInsertSpec(this, table, CallOptions.NONE);
    }

    // ------------------------------------------------------------------ statements

    @Override
    public Progress execute(String sql) {
        return execute(sql, CallOptions.NONE);
    }

    @Override
    public Progress execute(String sql, Map<String, ?> params) {
        return execute(sql, CallOptions.ofParams(sql, params));
    }

    Progress execute(String sql, CallOptions options) {
        Call call = queryCall(sql, options);
        return run("execute", call, () -> ops().execute(sql, call.options()));
    }

    // ------------------------------------------------------------------ queries

    @Override
    public <T> List<T> query(String sql, Class<T> type) {
        return query(sql, CallOptions.NONE, type);
    }

    @Override
    public <T> List<T> query(String sql, Map<String, ?> params, Class<T> type) {
        return query(sql, CallOptions.ofParams(sql, params), type);
    }

    <T> List<T> query(String sql, CallOptions options, Class<T> type) {
        Objects.requireNonNull(type, "type");
        Call call = queryCall(sql, options);
        return run("query", call, () -> ops().query(sql, call.options(), type));
    }

    @Override
    public <T> List<T> query(String sql, RowMapper<T> rowMapper) {
        return query(sql, CallOptions.NONE, rowMapper);
    }

    @Override
    public <T> List<T> query(String sql, Map<String, ?> params, RowMapper<T> rowMapper) {
        return query(sql, CallOptions.ofParams(sql, params), rowMapper);
    }

    <T> List<T> query(String sql, CallOptions options, RowMapper<T> rowMapper) {
        Objects.requireNonNull(rowMapper, "rowMapper");
        Call call = queryCall(sql, options);
        return run("query", call, () -> ops().query(sql, call.options(), rowMapper));
    }

    @Override
    public List<Map<String, @Nullable Object>> queryForList(String sql) {
        return queryForList(sql, CallOptions.NONE);
    }

    @Override
    public List<Map<String, @Nullable Object>> queryForList(String sql, Map<String, ?> params) {
        return queryForList(sql, CallOptions.ofParams(sql, params));
    }

    List<Map<String, @Nullable Object>> queryForList(String sql, CallOptions options) {
        return query(sql, options, (row, rowNum) -> {
            int n = row.columnCount();
            Map<String, @Nullable Object> values = new LinkedHashMap<>(n * 2);
            for (int i = 0; i < n; i++) {
                values.put(row.columnName(i), row.getObject(i));
            }
            return values;
        });
    }

    @Override
    public <T> List<T> queryForList(String sql, Class<T> elementType) {
        return query(sql, CallOptions.NONE, elementType);
    }

    @Override
    public <T> @Nullable T queryForObject(String sql, Class<T> requiredType) {
        return queryForObject(sql, CallOptions.NONE, requiredType);
    }

    @Override
    public <T> @Nullable T queryForObject(String sql, Map<String, ?> params, Class<T> requiredType) {
        return queryForObject(sql, CallOptions.ofParams(sql, params), requiredType);
    }

    <T> @Nullable T queryForObject(String sql, CallOptions options, Class<T> requiredType) {
        Objects.requireNonNull(requiredType, "requiredType");
        Call call = queryCall(sql, options);
        if (!isValueType(requiredType)) {
            return run("queryForObject", call, () -> singleObject(sql, call.options(), requiredType));
        }
        SingleValue value = run("queryForObject", call, () -> readSingleValue(sql, call.options()));
        return ValueConverter.convert(value.value(), value.text(), requiredType);
    }

    @Override
    public <T> @Nullable T queryForObject(String sql, RowMapper<T> rowMapper) {
        return queryForObject(sql, CallOptions.NONE, rowMapper);
    }

    @Override
    public <T> @Nullable T queryForObject(String sql, Map<String, ?> params, RowMapper<T> rowMapper) {
        return queryForObject(sql, CallOptions.ofParams(sql, params), rowMapper);
    }

    <T> @Nullable T queryForObject(String sql, CallOptions options, RowMapper<T> rowMapper) {
        Objects.requireNonNull(rowMapper, "rowMapper");
        Call call = queryCall(sql, options);
        List<T> rows;
        try {
            rows = run("queryForObject", call, () -> ops().query(sql, call.options(), (row, rowNum) -> {
                if (rowNum > 0) {
                    throw new MoreThanOneRow();
                }
                return rowMapper.mapRow(row, rowNum);
            }));
        }
        catch (MoreThanOneRow ex) {
            throw new IncorrectResultSizeDataAccessException(
                    "Expected exactly one row but the query returned more: [" + QueryMasking.mask(sql) + "]", 1);
        }
        if (rows.isEmpty()) {
            throw new IncorrectResultSizeDataAccessException(
                    "Expected exactly one row but the query returned none: [" + QueryMasking.mask(sql) + "]", 1, 0);
        }
        return rows.get(0);
    }

    @Override
    public <T> long forEach(String sql, Class<T> type, Consumer<? super T> action) {
        return forEach(sql, CallOptions.NONE, type, action);
    }

    <T> long forEach(String sql, CallOptions options, Class<T> type, Consumer<? super T> action) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(action, "action");
        Call call = queryCall(sql, options);
        return run("forEach", call, () -> ops().forEach(sql, call.options(), type, action));
    }

    @Override
    public <T> Stream<T> stream(String sql, Class<T> type) {
        return stream(sql, CallOptions.NONE, type);
    }

    <T> Stream<T> stream(String sql, CallOptions options, Class<T> type) {
        Objects.requireNonNull(type, "type");
        Call call = queryCall(sql, options);
        return translated(call, run("stream", call, () -> ops().stream(sql, call.options(), type)));
    }

    @Override
    public long forEachRow(String sql, Consumer<? super Object[]> action) {
        return forEachRow(sql, CallOptions.NONE, action);
    }

    long forEachRow(String sql, CallOptions options, Consumer<? super Object[]> action) {
        Objects.requireNonNull(action, "action");
        Call call = queryCall(sql, options);
        return run("forEachRow", call, () -> ops().forEachRow(sql, call.options(), action));
    }

    @Override
    public Stream<Object[]> streamRows(String sql) {
        return streamRows(sql, CallOptions.NONE);
    }

    Stream<Object[]> streamRows(String sql, CallOptions options) {
        Call call = queryCall(sql, options);
        return translated(call, run("streamRows", call, () -> ops().streamRows(sql, call.options())));
    }

    /** The client's stream {@code source} for {@code call}, as the template hands it out ({@link TranslatingSpliterator}). */
    private <T> Stream<T> translated(Call call, Stream<T> source) {
        TranslatingSpliterator<T> spliterator = new TranslatingSpliterator<>(this, call, source);
        return StreamSupport.stream(spliterator, false).onClose(spliterator::close);
    }

    @Override
    public QuerySummary queryBlocks(String sql, BlockCallback callback) {
        return queryBlocks(sql, CallOptions.NONE, callback);
    }

    QuerySummary queryBlocks(String sql, CallOptions options, BlockCallback callback) {
        Objects.requireNonNull(callback, "callback");
        Call call = queryCall(sql, options);
        return run("queryBlocks", call, () -> {
            try (QueryResult result = ops().query(sql, call.options())) {
                Block block;
                while ((block = result.next()) != null) {
                    callback.processBlock(block);
                }
                return new QuerySummary(Objects.requireNonNull(call.queryId()), result.rowCount(), result.progress(),
                        result.profileInfo(), result.totals(), result.extremes());
            }
        });
    }

    // ------------------------------------------------------------------ inserts

    @Override
    public <T> long insert(String table, Collection<T> rows) {
        return insert(table, CallOptions.NONE, rows);
    }

    <T> long insert(String table, CallOptions options, Collection<T> rows) {
        Objects.requireNonNull(rows, "rows");
        if (rows.isEmpty()) {
            return 0;
        }
        Call call = insertCall(table, options);
        InsertOptions insertOptions = options.toInsertOptions(call.queryId());
        return run("insert", call, () -> ops().insert(table, rows, insertOptions));
    }

    @Override
    public <T> long insert(String table, Stream<T> rows) {
        return insert(table, CallOptions.NONE, rows);
    }

    <T> long insert(String table, CallOptions options, Stream<T> rows) {
        Objects.requireNonNull(rows, "rows");
        Call call = insertCall(table, options);
        InsertOptions insertOptions = options.toInsertOptions(call.queryId());
        if (insertOptions.maxAttempts() > 1) {
            throw new InvalidDataAccessApiUsageException(
                    "A Stream is consumed once and cannot be retried (maxAttempts " + insertOptions.maxAttempts()
                            + "); pass a Collection, or retry with a new stream and the same deduplication token");
        }
        Iterator<T> it = rows.iterator();
        if (!it.hasNext()) {
            return 0;
        }
        T first = it.next();
        if (first == null) {
            throw new InvalidDataAccessApiUsageException("row 0 of the stream is null");
        }
        @SuppressWarnings("unchecked")
        Class<T> type = (Class<T>) first.getClass();
        Stream<T> all = Stream.concat(Stream.of(first),
                StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED), false));
        return run("insert", call, () -> ops().insert(table, type, all, insertOptions));
    }

    @Override
    public long insert(String table, List<String> columns, Iterable<Object[]> rows) {
        return insert(table, CallOptions.NONE, columns, rows);
    }

    long insert(String table, CallOptions options, List<String> columns, Iterable<Object[]> rows) {
        Objects.requireNonNull(columns, "columns");
        Objects.requireNonNull(rows, "rows");
        Call call = insertCall(table, options);
        InsertOptions insertOptions = options.toInsertOptions(call.queryId());
        return run("insert", call, () -> ops().insert(table, columns, rows, insertOptions));
    }

    @Override
    public long insertColumns(String table, Map<String, ?> columns) {
        return insertColumns(table, CallOptions.NONE, columns);
    }

    long insertColumns(String table, CallOptions options, Map<String, ?> columns) {
        Objects.requireNonNull(columns, "columns");
        Call call = insertCall(table, options);
        InsertOptions insertOptions = options.toInsertOptions(call.queryId());
        return run("insertColumns", call, () -> ops().insertColumns(table, columns, insertOptions));
    }

    @Override
    public long insertBlocks(String table, Iterable<Block> blocks) {
        return insertBlocks(table, CallOptions.NONE, blocks);
    }

    long insertBlocks(String table, CallOptions options, Iterable<Block> blocks) {
        Objects.requireNonNull(blocks, "blocks");
        Call call = insertCall(table, options);
        InsertOptions insertOptions = options.toInsertOptions(call.queryId());
        return run("insertBlocks", call, () -> ops().insertBlocks(table, blocks, insertOptions));
    }

    // ------------------------------------------------------------------ schema and sessions

    @Override
    public List<TableColumn> describe(String table) {
        Objects.requireNonNull(table, "table");
        Call call = new Call("DESCRIBE TABLE " + table, null, QueryOptions.DEFAULT, Set.of());
        return run("describe", call, () -> ops().describe(table));
    }

    @Override
    public SchemaReport checkSchema(Class<?> type, String table) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(table, "table");
        Call call = new Call("DESCRIBE TABLE " + table, null, QueryOptions.DEFAULT, Set.of());
        return run("checkSchema", call, () -> ops().checkSchema(type, table));
    }

    @Override
    public <T extends @Nullable Object> T inSession(SessionCallback<T> callback) {
        Objects.requireNonNull(callback, "callback");
        if (this.session != null) {
            ops();
            return callback.doInSession(this);
        }
        Call open = new Call(null, null, QueryOptions.DEFAULT, Set.of());
        ClickHouseSession opened = run("openSession", open, this.client::openSession);
        ClickHouseTcpTemplate bound = new ClickHouseTcpTemplate(this, opened);
        try {
            return callback.doInSession(bound);
        }
        catch (ClickHouseException ex) {
            throw this.exceptionTranslator.translate("inSession", null, null, Set.of(), ex);
        }
        finally {
            bound.sessionEnded = true;
            opened.close();
        }
    }

    // ------------------------------------------------------------------ internals

    /** The operations to run on: the client, or the session this template is bound to. */
    private QueryOperations ops() {
        if (this.sessionEnded) {
            throw new InvalidDataAccessApiUsageException(
                    "The session of this ClickHouseTcpOperations has ended: use it only inside its inSession callback");
        }
        return this.operations;
    }

    /** One call: its statement, query_id, client options and the names of the settings it sets. */
    private record Call(@Nullable String sql, @Nullable String queryId, QueryOptions options,
            Set<String> settingNames) {
    }

    private static Call queryCall(String sql, CallOptions options) {
        Objects.requireNonNull(sql, "sql");
        String queryId = options.resolveQueryId(false);
        return new Call(sql, queryId, options.toQueryOptions(queryId), options.settingNames());
    }

    private static Call insertCall(String table, CallOptions options) {
        Objects.requireNonNull(table, "table");
        String queryId = options.resolveQueryId(true);
        return new Call("INSERT INTO " + table, queryId, QueryOptions.DEFAULT, options.settingNames());
    }

    private <R> R run(String task, Call call, Supplier<R> action) {
        try {
            return action.get();
        }
        catch (ClickHouseException ex) {
            throw translate(task, call, ex);
        }
    }

    private DataAccessException translate(String task, Call call, ClickHouseException ex) {
        return this.exceptionTranslator.translate(task, call.sql(), call.queryId(), call.settingNames(), ex);
    }

    /**
     * Whether the client reads {@code type} as one value of a one-column result rather than as an object with
     * properties (the rule of the client's {@code ReadPlan}).
     */
    static boolean isValueType(Class<?> type) {
        return type.isPrimitive() || type.isArray() || type.isEnum() || type.isInterface()
                || type.getName().startsWith("java.");
    }

    /** Stops a row-mapped query at its second row. */
    private static final class MoreThanOneRow extends RuntimeException {

        private static final long serialVersionUID = 1L;

        MoreThanOneRow() {
            super(null, null, false, false);
        }
    }

    private <T> T singleObject(String sql, QueryOptions options, Class<T> type) {
        try (Stream<T> rows = ops().stream(sql, options, type)) {
            Iterator<T> it = rows.iterator();
            if (!it.hasNext()) {
                throw new IncorrectResultSizeDataAccessException(
                        "Expected exactly one row but the query returned none: [" + QueryMasking.mask(sql) + "]", 1, 0);
            }
            T first = it.next();
            if (it.hasNext()) {
                // Closing the stream cancels the rest of the query.
                throw new IncorrectResultSizeDataAccessException(
                        "Expected exactly one row but the query returned more: [" + QueryMasking.mask(sql) + "]", 1);
            }
            return first;
        }
    }

    /** Value and text form of the single cell of a one-row, one-column result. */
    private record SingleValue(@Nullable Object value, @Nullable String text) {
    }

    private SingleValue readSingleValue(String sql, QueryOptions options) {
        try (QueryResult result = ops().query(sql, options)) {
            Object value = null;
            String text = null;
            long rows = 0;
            Block block;
            while ((block = result.next()) != null) {
                checkSingleColumn(sql, block.columnCount());
                rows += block.rowCount();
                if (rows > 1) {
                    // Closing the result cancels the rest of the query.
                    throw new IncorrectResultSizeDataAccessException(
                            "Expected exactly one row but the query returned more: [" + QueryMasking.mask(sql) + "]", 1);
                }
                Column column = block.column(0);
                value = column.getObject(0);
                text = (value != null) ? column.getString(0) : null;
            }
            if (rows == 0) {
                Block header = result.header();
                if (header != null) {
                    checkSingleColumn(sql, header.columnCount());
                }
                throw new IncorrectResultSizeDataAccessException(
                        "Expected exactly one row but the query returned none: [" + QueryMasking.mask(sql) + "]", 1, 0);
            }
            return new SingleValue(value, text);
        }
    }

    private static void checkSingleColumn(String sql, int columns) {
        if (columns != 1) {
            throw new InvalidDataAccessApiUsageException(
                    "Expected exactly one column but the query returned " + columns + ": [" + QueryMasking.mask(sql) + "]");
        }
    }

    /**
     * The client's object stream with translated exceptions: a failure while it is consumed closes the query at
     * once (releasing its connection) and is thrown translated.
     */
    private static final class TranslatingSpliterator<T> implements Spliterator<T> {

        private final ClickHouseTcpTemplate template;

        private final Call call;

        private final Stream<T> source;

        private final Spliterator<T> delegate;

        TranslatingSpliterator(ClickHouseTcpTemplate template, Call call, Stream<T> source) {
            this.template = template;
            this.call = call;
            this.source = source;
            this.delegate = source.spliterator();
        }

        @Override
        public boolean tryAdvance(Consumer<? super T> action) {
            try {
                return this.delegate.tryAdvance(action);
            }
            catch (RuntimeException | Error ex) {
                throw failed(ex);
            }
        }

        @Override
        public void forEachRemaining(Consumer<? super T> action) {
            try {
                this.delegate.forEachRemaining(action);
            }
            catch (RuntimeException | Error ex) {
                throw failed(ex);
            }
        }

        /** Closes the query after a failure; returns what to throw. */
        private Throwable failedCause(Throwable ex) {
            try {
                this.source.close();
            }
            catch (RuntimeException closeFailure) {
                ex.addSuppressed(closeFailure);
            }
            return (ex instanceof ClickHouseException ce) ? this.template.translate("stream", this.call, ce) : ex;
        }

        private RuntimeException failed(Throwable ex) {
            Throwable out = failedCause(ex);
            if (out instanceof Error error) {
                throw error;
            }
            return (RuntimeException) out;
        }

        void close() {
            try {
                this.source.close();
            }
            catch (ClickHouseException ex) {
                throw this.template.translate("stream", this.call, ex);
            }
        }

        @Override
        public @Nullable Spliterator<T> trySplit() {
            return null;
        }

        @Override
        public long estimateSize() {
            return this.delegate.estimateSize();
        }

        @Override
        public int characteristics() {
            return this.delegate.characteristics();
        }
    }
}
