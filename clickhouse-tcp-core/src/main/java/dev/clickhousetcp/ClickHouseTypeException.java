package dev.clickhousetcp;

/**
 * A ClickHouse type name could not be parsed, names a type this client does not support, or a Java
 * value cannot be converted to the column's type.
 */
public class ClickHouseTypeException extends ClickHouseException {
    private static final long serialVersionUID = 1L;

    public ClickHouseTypeException(String message) {
        super(message);
    }

    public ClickHouseTypeException(String message, Throwable cause) {
        super(message, cause);
    }
}
