package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

/**
 * BFloat16 column: 2 bytes per value, little-endian, holding the upper 16 bits of an IEEE-754 Float32
 * (ClickHouse {@code base/BFloat16.h}, {@code SerializationNumber<BFloat16>}). {@link #getFloat} widens
 * exactly; {@link #getObject} returns {@code Float}; {@link #getString} prints the widened Float32 in
 * shortest round-trip form, as the server's {@code toString} does.
 */
public final class BFloat16Column extends FixedWidthColumn {
    public BFloat16Column(DataType type, int rows, byte[] data) {
        super(type, rows, data, 2);
    }

    /** The raw 16 bits of row {@code row}. */
    public short getBits(int row) {
        checkRow(row);
        return (short) SHORT.get(data, row * 2);
    }

    /** The value widened (exactly) to a float. */
    public float getFloat(int row) {
        return toFloat(getBits(row));
    }

    @Override
    public double getDouble(int row) {
        return getFloat(row);
    }

    /** The value truncated toward zero, as {@code (long) getFloat(row)}. */
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

    /** Bulk conversion of all rows into {@code dst} starting at {@code dstOffset}. */
    public void copyTo(float[] dst, int dstOffset) {
        checkAccessible();
        for (int i = 0; i < rows; i++) {
            dst[dstOffset + i] = toFloat((short) SHORT.get(data, i * 2));
        }
    }

    /** Widens BFloat16 bits to a float. */
    public static float toFloat(short bits) {
        return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new BFloat16Column(type, r, d);
    }
}
