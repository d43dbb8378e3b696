package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

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

    /** The column's ClickHouse type. */
    DataType type();

    /** Number of rows. */
    int size();

    /** Whether the value at {@code row} is NULL (always false outside Nullable / LowCardinality(Nullable)). */
    default boolean isNull(int row) {
        return false;
    }

    /** The value as a boxed Java object ({@code null} for NULL). */
    Object getObject(int row);

    /**
     * The value in ClickHouse's text form, as {@code toString(value)} would return it on the server;
     * {@code null} for a NULL value (inside an Array/Tuple/Map a NULL element prints as {@code NULL}
     * and strings are quoted, as in ClickHouse's output).
     */
    String getString(int row);

    /** Integer value (signed types sign-extended; unsigned types zero-extended; UInt64 as raw bits). */
    default long getLong(int row) {
        throw unsupported("getLong");
    }

    /** {@code (int) getLong(row)} after a range check. */
    default int getInt(int row) {
        long v = getLong(row);
        if (v != (int) v) {
            throw new ArithmeticException("value " + v + " of " + type().name() + " does not fit an int");
        }
        return (int) v;
    }

    /** Floating-point value (integers converted). */
    default double getDouble(int row) {
        throw unsupported("getDouble");
    }

    /** Boolean value (Bool, or integers as non-zero). */
    default boolean getBoolean(int row) {
        return getLong(row) != 0;
    }

    /**
     * A new dense column whose row {@code i} is this column's row {@code indexes[i]}, or the type's
     * default value where {@code indexes[i] == -1} (NULL for Nullable). Used for sparse and replicated
     * serializations.
     */
    Column gather(int[] indexes);

    /** A detached, immutable copy that outlives the block. */
    Column copy();

    /** Throws when the owning block has been released. */
    void checkAccessible();

    default UnsupportedOperationException unsupported(String what) {
        return new UnsupportedOperationException(what + " is not supported by a column of type " + type().name());
    }
}
