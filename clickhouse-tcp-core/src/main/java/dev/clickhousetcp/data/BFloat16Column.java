package dev.clickhousetcp.data;

/**
 * BFloat16 column: 2 bytes per value, little-endian, holding the upper 16 bits of an IEEE-754 Float32
 * (ClickHouse {@code base/BFloat16.h}, {@code SerializationNumber<BFloat16>}). {@link #getFloat} widens
 * exactly; {@link #getObject} returns {@code Float}; {@link #getString} prints the widened Float32 in
 * shortest round-trip form, as the server's {@code toString} does.
 */
public final class BFloat16Column extends FixedWidthColumn {
    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type the column's ClickHouse type, BFloat16
     * @param rows number of rows
     * @param data the little-endian 16-bit values, at least {@code rows * 2} bytes
     */
    BFloat16Column(DataType type, int rows, byte[] data) {
        super(type, rows, data, 2);
    }

    /**
     * The raw 16 bits of row {@code row}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the BFloat16 bits (sign, 8 exponent bits, 7 mantissa bits)
     */
    public short getBits(int row) {
        checkRow(row);
        return (short) SHORT.get(data, row * 2);
    }

    /**
     * The value widened (exactly) to a float.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the value as a Float32
     */
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

    /**
     * Bulk conversion of all rows into {@code dst} starting at {@code dstOffset}.
     *
     * @param dst       destination; needs room for {@code size()} values from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives row 0
     */
    public void copyTo(float[] dst, int dstOffset) {
        checkAccessible();
        for (int i = 0; i < rows; i++) {
            dst[dstOffset + i] = toFloat((short) SHORT.get(data, i * 2));
        }
    }

    /**
     * Widens BFloat16 bits to a float (exact: the bits become the upper half of a Float32).
     *
     * @param bits the BFloat16 bits
     * @return the equal Float32 value
     */
    public static float toFloat(short bits) {
        return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new BFloat16Column(type, r, d);
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        sb.append(getString(row));
    }
}
