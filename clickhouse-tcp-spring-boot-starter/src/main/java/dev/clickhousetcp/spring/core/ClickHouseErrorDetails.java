package dev.clickhousetcp.spring.core;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;

import org.jspecify.annotations.Nullable;

/**
 * What ClickHouse said about a failure, carried by every {@link org.springframework.dao.DataAccessException}
 * that {@link ClickHouseTcpExceptionTranslator} creates, so callers can read it without unwrapping:
 *
 * <pre>{@code
 * try {
 *     template.execute(sql);
 * }
 * catch (DataAccessException ex) {
 *     if (ex instanceof ClickHouseErrorDetails details && details.getErrorCode() == 60) {
 *         log.warn("table missing (query {})", details.getQueryId());
 *     }
 * }
 * }</pre>
 *
 * <p>The client's exception stays the {@linkplain Throwable#getCause() cause} ({@link #getClickHouseException()}):
 * a {@link ClickHouseTimeoutException} tells which {@code deadline()} expired and its {@code timeout()}; a
 * {@link ClickHouseConnectionException} of an INSERT tells whether the insert {@code insertMayHaveBeenApplied()}
 * and its {@code deduplicationToken()} (both are also spelled out in the message).
 *
 * <p>Implementations are immutable exceptions.
 */
public interface ClickHouseErrorDetails {

    /**
     * ClickHouse's error code, for example {@code 60} ({@code UNKNOWN_TABLE}).
     * @return the server's error code, or {@code -1} when the failure happened in the client (connection,
     * timeout, protocol, type conversion)
     */
    int getErrorCode();

    /**
     * The name of the error code, as ClickHouse's {@code errorCodeToName(code)} gives it.
     * @return for example {@code UNKNOWN_TABLE}; {@code null} for client-side failures and for codes the
     * translator does not know on servers that do not name them in their messages
     */
    @Nullable String getErrorName();

    /**
     * The query_id of the failed statement: the one given to the call, or the one the template generated
     * for it (so it can be looked up in {@code system.query_log}).
     * @return the query_id, or {@code null} when not known (exceptions translated outside the template,
     * inserts retried by the client with {@code maxAttempts > 1})
     */
    @Nullable String getQueryId();

    /**
     * The statement that failed, with its secrets hidden as ClickHouse hides them in its logs (passwords,
     * credentials of table functions and engines, ... read {@code '[HIDDEN]'}; see
     * {@link dev.clickhousetcp.observe.QueryMasking}).
     * @return the masked SQL (for inserts {@code INSERT INTO table}), or {@code null} when not known
     */
    @Nullable String getSql();

    /**
     * The client's exception: a {@link ClickHouseServerException} for errors the server reported, or the
     * client-side {@link ClickHouseException}.
     * @return the cause
     */
    ClickHouseException getClickHouseException();
}
