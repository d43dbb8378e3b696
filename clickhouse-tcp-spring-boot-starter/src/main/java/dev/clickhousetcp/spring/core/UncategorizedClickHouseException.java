package dev.clickhousetcp.spring.core;

import dev.clickhousetcp.ClickHouseException;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.UncategorizedDataAccessException;

/**
 * A {@link ClickHouseException} that {@link ClickHouseTcpExceptionTranslator} could not map to a more
 * specific {@link org.springframework.dao.DataAccessException}: a server error code outside its table, an
 * interrupted call, a closed session. The original exception is the cause; {@link ClickHouseErrorDetails}
 * gives ClickHouse's code and name (see {@code system.errors} or {@code errorCodeToName(code)}) and the
 * query_id.
 */
public class UncategorizedClickHouseException extends UncategorizedDataAccessException
        implements ClickHouseErrorDetails {

    private static final long serialVersionUID = 1L;

    /** Code, name, SQL and query_id. */
    private final ErrorDetails details;

    /**
     * Creates the exception without statement or query_id.
     * @param message the message, with the task and SQL
     * @param cause the exception the client threw
     */
    public UncategorizedClickHouseException(@Nullable String message, ClickHouseException cause) {
        this(message, cause, null, null);
    }

    /**
     * Creates the exception.
     * @param message the message
     * @param cause the exception the client threw
     * @param sql the statement, or {@code null}
     * @param queryId the statement's query_id, or {@code null}
     */
    public UncategorizedClickHouseException(@Nullable String message, ClickHouseException cause, @Nullable String sql,
            @Nullable String queryId) {
        super(message, cause);
        this.details = ErrorDetails.of(cause, sql, queryId);
    }

    @Override
    public int getErrorCode() {
        return this.details.code();
    }

    /**
     * The name of the error code.
     * @return for example {@code NO_SUCH_ERROR_CODE}, or {@code null} if the cause is not a server error or the
     * server did not name it (before 0.1 this returned the server's exception class, {@code DB::Exception},
     * which is {@code ((ClickHouseServerException) getCause()).name()})
     */
    @Override
    public @Nullable String getErrorName() {
        return this.details.name();
    }

    @Override
    public @Nullable String getQueryId() {
        return this.details.queryId();
    }

    @Override
    public @Nullable String getSql() {
        return this.details.sql();
    }

    @Override
    public ClickHouseException getClickHouseException() {
        return (ClickHouseException) getCause();
    }
}
