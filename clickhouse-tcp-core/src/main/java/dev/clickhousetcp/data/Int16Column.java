package dev.clickhousetcp.data;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Int16 / UInt16 column over little-endian bytes. {@link #getObject} returns {@code Short} for Int16, {@code Integer} for UInt16.
 */
public final class Int16Column extends IntegerColumn {
    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type     the column's ClickHouse type, Int16 or UInt16
     * @param rows     number of rows
     * @param data     the little-endian value bytes, at least {@code rows * 2} long
     * @param unsigned whether the type is the unsigned one
     */
    Int16Column(DataType type, int rows, byte[] data, boolean unsigned) {
        super(type, rows, data, 2, unsigned);
    }

    /**
     * The raw short lane at {@code row} (unsigned values keep their bit pattern).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the stored bits as a signed {@code short}
     */
    public short getRaw(int row) {
        checkRow(row);
        return (short) SHORT.get(data, row * 2);
    }

    @Override
    public long getLong(int row) {
        checkRow(row);
        short v = (short) SHORT.get(data, row * 2);
        return unsigned ? v & 0xFFFFL : v;
    }

    @Override
    public Object getObject(int row) {
        long v = getLong(row);
        return unsigned ? (Object) (int) v : (Object) (short) v;
    }

    /**
     * Bulk copy of the raw lanes of all rows into {@code dst} starting at {@code dstOffset}.
     *
     * @param dst       destination; needs room for {@code size()} values from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives row 0
     */
    public void copyTo(short[] dst, int dstOffset) {
        checkAccessible();
        ByteBuffer.wrap(data, 0, rows * 2).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(dst, dstOffset, rows);
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new Int16Column(type, r, d, unsigned);
    }
}
