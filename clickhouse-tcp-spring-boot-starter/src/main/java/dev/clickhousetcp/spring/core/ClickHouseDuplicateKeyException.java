package dev.clickhousetcp.spring.core;

import dev.clickhousetcp.ClickHouseException;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DuplicateKeyException;

/**
 * The server rejected inserted data as a duplicate ({@code INSERT_WAS_DEDUPLICATED}, where the server is
 * configured to report deduplicated inserts as errors).
 *
 * <p>Created by {@link ClickHouseTcpExceptionTranslator}; the client's exception is the cause, and
 * {@link ClickHouseErrorDetails} gives the server's error code and name and the query_id.
 */
public class ClickHouseDuplicateKeyException extends DuplicateKeyException implements ClickHouseErrorDetails {

    private static final long serialVersionUID = 1L;

    /** Code, name, SQL and query_id. */
    private final ErrorDetails details;

    /**
     * Creates the exception.
     * @param message the message
     * @param cause the client's exception
     * @param sql the statement, or {@code null}
     * @param queryId the statement's query_id, or {@code null}
     */
    public ClickHouseDuplicateKeyException(String message, ClickHouseException cause, @Nullable String sql, @Nullable String queryId) {
        super(message, cause);
        this.details = ErrorDetails.of(cause, sql, queryId);
    }

    @Override
    public int getErrorCode() {
        return this.details.code();
    }

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
