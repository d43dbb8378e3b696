package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Float32 column. {@link #getObject} returns {@code Float}. */
public final class Float32Column extends FixedWidthColumn {
    public Float32Column(DataType type, int rows, byte[] data) {
        super(type, rows, data, 4);
    }

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

    /** Bulk copy into {@code dst}. */
    public void copyTo(float[] dst, int dstOffset) {
        checkAccessible();
        ByteBuffer.wrap(data, 0, rows * 4).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(dst, dstOffset, rows);
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new Float32Column(type, r, d);
    }
}
