package dev.clickhousetcp.spring.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.client.RowMapper;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.protocol.Progress;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.TypeMismatchDataAccessException;

/**
 * The {@code JdbcTemplate} of the ClickHouse native TCP client: one-line statements, queries mapped row
 * by row, single values, and inserts, with errors translated into Spring's
 * {@link DataAccessException} hierarchy.
 *
 * <pre>{@code
 * template.execute("CREATE TABLE IF NOT EXISTS users (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
 * template.insert("users", List.of("id", "name"), List.of(new Object[] {1L, "O'Brien"}));
 * List<String> names = template.query("SELECT name FROM users WHERE id > {min:UInt64} ORDER BY id",
 *         Map.of("min", 0), (row, rowNum) -> row.getString("name"));
 * long count = template.queryForObject("SELECT count() FROM users", Long.class);
 * }</pre>
 *
 * <p><b>Parameters</b> are ClickHouse server-side query parameters: the SQL names each one with its
 * ClickHouse type, {@code {name:Type}}, and the map supplies Java values, converted to text the server
 * parses as that type — strings need no quoting or escaping by the caller, and values never become
 * part of the SQL text. Supported values: {@code null}, strings, numbers, booleans, UUIDs, enums,
 * {@code java.time} values, collections, arrays and maps (see {@code Array(...)} and {@code Map(...)}
 * types). Instants and zoned/offset date-times are sent as Unix time, so a {@code DateTime} parameter
 * needs a whole second, while {@code DateTime64} takes the fraction; {@code LocalDateTime} is read in
 * the parameter type's time zone.
 *
 * <p><b>Values</b> come back as the client boxes them: {@code Int8..Int64} as Byte/Short/Integer/Long,
 * {@code UInt8..UInt32} as the next wider signed type, {@code UInt64} as {@code BigInteger},
 * {@code DateTime}/{@code DateTime64} as {@code ZonedDateTime}, {@code Date} as {@code LocalDate},
 * {@code Array} as {@code List}, NULL as {@code null}. {@link #queryForObject(String, Class)} converts
 * to the requested type (for example {@code count()}, a {@code UInt64}, to {@code Long}).
 *
 * <p><b>Errors</b>: every {@link ClickHouseException} of the client is translated by a
 * {@link ClickHouseTcpExceptionTranslator} (a syntax error becomes an
 * {@code InvalidDataAccessResourceUsageException}, an unreachable server a
 * {@code DataAccessResourceFailureException}, ...), with the original exception as the cause.
 * Exceptions thrown by a {@link RowMapper} pass through unchanged.
 *
 * <p><b>Thread-safety</b>: thread-safe; share one instance. Each call borrows a pooled connection from
 * the client for its duration. For streaming large results block by block, columnar reads or other
 * features beyond this class, use {@link #getClient()}.
 */
public class ClickHouseTcpTemplate {

    private final ClickHouseTcpClient client;

    private final ClickHouseTcpExceptionTranslator exceptionTranslator;

    /**
     * Creates a template with the default {@link ClickHouseTcpExceptionTranslator}.
     * @param client the client to run statements on; not closed by the template
     */
    public ClickHouseTcpTemplate(ClickHouseTcpClient client) {
        this(client, new ClickHouseTcpExceptionTranslator());
    }

    /**
     * Creates a template.
     * @param client the client to run statements on; not closed by the template
     * @param exceptionTranslator translates the client's exceptions
     */
    public ClickHouseTcpTemplate(ClickHouseTcpClient client, ClickHouseTcpExceptionTranslator exceptionTranslator) {
        this.client = Objects.requireNonNull(client, "client");
        this.exceptionTranslator = Objects.requireNonNull(exceptionTranslator, "exceptionTranslator");
    }

    /**
     * The underlying client, for everything this template does not wrap.
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

    // ------------------------------------------------------------------ statements

    /**
     * Runs a statement (DDL, {@code INSERT ... SELECT}, {@code ALTER}, ...) and reads its response to the
     * end, discarding any result rows.
     * @param sql the statement
     * @return the accumulated progress; {@link Progress#writtenRows()} counts rows an
     * {@code INSERT ... SELECT} wrote
     * @throws DataAccessException if the statement fails
     */
    public Progress execute(String sql) {
        return execute(sql, Map.of());
    }

    /**
     * Runs a statement with server-side {@code {name:Type}} parameters.
     * @param sql the statement
     * @param params parameter values by name (see the class description)
     * @return the accumulated progress
     * @throws DataAccessException if the statement fails or a parameter value is not supported
     */
    public Progress execute(String sql, Map<String, ?> params) {
        QueryOptions options = options(sql, params);
        return run("execute", sql, () -> this.client.execute(sql, options));
    }

    // ------------------------------------------------------------------ queries

    /**
     * Runs a query and maps each row.
     * @param sql the query
     * @param rowMapper maps the current row; the row is valid only during the call
     * @param <T> the element type
     * @return the mapped rows, in result order
     * @throws DataAccessException if the query fails
     */
    public <T> List<T> query(String sql, RowMapper<T> rowMapper) {
        return query(sql, Map.of(), rowMapper);
    }

    /**
     * Runs a query with server-side {@code {name:Type}} parameters and maps each row.
     * @param sql the query
     * @param params parameter values by name (see the class description)
     * @param rowMapper maps the current row; the row is valid only during the call
     * @param <T> the element type
     * @return the mapped rows, in result order
     * @throws DataAccessException if the query fails or a parameter value is not supported
     */
    public <T> List<T> query(String sql, Map<String, ?> params, RowMapper<T> rowMapper) {
        Objects.requireNonNull(rowMapper, "rowMapper");
        QueryOptions options = options(sql, params);
        return run("query", sql, () -> this.client.query(sql, options, rowMapper));
    }

    /**
     * Runs a query and returns each row as a map from column name to value, in column order.
     * @param sql the query
     * @return one {@link LinkedHashMap} per row
     * @throws DataAccessException if the query fails
     */
    public List<Map<String, @Nullable Object>> queryForList(String sql) {
        return queryForList(sql, Map.of());
    }

    /**
     * Runs a query with server-side {@code {name:Type}} parameters and returns each row as a map from
     * column name to value, in column order.
     * @param sql the query
     * @param params parameter values by name (see the class description)
     * @return one {@link LinkedHashMap} per row
     * @throws DataAccessException if the query fails or a parameter value is not supported
     */
    public List<Map<String, @Nullable Object>> queryForList(String sql, Map<String, ?> params) {
        return query(sql, params, (row, rowNum) -> {
            int n = row.columnCount();
            Map<String, @Nullable Object> values = new LinkedHashMap<>(n * 2);
            for (int i = 0; i < n; i++) {
                values.put(row.columnName(i), row.getObject(i));
            }
            return values;
        });
    }

    /**
     * Runs a query that returns exactly one row with one column and converts that value.
     * @param sql the query
     * @param requiredType the type to return: the value's own type, {@code String} (ClickHouse's text
     * form), a number type (converted with overflow checks), {@code Boolean}, a {@code java.time} type,
     * or anything Spring's {@code DefaultConversionService} converts to
     * @param <T> the type to return
     * @return the value, or {@code null} if it is NULL
     * @throws IncorrectResultSizeDataAccessException if the query returns no row or more than one
     * @throws InvalidDataAccessApiUsageException if the query returns more than one column
     * @throws TypeMismatchDataAccessException if the value cannot be converted
     * @throws DataAccessException if the query fails
     */
    public <T> @Nullable T queryForObject(String sql, Class<T> requiredType) {
        return queryForObject(sql, Map.of(), requiredType);
    }

    /**
     * Like {@link #queryForObject(String, Class)}, with server-side {@code {name:Type}} parameters.
     * @param sql the query
     * @param params parameter values by name (see the class description)
     * @param requiredType the type to return
     * @param <T> the type to return
     * @return the value, or {@code null} if it is NULL
     * @throws IncorrectResultSizeDataAccessException if the query returns no row or more than one
     * @throws InvalidDataAccessApiUsageException if the query returns more than one column
     * @throws TypeMismatchDataAccessException if the value cannot be converted
     * @throws DataAccessException if the query fails or a parameter value is not supported
     */
    public <T> @Nullable T queryForObject(String sql, Map<String, ?> params, Class<T> requiredType) {
        Objects.requireNonNull(requiredType, "requiredType");
        QueryOptions options = options(sql, params);
        SingleValue value = run("queryForObject", sql, () -> readSingleValue(sql, options));
        return ValueConverter.convert(value.value(), value.text(), requiredType);
    }

    /**
     * Runs a query that returns exactly one row and maps it.
     * @param sql the query
     * @param rowMapper maps the row
     * @param <T> the type to return
     * @return the mapped row
     * @throws IncorrectResultSizeDataAccessException if the query returns no row or more than one
     * @throws DataAccessException if the query fails
     */
    public <T> @Nullable T queryForObject(String sql, RowMapper<T> rowMapper) {
        return queryForObject(sql, Map.of(), rowMapper);
    }

    /**
     * Runs a query that returns exactly one row and maps it.
     * @param sql the query
     * @param params parameter values by name (see the class description)
     * @param rowMapper maps the row
     * @param <T> the type to return
     * @return the mapped row
     * @throws IncorrectResultSizeDataAccessException if the query returns no row or more than one
     * @throws DataAccessException if the query fails or a parameter value is not supported
     */
    public <T> @Nullable T queryForObject(String sql, Map<String, ?> params, RowMapper<T> rowMapper) {
        List<T> rows = query(sql, params, rowMapper);
        if (rows.size() != 1) {
            throw new IncorrectResultSizeDataAccessException(
                    "Expected exactly one row but the query returned " + rows.size() + ": [" + sql + "]", 1,
                    rows.size());
        }
        return rows.get(0);
    }

    // ------------------------------------------------------------------ inserts

    /**
     * Inserts rows, sent in native blocks of {@code clickhouse.tcp.insert.block-rows} rows.
     * @param table the table, as SQL ({@code db.table} allowed; quote unusual names yourself)
     * @param columns the target columns; empty for all columns of the table, in table order
     * @param rows one value per column each; values are converted to the column types (for example
     * {@code Instant}, {@code LocalDateTime} or {@code ZonedDateTime} for {@code DateTime},
     * {@code List} or arrays for {@code Array}, {@code null} for {@code Nullable})
     * @return the number of rows inserted
     * @throws DataAccessException if the insert fails; a value that does not fit its column is a
     * {@link TypeMismatchDataAccessException}, and nothing of the block being built is sent
     */
    public long insert(String table, List<String> columns, Iterable<Object[]> rows) {
        Objects.requireNonNull(rows, "rows");
        return run("insert", "INSERT INTO " + table, () -> this.client.insert(table, columns, rows));
    }

    /**
     * Inserts columns of values in one native block.
     * @param table the table, as SQL
     * @param columns each target column's values, as a {@code List} or a Java array (primitive arrays take
     * a fast path); all of the same length
     * @return the number of rows inserted
     * @throws DataAccessException if the insert fails or the columns differ in length
     */
    public long insertColumns(String table, Map<String, ?> columns) {
        Objects.requireNonNull(columns, "columns");
        return run("insertColumns", "INSERT INTO " + table, () -> this.client.insertColumns(table, columns));
    }

    // ------------------------------------------------------------------ internals

    /** Value and text form of the single cell of a one-row, one-column result. */
    private record SingleValue(@Nullable Object value, @Nullable String text) {
    }

    private SingleValue readSingleValue(String sql, QueryOptions options) {
        try (QueryResult result = this.client.query(sql, options)) {
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
                            "Expected exactly one row but the query returned more: [" + sql + "]", 1);
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
                        "Expected exactly one row but the query returned none: [" + sql + "]", 1, 0);
            }
            return new SingleValue(value, text);
        }
    }

    private static void checkSingleColumn(String sql, int columns) {
        if (columns != 1) {
            throw new InvalidDataAccessApiUsageException(
                    "Expected exactly one column but the query returned " + columns + ": [" + sql + "]");
        }
    }

    private QueryOptions options(String sql, Map<String, ?> params) {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(params, "params");
        if (params.isEmpty()) {
            return QueryOptions.DEFAULT;
        }
        QueryOptions.Builder builder = QueryOptions.builder();
        params.forEach((name, value) -> {
            try {
                builder.parameter(name, QueryParameterValues.prepare(value));
            }
            catch (IllegalArgumentException ex) {
                throw new InvalidDataAccessApiUsageException(
                        "Query parameter '" + name + "': " + ex.getMessage() + ": [" + sql + "]", ex);
            }
        });
        return builder.build();
    }

    private <T> T run(String task, String sql, Supplier<T> action) {
        try {
            return action.get();
        }
        catch (ClickHouseException ex) {
            throw this.exceptionTranslator.translate(task, sql, ex);
        }
    }
}
