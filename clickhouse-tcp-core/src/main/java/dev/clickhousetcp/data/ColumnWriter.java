package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.lang.reflect.Array;

/**
 * Collects values of one {@link DataType} for an insert block and writes them in the native column
 * layout. Not thread-safe; reusable after {@link #reset()}.
 *
 * <p>Accepted Java values per type are listed in {@code docs/types.md}; a value that cannot be
 * converted throws {@link ClickHouseTypeException} naming the type and the value's class, before
 * anything is sent.
 */
public interface ColumnWriter {

    /**
     * The type whose values this writer collects.
     *
     * @return the column type, never {@code null}
     */
    DataType type();

    /**
     * Appends one value (converted to the column type); {@code null} only for nullable types.
     *
     * @param value the Java value for the next row, of a class accepted for this type (see {@code docs/types.md})
     * @throws ClickHouseTypeException when the value cannot be converted to the column type (including
     *                                 {@code null} for a non-nullable type) or is out of its range
     */
    void append(Object value);

    /** Appends the type's default value (0, empty string, NULL for Nullable...). */
    void appendDefault();

    /**
     * Values appended since the last reset.
     *
     * @return the number of rows collected so far
     */
    int size();

    /**
     * Writes the data of all appended values (without the state prefix), in the native column layout.
     *
     * @param out the writer of the block being sent
     * @throws IOException when writing fails
     */
    void writeData(BinaryWriter out) throws IOException;

    /**
     * Writes the column's state prefix, before {@link #writeData}. By default the type's own
     * {@link DataType#writePrefix}; writers whose prefix depends on the values (Dynamic: the list of
     * types) and composite writers holding such writers override it.
     *
     * @param out the writer of the block being sent
     * @throws IOException when writing fails
     */
    default void writePrefix(BinaryWriter out) throws IOException {
        type().writePrefix(out);
    }

    /** Forgets all values, keeping allocated capacity. */
    void reset();

    /**
     * Appends every element of a Java array (primitive or object) or {@link Iterable}.
     *
     * @param values a Java array or an {@link Iterable} of values, one per row
     * @throws ClickHouseTypeException when {@code values} is neither (or {@code null}), or an element cannot be
     *                                 converted
     */
    default void appendAll(Object values) {
        appendEach(this, values);
    }

    /**
     * {@link #appendAll} for a whole column the caller leaves unchanged until the block holding it
     * has been written (a columnar insert's own arguments): a writer may keep a reference to a
     * primitive array and serialize straight from it instead of copying it. By default
     * {@link #appendAll}.
     *
     * @param values a Java array or an {@link Iterable} of values, one per row; not modified by the caller
     *               until the block is written
     * @throws ClickHouseTypeException as {@link #appendAll}
     */
    default void appendAllShared(Object values) {
        appendAll(values);
    }

    /**
     * Appends one integer value without boxing where the writer has a primitive path (numeric
     * writers range-check it against the column type); by default boxes and calls {@link #append}.
     *
     * @param value the integer value for the next row
     * @throws ClickHouseTypeException when the value is out of the column type's range or not accepted
     */
    default void appendLong(long value) {
        append(value);
    }

    /**
     * Appends one floating-point value; by default boxes and calls {@link #append}.
     *
     * @param value the floating-point value for the next row
     * @throws ClickHouseTypeException when the column type does not accept it
     */
    default void appendDouble(double value) {
        append(value);
    }

    /**
     * Appends every row of {@code column} (a column read earlier, of any type whose values this
     * writer accepts): by default row by row through {@link Column#getObject}, NULL rows as
     * {@code null}. {@link ColumnCopyWriter} re-sends a column of the same type in its native layout
     * instead.
     *
     * @param column a column read earlier; all its rows are appended in order
     * @throws ClickHouseTypeException when a value cannot be converted to this writer's type
     */
    default void appendColumn(Column column) {
        int n = column.size();
        for (int i = 0; i < n; i++) {
            append(column.isNull(i) ? null : column.getObject(i));
        }
    }

    /**
     * Appends the elements of {@code values} one by one through {@link #append}: the default of
     * {@link #appendAll}, for writers that override it but fall back for some inputs.
     *
     * @param w      the writer to append to
     * @param values a Java array (primitive or object) or an {@link Iterable}
     * @throws ClickHouseTypeException when {@code values} is neither an array nor an {@link Iterable} (or is
     *                                 {@code null}), or an element cannot be converted
     */
    static void appendEach(ColumnWriter w, Object values) {
        if (values instanceof Iterable<?> it) {
            for (Object v : it) {
                w.append(v);
            }
        } else if (values != null && values.getClass().isArray()) {
            int n = Array.getLength(values);
            for (int i = 0; i < n; i++) {
                w.append(Array.get(values, i));
            }
        } else {
            throw new ClickHouseTypeException("expected an array or Iterable of values for column of type "
                    + w.type().name() + ", got " + (values == null ? "null" : values.getClass().getName()));
        }
    }

    /**
     * The exception a writer throws for a {@code null} value of a type that has no NULL (anything but Nullable,
     * LowCardinality(Nullable), Variant, Dynamic and Nothing), as ClickHouse refuses it.
     *
     * @param typeName the column type's name
     * @return an exception naming the type, to be thrown by the caller
     */
    static ClickHouseTypeException notNullable(String typeName) {
        return new ClickHouseTypeException("NULL is not a value of non-Nullable type " + typeName);
    }

    /**
     * The exception a writer throws for a value of a class its type does not accept.
     *
     * @param type  the column type
     * @param value the rejected value, may be {@code null}
     * @return an exception naming the value's class (or {@code null}) and the type, to be thrown by the caller
     */
    static ClickHouseTypeException cannotConvert(DataType type, Object value) {
        return new ClickHouseTypeException("cannot convert " + (value == null ? "null" : value.getClass().getName())
                + " value to ClickHouse type " + type.name());
    }
}
