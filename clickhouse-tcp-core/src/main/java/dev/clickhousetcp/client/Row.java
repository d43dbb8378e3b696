package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;

/**
 * A cursor over one row of a {@link Block}, handed to a {@link RowMapper}. Valid only during the
 * mapper call (it moves to the next row afterwards). Column indexes are 0-based. Not thread-safe.
 */
public final class Row {
    private Block block;
    private int row;

    Row() {
    }

    void position(Block block, int row) {
        this.block = block;
        this.row = row;
    }

    /** Number of columns. */
    public int columnCount() {
        return block.columnCount();
    }

    public String columnName(int index) {
        return block.name(index);
    }

    /** The column at {@code index}, for typed access beyond the getters here. */
    public Column column(int index) {
        return block.column(index);
    }

    /** Index of the row within its block. */
    public int rowInBlock() {
        return row;
    }

    private Column col(String name) {
        return block.column(name);
    }

    public boolean isNull(int index) {
        return block.column(index).isNull(row);
    }

    public boolean isNull(String name) {
        return col(name).isNull(row);
    }

    /** Boxed value; see {@link Column#getObject}. */
    public Object getObject(int index) {
        return block.column(index).getObject(row);
    }

    public Object getObject(String name) {
        return col(name).getObject(row);
    }

    /** ClickHouse text form; {@code null} for NULL. */
    public String getString(int index) {
        return block.column(index).getString(row);
    }

    public String getString(String name) {
        return col(name).getString(row);
    }

    public long getLong(int index) {
        return block.column(index).getLong(row);
    }

    public long getLong(String name) {
        return col(name).getLong(row);
    }

    public int getInt(int index) {
        return block.column(index).getInt(row);
    }

    public int getInt(String name) {
        return col(name).getInt(row);
    }

    public double getDouble(int index) {
        return block.column(index).getDouble(row);
    }

    public double getDouble(String name) {
        return col(name).getDouble(row);
    }

    public boolean getBoolean(int index) {
        return block.column(index).getBoolean(row);
    }

    public boolean getBoolean(String name) {
        return col(name).getBoolean(row);
    }

    /** All values of the row as a fresh {@code Object[]} (boxed as {@link Column#getObject}). */
    public Object[] toArray() {
        Object[] a = new Object[block.columnCount()];
        for (int i = 0; i < a.length; i++) {
            a[i] = block.column(i).getObject(row);
        }
        return a;
    }
}
