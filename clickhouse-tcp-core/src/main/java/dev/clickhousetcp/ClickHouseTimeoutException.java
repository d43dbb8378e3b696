package dev.clickhousetcp;

/**
 * A client-side deadline passed: connect, handshake, socket read (silence between packets), or
 * waiting for a pooled connection. A connection that timed out mid-exchange is discarded.
 */
public class ClickHouseTimeoutException extends ClickHouseConnectionException {
    private static final long serialVersionUID = 1L;

    public ClickHouseTimeoutException(String message, Throwable cause) {
        super(message, cause);
    }

    public ClickHouseTimeoutException(String message) {
        super(message);
    }
}
