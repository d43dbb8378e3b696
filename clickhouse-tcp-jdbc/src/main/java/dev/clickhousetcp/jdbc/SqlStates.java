package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.ClickHouseAuthenticationException;
import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseFeatureNotSupportedException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTypeException;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLNonTransientException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientException;

/**
 * Translates the native client's exceptions into {@link SQLException}s: the SQLState and subclass per
 * ClickHouse error code (codes from ClickHouse {@code src/Common/ErrorCodes.cpp}), {@link SQLException#getErrorCode()}
 * the server code (0 for client-side errors), the message the server's text with its code name and the
 * query_id. Stateless.
 */
final class SqlStates {
    /** ODBC's "optional feature not implemented": a refusal that pools do not take for a broken connection. */
    static final String FEATURE_NOT_SUPPORTED = "HYC00";
    static final String CANCELLED = "HY008";
    static final String TIMEOUT = "HYT00";
    static final String CONNECTION_CLOSED = "08003";
    static final String CONNECTION_FAILURE = "08006";
    static final String UNABLE_TO_CONNECT = "08001";
    static final String INVALID_CURSOR_STATE = "24000";
    static final String GENERAL = "HY000";
    /** ClickHouse's QUERY_WAS_CANCELLED. */
    static final int QUERY_WAS_CANCELLED = 394;

    private SqlStates() {
    }

    /** A refused JDBC feature. */
    static SQLFeatureNotSupportedException notSupported(String what) {
        return new SQLFeatureNotSupportedException(what + " is not supported by ClickHouse or this driver",
                FEATURE_NOT_SUPPORTED);
    }

    /**
     * The SQLException for a failure of the native client.
     *
     * @param e        the failure
     * @param queryId  the query's id, or {@code null}
     * @param connecting whether it happened while the connection was opened (08001 instead of 08006)
     */
    static SQLException translate(RuntimeException e, String queryId, boolean connecting) {
        String suffix = queryId == null ? "" : " (query_id " + queryId + ")";
        String message = e.getMessage() + suffix;
        if (e instanceof ClickHouseServerException s) {
            return forServerCode(s.code(), message, e);
        }
        if (e instanceof ClickHouseTimeoutException t) {
            if (t.deadline() == ClickHouseTimeoutException.Deadline.QUERY) {
                return new SQLTimeoutException(message, TIMEOUT, 0, e);
            }
            if (t.deadline() == ClickHouseTimeoutException.Deadline.CONNECT
                    || t.deadline() == ClickHouseTimeoutException.Deadline.HANDSHAKE
                    || t.deadline() == ClickHouseTimeoutException.Deadline.ACQUIRE) {
                return new SQLNonTransientConnectionException(message, UNABLE_TO_CONNECT, 0, e);
            }
            return new SQLNonTransientConnectionException(message, CONNECTION_FAILURE, 0, e);
        }
        if (e instanceof ClickHouseConnectionException) {
            return new SQLNonTransientConnectionException(message, connecting ? UNABLE_TO_CONNECT : CONNECTION_FAILURE,
                    0, e);
        }
        if (e instanceof ClickHouseFeatureNotSupportedException) {
            return new SQLFeatureNotSupportedException(message, FEATURE_NOT_SUPPORTED, 0, e);
        }
        if (e instanceof ClickHouseTypeException || e instanceof ArithmeticException
                || e instanceof NumberFormatException) {
            return new SQLDataException(message, "22018", 0, e);
        }
        if (e instanceof ClickHouseException || e instanceof IllegalArgumentException) {
            return new SQLException(message, GENERAL, 0, e);
        }
        return new SQLException(message, GENERAL, 0, e);
    }

    /** The exception for server error {@code code} (JDBC.md's table). */
    static SQLException forServerCode(int code, String message, Throwable cause) {
        switch (code) {
            case 62, 46, 47, 42, 43, 184, 215, 352:
                return new SQLSyntaxErrorException(message, "42000", code, cause);
            case 60:
                return new SQLSyntaxErrorException(message, "42S02", code, cause);
            case 16:
                return new SQLSyntaxErrorException(message, "42S22", code, cause);
            case 57, 82, 15:
                return new SQLSyntaxErrorException(message, "42S01", code, cause);
            case 81:
                return new SQLSyntaxErrorException(message, "3F000", code, cause);
            case 497, 291:
                return new SQLSyntaxErrorException(message, "42501", code, cause);
            case 41, 38:
                return new SQLDataException(message, "22007", code, cause);
            case 6, 27, 72, 376, 467, 53, 70:
                return new SQLDataException(message, "22018", code, cause);
            case 321, 407, 69:
                return new SQLDataException(message, "22003", code, cause);
            case 153:
                return new SQLDataException(message, "22012", code, cause);
            case 36, 457, 456, 115:
                return new SQLDataException(message, "22023", code, cause);
            case 349:
                return new SQLIntegrityConstraintViolationException(message, "23502", code, cause);
            case 469:
                return new SQLIntegrityConstraintViolationException(message, "23514", code, cause);
            case 159:
                return new SQLTimeoutException(message, TIMEOUT, code, cause);
            case QUERY_WAS_CANCELLED:
                return new SQLException(message, CANCELLED, code, cause);
            case 164, 472, 242:
                return new SQLNonTransientException(message, "25006", code, cause);
            case 193:
                return new SQLInvalidAuthorizationSpecException(message, "28P01", code, cause);
            case 516, 192, 194, 195:
                return new SQLInvalidAuthorizationSpecException(message, "28000", code, cause);
            case 209, 210, 279:
                return new SQLNonTransientConnectionException(message, CONNECTION_FAILURE, code, cause);
            case 202:
                return new SQLTransientException(message, "53300", code, cause);
            case 252, 201:
                return new SQLTransientException(message, "53000", code, cause);
            case 241:
                return new SQLTransientException(message, "53200", code, cause);
            case 999, 225:
                return new SQLTransientException(message, "55000", code, cause);
            case 373:
                return new SQLTransientException(message, "55006", code, cause);
            case 319:
                return new SQLTransientException(message, "40003", code, cause);
            case 473:
                return new SQLTransactionRollbackException(message, "40001", code, cause);
            case 48, 344:
                return new SQLFeatureNotSupportedException(message, FEATURE_NOT_SUPPORTED, code, cause);
            default:
                if (ClickHouseAuthenticationException.isAuthenticationCode(code)) {
                    return new SQLInvalidAuthorizationSpecException(message, "28000", code, cause);
                }
                return new SQLException(message, GENERAL, code, cause);
        }
    }
}
