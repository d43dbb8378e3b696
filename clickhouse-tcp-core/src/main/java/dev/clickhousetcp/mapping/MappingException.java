package dev.clickhousetcp.mapping;

import dev.clickhousetcp.ClickHouseTypeException;

/**
 * A class cannot be mapped to a result or table (a column without a property, a required
 * constructor parameter without a column, a conversion that is impossible), or a value met while
 * mapping cannot be converted (a NULL into a primitive, a number out of range). Messages name the
 * column, its ClickHouse type and the Java property.
 */
public class MappingException extends ClickHouseTypeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message naming the column, its ClickHouse type and the Java property.
     *
     * @param message the detail message
     */
    public MappingException(String message) {
        super(message);
    }

    /**
     * An exception with a message and the exception that caused it (a failed conversion or accessor).
     *
     * @param message the detail message
     * @param cause   the underlying exception
     */
    public MappingException(String message, Throwable cause) {
        super(message, cause);
    }
}
