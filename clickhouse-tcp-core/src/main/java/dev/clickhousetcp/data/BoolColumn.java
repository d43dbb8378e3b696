package dev.clickhousetcp.data;

import java.util.Objects;

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

    /**
     * Bulk copy of all rows into {@code dst} as 0 (false) or 1 (true), as {@link #getLong} gives them.
     *
     * @param dst       destination; needs room for {@code size()} values from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives row 0
     * @throws IllegalStateException     if the owning block has been released
     * @throws IndexOutOfBoundsException if {@code dst} has no room for {@code size()} values from {@code dstOffset}
     */
    public void copyTo(long[] dst, int dstOffset) {
        checkAccessible();
        Objects.checkFromIndexSize(dstOffset, rows, dst.length);
        for (int i = 0; i < rows; i++) {
            dst[dstOffset + i] = data[i] != 0 ? 1 : 0;
        }
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        sb.append(getString(row));
    }
}
