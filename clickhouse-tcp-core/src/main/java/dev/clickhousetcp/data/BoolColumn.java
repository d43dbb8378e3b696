package dev.clickhousetcp.data;

/** Bool column (one byte per value). {@link #getObject} returns {@code Boolean}; text is {@code true}/{@code false}. */
public final class BoolColumn extends FixedWidthColumn {
    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type the column's ClickHouse type, Bool
     * @param rows number of rows
     * @param data one byte per value, 0 for false and any other value for true
     */
    BoolColumn(DataType type, int rows, byte[] data) {
        super(type, rows, data, 1);
    }

    @Override
    public boolean getBoolean(int row) {
        checkRow(row);
        return data[row] != 0;
    }

    @Override
    public long getLong(int row) {
        return getBoolean(row) ? 1 : 0;
    }

    @Override
    public Object getObject(int row) {
        return getBoolean(row);
    }

    @Override
    public String getString(int row) {
        return getBoolean(row) ? "true" : "false";
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new BoolColumn(type, r, d);
    }
}
