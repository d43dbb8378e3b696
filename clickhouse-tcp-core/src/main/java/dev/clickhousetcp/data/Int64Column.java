package dev.clickhousetcp.data;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Int64 / UInt64 column over little-endian bytes. {@link #getObject} returns {@code Long} for Int64, {@code java.math.BigInteger} for UInt64 ({@link #getLong} keeps UInt64's raw bits).
 */
public final class Int64Column extends IntegerColumn {
    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type     the column's ClickHouse type, Int64 or UInt64
     * @param rows     number of rows
     * @param data     the little-endian value bytes, at least {@code rows * 8} long
     * @param unsigned whether the type is the unsigned one
     */
    Int64Column(DataType type, int rows, byte[] data, boolean unsigned) {
        super(type, rows, data, 8, unsigned);
    }

    /**
     * The raw long lane at {@code row} (unsigned values keep their bit pattern).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the stored bits as a signed {@code long}
     */
    public long getRaw(int row) {
        checkRow(row);
        return (long) LONG.get(data, row * 8);
    }

    @Override
    public long getLong(int row) {
        checkRow(row);
        long v = (long) LONG.get(data, row * 8);
        return v;
    }

    @Override
    public Object getObject(int row) {
        long v = getLong(row);
        return unsigned ? (Object) unsignedValue(v) : (Object) v;
    }

    /**
     * The UInt64 whose 64 bits are {@code bits}, exactly: what {@link #getObject} gives for a UInt64
     * row whose {@link #getRaw} is {@code bits} (values from 2^63 come back above {@code Long.MAX_VALUE}).
     *
     * @param bits the stored bits as a signed {@code long}
     * @return the value in {@code [0, 2^64)}
     */
    public static BigInteger unsignedValue(long bits) {
        BigInteger v = BigInteger.valueOf(bits);
        return bits >= 0 ? v : v.add(TWO_TO_64);
    }

    /**
     * Bulk copy of the raw lanes of all rows into {@code dst} starting at {@code dstOffset}.
     *
     * @param dst       destination; needs room for {@code size()} values from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives row 0
     */
    @Override
    public void copyTo(long[] dst, int dstOffset) {
        checkAccessible();
        ByteBuffer.wrap(data, 0, rows * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(dst, dstOffset, rows);
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new Int64Column(type, r, d, unsigned);
    }
}
