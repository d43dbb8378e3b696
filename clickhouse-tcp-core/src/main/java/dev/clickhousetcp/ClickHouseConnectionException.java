package dev.clickhousetcp;

/**
 * The transport failed: connection refused, host unreachable, a connect/handshake/read timeout, or
 * the socket closed mid-stream. The connection is closed and never returned to a pool. The message
 * names the endpoint but never a credential.
 */
public class ClickHouseConnectionException extends ClickHouseException {
    private static final long serialVersionUID = 1L;

    public ClickHouseConnectionException(String message, Throwable cause) {
        super(message, cause);
    }

    public ClickHouseConnectionException(String message) {
        super(message);
    }
}
