package dev.clickhousetcp;

/**
 * Root of every exception this client throws. Unchecked, like Spring's {@code DataAccessException}.
 *
 * <p>Subtypes say what went wrong and what state the connection is in:
 * {@link ClickHouseServerException} (the server answered with an Exception packet; the connection
 * stays usable), {@link ClickHouseProtocolException} (malformed or unexpected bytes; the connection
 * is discarded), {@link ClickHouseConnectionException} (I/O failure, refused connection, timeout;
 * the connection is discarded), {@link ClickHouseTypeException} (a type name that cannot be
 * parsed or is not supported) and {@link ClickHouseFeatureNotSupportedException} (the call needs a
 * newer protocol revision than the server's; nothing was sent).
 */
public class ClickHouseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message and no cause.
     *
     * @param message the detail message
     */
    public ClickHouseException(String message) {
        super(message);
    }

    /**
     * An exception with a message and the exception that caused it.
     *
     * @param message the detail message
     * @param cause   the underlying exception, or {@code null}
     */
    public ClickHouseException(String message, Throwable cause) {
        super(message, cause);
    }
}
