package dev.clickhousetcp.spring.core;

import dev.clickhousetcp.ClickHouseAuthenticationException;
import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTypeException;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.InvalidDataAccessResourceUsageException;
import org.springframework.dao.NonTransientDataAccessResourceException;
import org.springframework.dao.PermissionDeniedDataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.dao.TypeMismatchDataAccessException;
import org.springframework.dao.support.PersistenceExceptionTranslator;

/**
 * Translates the client's {@link ClickHouseException}s into Spring's
 * {@link DataAccessException} hierarchy, the way {@code SQLExceptionTranslator} does for JDBC. The
 * original exception is always the cause.
 *
 * <table>
 * <caption>Mapping</caption>
 * <tr><th>client exception</th><th>Spring exception</th></tr>
 * <tr><td>{@link ClickHouseAuthenticationException}; server codes 164 READONLY, 192, 193, 195, 516
 * (authentication), 291 DATABASE_ACCESS_DENIED, 497 ACCESS_DENIED</td><td>{@link PermissionDeniedDataAccessException}</td></tr>
 * <tr><td>server codes 16, 46, 47, 57, 60, 62, 81, 82 (unknown or duplicate table, database, column,
 * function, identifier; syntax error)</td><td>{@link InvalidDataAccessResourceUsageException}</td></tr>
 * <tr><td>server codes 456 UNKNOWN_QUERY_PARAMETER, 457 BAD_QUERY_PARAMETER</td>
 * <td>{@link InvalidDataAccessApiUsageException}</td></tr>
 * <tr><td>server codes 6, 27, 38, 41, 53, 69, 70, 72, 117, 469 (values that cannot be parsed,
 * converted or that violate a constraint)</td><td>{@link DataIntegrityViolationException}</td></tr>
 * <tr><td>{@link ClickHouseTimeoutException}; server codes 159 TIMEOUT_EXCEEDED, 160 TOO_SLOW</td>
 * <td>{@link QueryTimeoutException}</td></tr>
 * <tr><td>server codes 202, 210, 241, 252, 279, 285, 473 (overload, memory limit, too many parts,
 * replicas unavailable)</td><td>{@link TransientDataAccessResourceException}</td></tr>
 * <tr><td>{@link ClickHouseConnectionException}</td><td>{@link DataAccessResourceFailureException}</td></tr>
 * <tr><td>{@link ClickHouseProtocolException}</td><td>{@link NonTransientDataAccessResourceException}</td></tr>
 * <tr><td>{@link ClickHouseTypeException}</td><td>{@link TypeMismatchDataAccessException}</td></tr>
 * <tr><td>anything else</td><td>{@link UncategorizedClickHouseException}</td></tr>
 * </table>
 *
 * <p>Stateless and thread-safe. Subclass and override {@link #translate(String, String, ClickHouseException)}
 * to refine the mapping.
 */
public class ClickHouseTcpExceptionTranslator implements PersistenceExceptionTranslator {

    private static final int MAX_SQL_IN_MESSAGE = 1000;

    /** Creates a translator. */
    public ClickHouseTcpExceptionTranslator() {
    }

    /**
     * Translates a {@link ClickHouseException}; leaves any other exception alone.
     * @param ex the exception
     * @return the translated exception, or {@code null} if {@code ex} is not a {@link ClickHouseException}
     */
    @Override
    public @Nullable DataAccessException translateExceptionIfPossible(RuntimeException ex) {
        return (ex instanceof ClickHouseException ce) ? translate(null, null, ce) : null;
    }

    /**
     * Translates a client exception.
     * @param task what was being done, for example {@code "query"}, or {@code null}
     * @param sql the statement, or {@code null}; shown in the message, shortened if long
     * @param ex the client exception
     * @return the Spring exception with {@code ex} as its cause, never {@code null}
     */
    public DataAccessException translate(@Nullable String task, @Nullable String sql, ClickHouseException ex) {
        String message = message(task, sql, ex);
        if (ex instanceof ClickHouseAuthenticationException) {
            return new PermissionDeniedDataAccessException(message, ex);
        }
        if (ex instanceof ClickHouseServerException server) {
            return translateServerError(message, server);
        }
        if (ex instanceof ClickHouseTimeoutException) {
            return new QueryTimeoutException(message, ex);
        }
        if (ex instanceof ClickHouseConnectionException) {
            return new DataAccessResourceFailureException(message, ex);
        }
        if (ex instanceof ClickHouseProtocolException) {
            return new NonTransientDataAccessResourceException(message, ex);
        }
        if (ex instanceof ClickHouseTypeException) {
            return new TypeMismatchDataAccessException(message, ex);
        }
        return new UncategorizedClickHouseException(message, ex);
    }

    private DataAccessException translateServerError(String message, ClickHouseServerException ex) {
        return switch (ex.code()) {
            case 164, 192, 193, 195, 291, 497, 516 -> new PermissionDeniedDataAccessException(message, ex);
            case 16, 46, 47, 57, 60, 62, 81, 82 -> new InvalidDataAccessResourceUsageException(message, ex);
            case 456, 457 -> new InvalidDataAccessApiUsageException(message, ex);
            case 6, 27, 38, 41, 53, 69, 70, 72, 117, 469 -> new DataIntegrityViolationException(message, ex);
            case 159, 160 -> new QueryTimeoutException(message, ex);
            case 202, 210, 241, 252, 279, 285, 473 -> new TransientDataAccessResourceException(message, ex);
            default -> new UncategorizedClickHouseException(message, ex);
        };
    }

    private static String message(@Nullable String task, @Nullable String sql, ClickHouseException ex) {
        StringBuilder out = new StringBuilder();
        if (task != null) {
            out.append(task).append("; ");
        }
        if (sql != null) {
            out.append('[');
            if (sql.length() > MAX_SQL_IN_MESSAGE) {
                out.append(sql, 0, MAX_SQL_IN_MESSAGE).append("...");
            }
            else {
                out.append(sql);
            }
            out.append("]; ");
        }
        return out.append(ex.getMessage()).toString();
    }
}
