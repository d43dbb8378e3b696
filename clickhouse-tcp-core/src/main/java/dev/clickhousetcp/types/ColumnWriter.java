package dev.clickhousetcp.types;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Column;
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

    DataType type();

    /** Appends one value (converted to the column type); {@code null} only for nullable types. */
    void append(Object value);

    /** Appends the type's default value (0, empty string, NULL for Nullable...). */
    void appendDefault();

    /** Values appended since the last reset. */
    int size();

    /** Writes the data of all appended values (without the state prefix). */
    void writeData(BinaryWriter out) throws IOException;

    /**
     * Writes the column's state prefix, before {@link #writeData}. By default the type's own
     * {@link DataType#writePrefix}; writers whose prefix depends on the values (Dynamic: the list of
     * types) and composite writers holding such writers override it.
     */
    default void writePrefix(BinaryWriter out) throws IOException {
        type().writePrefix(out);
    }

    /** Forgets all values, keeping allocated capacity. */
    void reset();

    /** Appends every element of a Java array (primitive or object) or {@link Iterable}. */
    default void appendAll(Object values) {
        appendEach(this, values);
    }

    /**
     * {@link #appendAll} for a whole column the caller leaves unchanged until the block holding it
     * has been written (a columnar insert's own arguments): a writer may keep a reference to a
     * primitive array and serialize straight from it instead of copying it. By default
     * {@link #appendAll}.
     */
    default void appendAllShared(Object values) {
        appendAll(values);
    }

    /**
     * Appends one integer value without boxing where the writer has a primitive path (numeric
     * writers range-check it against the column type); by default boxes and calls {@link #append}.
     */
    default void appendLong(long value) {
        append(value);
    }

    /** Appends one floating-point value; by default boxes and calls {@link #append}. */
    default void appendDouble(double value) {
        append(value);
    }

    /**
     * Appends every row of {@code column} (a column read earlier, of any type whose values this
     * writer accepts): by default row by row through {@link Column#getObject}, NULL rows as
     * {@code null}. {@link ColumnCopyWriter} re-sends a column of the same type in its native layout
     * instead.
     *
     * @throws ClickHouseTypeException when a value cannot be converted to this writer's type
     */
    default void appendColumn(Column column) {
        int n = column.size();
        for (int i = 0; i < n; i++) {
            append(column.isNull(i) ? null : column.getObject(i));
        }
    }

    /** Appends the elements of {@code values} one by one through {@link #append}. */
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

    static ClickHouseTypeException cannotConvert(DataType type, Object value) {
        return new ClickHouseTypeException("cannot convert " + (value == null ? "null" : value.getClass().getName())
                + " value to ClickHouse type " + type.name());
    }
}
