package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Int32 / UInt32 column over little-endian bytes. {@link #getObject} returns {@code Integer} for Int32, {@code Long} for UInt32.
 */
public final class Int32Column extends IntegerColumn {
    public Int32Column(DataType type, int rows, byte[] data, boolean unsigned) {
        super(type, rows, data, 4, unsigned);
    }

    /** The raw int lane at {@code row} (unsigned values keep their bit pattern). */
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

    /** Bulk copy of the raw lanes into {@code dst} starting at {@code dstOffset}. */
    public void copyTo(int[] dst, int dstOffset) {
        checkAccessible();
        ByteBuffer.wrap(data, 0, rows * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(dst, dstOffset, rows);
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new Int32Column(type, r, d, unsigned);
    }
}
