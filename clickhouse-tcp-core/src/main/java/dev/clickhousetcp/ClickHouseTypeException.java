package dev.clickhousetcp;

/**
 * A ClickHouse type name could not be parsed, names a type this client does not support, or a Java
 * value cannot be converted to the column's type.
 */
public class ClickHouseTypeException extends ClickHouseException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message and no cause.
     *
     * @param message the type name or value and why it is rejected
     */
    public ClickHouseTypeException(String message) {
        super(message);
    }

    /**
     * An exception with a message and the exception that caused it.
     *
     * @param message the type name or value and why it is rejected
     * @param cause   the underlying exception, or {@code null}
     */
    public ClickHouseTypeException(String message, Throwable cause) {
        super(message, cause);
    }
}
