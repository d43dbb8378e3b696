package dev.clickhousetcp.data;

/**
 * One column of a {@link Block}: {@link #size()} values of one ClickHouse type, held in the decoded
 * wire layout (fixed-width values as little-endian bytes, strings as UTF-8 bytes plus offsets,
 * Nullable as null map plus inner column, Array as offsets plus flattened inner column, ...).
 *
 * <p>Access tiers, fastest first: typed primitive getters ({@link #getLong}, {@link #getDouble}, ...,
 * no boxing), {@link #getString} (the value as ClickHouse's own text output would print it), and
 * {@link #getObject} (a boxed Java value; the mapping per type is documented on each column class
 * and in {@code docs/types.md}).
 *
 * <p>Lifetime: a column is borrowed from its block. Once the stream has moved past the block, every
 * accessor throws {@link IllegalStateException}; call {@link #copy()} to keep a column. Columns are
 * not thread-safe for concurrent use with the stream that produced them; a copied column is
 * immutable and may be shared.
 *
 * @see Block
 */
public interface Column {

    /**
     * The column's ClickHouse type.
     *
     * @return the type, never {@code null}; available even after the block is released
     */
    DataType type();

    /**
     * Number of rows.
     *
     * @return the row count, equal to the owning block's {@link Block#rowCount()}
     */
    int size();

    /**
     * Whether the value at {@code row} is NULL (always false outside Nullable / LowCardinality(Nullable)).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return {@code true} if the value is NULL
     */
    default boolean isNull(int row) {
        return false;
    }

    /**
     * The value as a boxed Java object; the Java class per ClickHouse type is documented on each column
     * class.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the value, or {@code null} for NULL
     */
    Object getObject(int row);

    /**
     * The value in ClickHouse's text form, as {@code toString(value)} would return it on the server;
     * {@code null} for a NULL value (inside an Array/Tuple/Map a NULL element prints as {@code NULL}
     * and strings are quoted, as in ClickHouse's output).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the text form, or {@code null} for NULL
     */
    String getString(int row);

    /**
     * Integer value (signed types sign-extended; unsigned types zero-extended; UInt64 as raw bits).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the value as a {@code long}
     * @throws UnsupportedOperationException if the column's type has no integer view (the default)
     */
    default long getLong(int row) {
        throw unsupported("getLong");
    }

    /**
     * {@code (int) getLong(row)} after a range check.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the value as an {@code int}
     * @throws ArithmeticException if the value does not fit an {@code int}
     * @throws UnsupportedOperationException if the column's type has no integer view
     */
    default int getInt(int row) {
        long v = getLong(row);
        if (v != (int) v) {
            throw new ArithmeticException("value " + v + " of " + type().name() + " does not fit an int");
        }
        return (int) v;
    }

    /**
     * Floating-point value (integers converted).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the value as a {@code double}
     * @throws UnsupportedOperationException if the column's type has no numeric view (the default)
     */
    default double getDouble(int row) {
        throw unsupported("getDouble");
    }

    /**
     * Boolean value (Bool, or integers as non-zero).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return {@code getLong(row) != 0} by default
     * @throws UnsupportedOperationException if the column's type has no integer view
     */
    default boolean getBoolean(int row) {
        return getLong(row) != 0;
    }

    /**
     * A new dense column whose row {@code i} is this column's row {@code indexes[i]}, or the type's
     * default value where {@code indexes[i] == -1} (NULL for Nullable). Used for sparse and replicated
     * serializations.
     *
     * @param indexes for each output row, the source row in {@code [0, size())}, or {@code -1} for the default value
     * @return a new column of the same type with {@code indexes.length} rows
     */
    Column gather(int[] indexes);

    /**
     * A detached, immutable copy that outlives the block.
     *
     * @return a copy of all rows that stays valid after the block is released
     * @throws IllegalStateException if the owning block has already been released
     */
    Column copy();

    /**
     * Throws when the owning block has been released.
     *
     * @throws IllegalStateException if the stream has moved past the block this column belongs to
     */
    void checkAccessible();

    /**
     * The exception an accessor this column's type does not support throws.
     *
     * @param what the accessor's name, for example {@code "getLong"}
     * @return a new exception naming the accessor and the column's type (returned, not thrown)
     */
    default UnsupportedOperationException unsupported(String what) {
        return new UnsupportedOperationException(what + " is not supported by a column of type " + type().name());
    }
}
