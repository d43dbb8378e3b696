package dev.clickhousetcp.data;

import java.util.Objects;

/**
 * A value with an explicit ClickHouse type, for columns whose writer otherwise picks the type from the
 * Java value: a {@code Variant} writer stores it in the variant with this type name, a
 * {@code Dynamic} writer stores it with this type. Also what {@code VariantColumn.getTypedValue} and
 * {@code DynamicColumn.getTypedValue} return, so values read from one table insert into another with
 * their exact types. Immutable.
 *
 * @param type  a ClickHouse type name, e.g. {@code UInt8}, {@code Array(Nullable(String))}
 * @param value the value, in any form the writer of {@code type} accepts ({@code null} for NULL)
 */
public record TypedValue(String type, Object value) {

    /**
     * Checks that a type name is given; it is resolved only by the writer the value is appended to.
     *
     * @param type  a ClickHouse type name, not {@code null}
     * @param value the value, {@code null} for NULL
     * @throws NullPointerException when {@code type} is {@code null}
     */
    public TypedValue {
        Objects.requireNonNull(type, "type");
    }

    /**
     * Shorthand for {@code new TypedValue(type, value)}.
     *
     * @param type  a ClickHouse type name, e.g. {@code UInt8}, not {@code null}
     * @param value the value, in any form the writer of {@code type} accepts ({@code null} for NULL)
     * @return the typed value
     * @throws NullPointerException when {@code type} is {@code null}
     */
    public static TypedValue of(String type, Object value) {
        return new TypedValue(type, value);
    }
}
