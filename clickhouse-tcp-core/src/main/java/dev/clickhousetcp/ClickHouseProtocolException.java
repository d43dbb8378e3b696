package dev.clickhousetcp;

/**
 * The bytes on the wire did not follow the native protocol: an unknown packet type, a size over a
 * declared limit, a malformed block, a failed checksum. The connection that saw it is closed and
 * never returned to a pool.
 */
public class ClickHouseProtocolException extends ClickHouseException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message and no cause.
     *
     * @param message what was malformed or unexpected
     */
    public ClickHouseProtocolException(String message) {
        super(message);
    }

    /**
     * An exception with a message and the exception that caused it.
     *
     * @param message what was malformed or unexpected
     * @param cause   the underlying exception, or {@code null}
     */
    public ClickHouseProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
