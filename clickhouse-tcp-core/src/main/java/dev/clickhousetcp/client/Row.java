package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;

/**
 * A cursor over one row of a {@link Block}, handed to a {@link RowMapper}. Valid only during the
 * mapper call (it moves to the next row afterwards). Column indexes are 0-based. Not thread-safe.
 * {@link #getObject(int)} and {@link #toArray()} box UInt64 as the client's
 * {@link dev.clickhousetcp.mapping.MappingConfig#uint64AsLong()} says.
 */
public final class Row {
    private final boolean uint64AsLong;
    private Block block;
    private int row;

    Row(boolean uint64AsLong) {
        this.uint64AsLong = uint64AsLong;
    }

    void position(Block block, int row) {
        this.block = block;
        this.row = row;
    }

    /**
     * Number of columns.
     *
     * @return the result's column count
     */
    public int columnCount() {
        return block.columnCount();
    }

    /**
     * The name of a result column.
     *
     * @param index 0-based column index
     * @return the column's name (or alias) as the server sent it
     */
    public String columnName(int index) {
        return block.name(index);
    }

    /**
     * The column at {@code index}, for typed access beyond the getters here.
     *
     * @param index 0-based column index
     * @return the whole column of the current block (borrowed like the block); read it at {@link #rowInBlock()}
     */
    public Column column(int index) {
        return block.column(index);
    }

    /**
     * Index of the row within its block.
     *
     * @return the 0-based row index within the current block (not within the whole result)
     */
    public int rowInBlock() {
        return row;
    }

    private Column col(String name) {
        return block.column(name);
    }

    /**
     * Whether the value in a column is NULL.
     *
     * @param index 0-based column index
     * @return {@code true} for NULL; always {@code false} outside Nullable and LowCardinality(Nullable) columns
     */
    public boolean isNull(int index) {
        return block.column(index).isNull(row);
    }

    /**
     * Whether the value in a column is NULL.
     *
     * @param name the column name (exact match)
     * @return {@code true} for NULL; always {@code false} outside Nullable and LowCardinality(Nullable) columns
     * @throws IllegalArgumentException when the result has no column of that name
     */
    public boolean isNull(String name) {
        return col(name).isNull(row);
    }

    /**
     * Boxed value; see {@link Column#getObject} (UInt64 as {@code Long} with the raw bits when the
     * client's {@link dev.clickhousetcp.mapping.MappingConfig#uint64AsLong()} is set).
     *
     * @param index 0-based column index
     * @return the value as its Java type, {@code null} for NULL
     */
    public Object getObject(int index) {
        return RowArrays.value(block.column(index), row, uint64AsLong);
    }

    /**
     * Boxed value; see {@link #getObject(int)}.
     *
     * @param name the column name (exact match)
     * @return the value as its Java type, {@code null} for NULL
     * @throws IllegalArgumentException when the result has no column of that name
     */
    public Object getObject(String name) {
        return RowArrays.value(col(name), row, uint64AsLong);
    }

    /**
     * ClickHouse text form; {@code null} for NULL.
     *
     * @param index 0-based column index
     * @return the value as ClickHouse's {@code toString} would print it, or {@code null}
     */
    public String getString(int index) {
        return block.column(index).getString(row);
    }

    /**
     * ClickHouse text form; {@code null} for NULL.
     *
     * @param name the column name (exact match)
     * @return the value as ClickHouse's {@code toString} would print it, or {@code null}
     * @throws IllegalArgumentException when the result has no column of that name
     */
    public String getString(String name) {
        return col(name).getString(row);
    }

    /**
     * Integer value; see {@link Column#getLong(int)}. A NULL reads as the nested column's stored value
     * (normally 0): check {@link #isNull(int)} first.
     *
     * @param index 0-based column index
     * @return the value (unsigned types zero-extended, UInt64 as its raw 64 bits)
     * @throws UnsupportedOperationException when the column type has no integer value
     */
    public long getLong(int index) {
        return block.column(index).getLong(row);
    }

    /**
     * Integer value; see {@link #getLong(int)}.
     *
     * @param name the column name (exact match)
     * @return the value (unsigned types zero-extended, UInt64 as its raw 64 bits)
     * @throws IllegalArgumentException      when the result has no column of that name
     * @throws UnsupportedOperationException when the column type has no integer value
     */
    public long getLong(String name) {
        return col(name).getLong(row);
    }

    /**
     * Integer value that must fit an {@code int}; see {@link Column#getInt(int)}.
     *
     * @param index 0-based column index
     * @return the value
     * @throws ArithmeticException           when the value does not fit an {@code int}
     * @throws UnsupportedOperationException when the column type has no integer value
     */
    public int getInt(int index) {
        return block.column(index).getInt(row);
    }

    /**
     * Integer value that must fit an {@code int}; see {@link #getInt(int)}.
     *
     * @param name the column name (exact match)
     * @return the value
     * @throws IllegalArgumentException when the result has no column of that name
     * @throws ArithmeticException      when the value does not fit an {@code int}
     */
    public int getInt(String name) {
        return col(name).getInt(row);
    }

    /**
     * Floating-point value (integers converted); see {@link Column#getDouble(int)}.
     *
     * @param index 0-based column index
     * @return the value
     * @throws UnsupportedOperationException when the column type has no numeric value
     */
    public double getDouble(int index) {
        return block.column(index).getDouble(row);
    }

    /**
     * Floating-point value (integers converted); see {@link #getDouble(int)}.
     *
     * @param name the column name (exact match)
     * @return the value
     * @throws IllegalArgumentException when the result has no column of that name
     */
    public double getDouble(String name) {
        return col(name).getDouble(row);
    }

    /**
     * Boolean value (Bool, or integers as non-zero); see {@link Column#getBoolean(int)}.
     *
     * @param index 0-based column index
     * @return the value
     * @throws UnsupportedOperationException when the column type has no boolean value
     */
    public boolean getBoolean(int index) {
        return block.column(index).getBoolean(row);
    }

    /**
     * Boolean value (Bool, or integers as non-zero); see {@link #getBoolean(int)}.
     *
     * @param name the column name (exact match)
     * @return the value
     * @throws IllegalArgumentException when the result has no column of that name
     */
    public boolean getBoolean(String name) {
        return col(name).getBoolean(row);
    }

    /**
     * All values of the row as a fresh {@code Object[]} (boxed as {@link #getObject(int)}).
     *
     * @return a new array of {@link #columnCount()} values, {@code null} for NULL
     */
    public Object[] toArray() {
        Object[] a = new Object[block.columnCount()];
        for (int i = 0; i < a.length; i++) {
            a[i] = RowArrays.value(block.column(i), row, uint64AsLong);
        }
        return a;
    }
}
