package dev.clickhousetcp.data;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Float64 column. {@link #getObject} returns {@code Double}. */
public final class Float64Column extends FixedWidthColumn {
    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type the column's ClickHouse type, Float64
     * @param rows number of rows
     * @param data the little-endian IEEE-754 values, at least {@code rows * 8} bytes
     */
    Float64Column(DataType type, int rows, byte[] data) {
        super(type, rows, data, 8);
    }

    @Override
    public double getDouble(int row) {
        checkRow(row);
        return (double) DOUBLE.get(data, row * 8);
    }

    @Override
    public long getLong(int row) {
        return (long) getDouble(row);
    }

    @Override
    public Object getObject(int row) {
        return getDouble(row);
    }

    @Override
    public String getString(int row) {
        return TextFormat.formatDouble(getDouble(row));
    }

    /**
     * Bulk copy of all rows into {@code dst}.
     *
     * @param dst       destination; needs room for {@code size()} values from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives row 0
     */
    public void copyTo(double[] dst, int dstOffset) {
        checkAccessible();
        ByteBuffer.wrap(data, 0, rows * 8).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(dst, dstOffset, rows);
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new Float64Column(type, r, d);
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        double d = getDouble(row);
        sb.append(Double.isNaN(d) || Double.isInfinite(d) ? "null" : getString(row));
    }
}
