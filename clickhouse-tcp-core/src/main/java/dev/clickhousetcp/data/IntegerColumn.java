package dev.clickhousetcp.data;

/**
 * Base of the Int8..Int64 / UInt8..UInt64 columns: little-endian lanes of 1, 2, 4 or 8 bytes.
 * Subclasses read their lane width in {@link #getLong} without boxing; text and floating-point views
 * are shared here.
 */
public abstract class IntegerColumn extends FixedWidthColumn {
    /** Whether the ClickHouse type is unsigned (UInt8..UInt64). */
    protected final boolean unsigned;

    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type     the column's ClickHouse type
     * @param rows     number of rows
     * @param data     the little-endian value bytes, at least {@code rows * width} long
     * @param width    bytes per value: 1, 2, 4 or 8
     * @param unsigned whether the type is unsigned
     */
    IntegerColumn(DataType type, int rows, byte[] data, int width, boolean unsigned) {
        super(type, rows, data, width);
        this.unsigned = unsigned;
    }

    /**
     * Whether the ClickHouse type is unsigned.
     *
     * @return {@code true} for UInt8..UInt64
     */
    public final boolean isUnsigned() {
        return unsigned;
    }

    @Override
    public final double getDouble(int row) {
        long v = getLong(row);
        return unsigned && v < 0 ? (double) (v >>> 1) * 2.0 + (v & 1) : v;
    }

    @Override
    public final String getString(int row) {
        long v = getLong(row);
        return unsigned ? Long.toUnsignedString(v) : Long.toString(v);
    }

    /**
     * Bulk copy of all rows into {@code dst} as longs, widened as {@link #getLong} does: signed types
     * sign-extended, unsigned ones zero-extended (UInt64 keeps its bit pattern). No boxing, one pass.
     *
     * @param dst       destination; needs room for {@code size()} values from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives row 0
     * @throws IllegalStateException     if the owning block has been released
     * @throws IndexOutOfBoundsException if {@code dst} has no room for {@code size()} values from {@code dstOffset}
     */
    public void copyTo(long[] dst, int dstOffset) {
        widenTo(dst, dstOffset, unsigned);
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        sb.append(getString(row));
    }
}
