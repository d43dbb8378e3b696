package dev.clickhousetcp.data;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Int32 / UInt32 column over little-endian bytes. {@link #getObject} returns {@code Integer} for Int32, {@code Long} for UInt32.
 */
public final class Int32Column extends IntegerColumn {
    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type     the column's ClickHouse type, Int32 or UInt32
     * @param rows     number of rows
     * @param data     the little-endian value bytes, at least {@code rows * 4} long
     * @param unsigned whether the type is the unsigned one
     */
    Int32Column(DataType type, int rows, byte[] data, boolean unsigned) {
        super(type, rows, data, 4, unsigned);
    }

    /**
     * The raw int lane at {@code row} (unsigned values keep their bit pattern).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the stored bits as a signed {@code int}
     */
    public int getRaw(int row) {
        checkRow(row);
        return (int) INT.get(data, row * 4);
    }

    @Override
    public long getLong(int row) {
        checkRow(row);
        int v = (int) INT.get(data, row * 4);
        return unsigned ? v & 0xFFFFFFFFL : v;
    }

    @Override
    public Object getObject(int row) {
        long v = getLong(row);
        return unsigned ? (Object) v : (Object) (int) v;
    }

    /**
     * Bulk copy of the raw lanes of all rows into {@code dst} starting at {@code dstOffset}.
     *
     * @param dst       destination; needs room for {@code size()} values from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives row 0
     */
    public void copyTo(int[] dst, int dstOffset) {
        checkAccessible();
        ByteBuffer.wrap(data, 0, rows * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(dst, dstOffset, rows);
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new Int32Column(type, r, d, unsigned);
    }
}
