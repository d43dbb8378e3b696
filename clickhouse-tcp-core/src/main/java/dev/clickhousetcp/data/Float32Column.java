package dev.clickhousetcp.data;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/** Float32 column. {@link #getObject} returns {@code Float}. */
public final class Float32Column extends FixedWidthColumn {
    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type the column's ClickHouse type, Float32
     * @param rows number of rows
     * @param data the little-endian IEEE-754 values, at least {@code rows * 4} bytes
     */
    Float32Column(DataType type, int rows, byte[] data) {
        super(type, rows, data, 4);
    }

    /**
     * The value without widening or boxing.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the Float32 value (NaN and infinities as stored)
     */
    public float getFloat(int row) {
        checkRow(row);
        return (float) FLOAT.get(data, row * 4);
    }

    @Override
    public double getDouble(int row) {
        return getFloat(row);
    }

    @Override
    public long getLong(int row) {
        return (long) getFloat(row);
    }

    @Override
    public Object getObject(int row) {
        return getFloat(row);
    }

    @Override
    public String getString(int row) {
        return TextFormat.formatFloat(getFloat(row));
    }

    /**
     * Bulk copy of all rows into {@code dst}.
     *
     * @param dst       destination; needs room for {@code size()} values from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives row 0
     */
    public void copyTo(float[] dst, int dstOffset) {
        checkAccessible();
        ByteBuffer.wrap(data, 0, rows * 4).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(dst, dstOffset, rows);
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new Float32Column(type, r, d);
    }

    /**
     * Bulk copy of all rows into {@code dst}, each value widened to {@code double} (exactly).
     *
     * @param dst       destination; needs room for {@code size()} values from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives row 0
     * @throws IllegalStateException     if the owning block has been released
     * @throws IndexOutOfBoundsException if {@code dst} has no room for {@code size()} values from {@code dstOffset}
     */
    public void copyTo(double[] dst, int dstOffset) {
        checkAccessible();
        Objects.checkFromIndexSize(dstOffset, rows, dst.length);
        for (int i = 0; i < rows; i++) {
            dst[dstOffset + i] = (float) FLOAT.get(data, i << 2);
        }
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        double d = getDouble(row);
        sb.append(Double.isNaN(d) || Double.isInfinite(d) ? "null" : getString(row));
    }
}
