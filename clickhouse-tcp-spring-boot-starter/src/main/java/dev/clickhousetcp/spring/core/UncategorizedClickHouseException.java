package dev.clickhousetcp.spring.core;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseServerException;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.UncategorizedDataAccessException;

/**
 * A {@link ClickHouseException} that {@link ClickHouseTcpExceptionTranslator} could not map to a more
 * specific {@link org.springframework.dao.DataAccessException}. The original exception is the cause;
 * for a server error, {@link #getErrorCode()} and {@link #getErrorName()} give ClickHouse's code and
 * name (see {@code system.errors} or {@code errorCodeToName(code)}).
 */
public class UncategorizedClickHouseException extends UncategorizedDataAccessException {

    private static final long serialVersionUID = 1L;

    private final int errorCode;

    /**
     * Creates the exception.
     * @param message the message, with the task and SQL
     * @param cause the exception the client threw
     */
    public UncategorizedClickHouseException(@Nullable String message, ClickHouseException cause) {
        super(message, cause);
        this.errorCode = (cause instanceof ClickHouseServerException server) ? server.code() : -1;
    }

    /**
     * ClickHouse's error code.
     * @return the server's error code, or {@code -1} if the cause is not a server error
     */
    public int getErrorCode() {
        return this.errorCode;
    }

    /**
     * The server's exception name.
     * @return for example {@code DB::Exception}, or {@code null} if the cause is not a server error
     */
    public @Nullable String getErrorName() {
        return (getCause() instanceof ClickHouseServerException server) ? server.name() : null;
    }
}
