package dev.clickhousetcp.data;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Int128 / UInt128 / Int256 / UInt256 column: 16 or 32 bytes per value, two's complement (unsigned
 * types: plain binary) in little-endian order, i.e. 2 or 4 little-endian 64-bit lanes with lane 0 the
 * least significant (ClickHouse {@code SerializationNumber} over {@code base/wide_integer.h}).
 *
 * <p>Access without allocation: {@link #getLane}, {@link #getLow}, {@link #getHigh}, {@link #fitsLong},
 * {@link #getLong} (exact), {@link #getDouble}; bulk: {@link #copyLanesTo}. {@link #getObject} returns
 * {@link BigInteger} (built only when asked; a value that fits a {@code long} takes the cheap path).
 * {@link #getString} is the decimal text, as ClickHouse's {@code toString} prints it.
 */
public final class BigIntColumn extends FixedWidthColumn {
    private final boolean unsigned;

    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type     the column's ClickHouse type, one of Int128, UInt128, Int256, UInt256
     * @param rows     number of rows
     * @param data     the little-endian values, at least {@code rows * width} bytes
     * @param width    bytes per value: 16 for the 128-bit types, 32 for the 256-bit types
     * @param unsigned whether the type is UInt128 or UInt256
     */
    BigIntColumn(DataType type, int rows, byte[] data, int width, boolean unsigned) {
        super(type, rows, data, width);
        this.unsigned = unsigned;
    }

    /**
     * Whether the ClickHouse type is unsigned (UInt128, UInt256).
     *
     * @return {@code true} for UInt128 and UInt256
     */
    public boolean isUnsigned() {
        return unsigned;
    }

    /**
     * 64-bit lanes per value: 2 (128-bit types) or 4 (256-bit types).
     *
     * @return {@code width() / 8}
     */
    public int lanes() {
        return width / 8;
    }

    /**
     * Lane {@code lane} (0 = least significant 64 bits) of row {@code row}, as raw bits.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @param lane lane index, in {@code [0, lanes())}
     * @return the lane's 64 bits
     * @throws IndexOutOfBoundsException if {@code row} or {@code lane} is out of range
     */
    public long getLane(int row, int lane) {
        checkRow(row);
        if (lane < 0 || lane >= width / 8) {
            throw new IndexOutOfBoundsException("lane " + lane + " of a " + (width * 8) + "-bit value");
        }
        return (long) LONG.get(data, row * width + lane * 8);
    }

    /**
     * The least significant 64 bits (raw).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return lane 0 of the value
     */
    public long getLow(int row) {
        checkRow(row);
        return (long) LONG.get(data, row * width);
    }

    /**
     * The most significant 64 bits (raw): lane 1 of a 128-bit value, lane 3 of a 256-bit value.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the top lane, whose sign bit is the value's sign for the signed types
     */
    public long getHigh(int row) {
        checkRow(row);
        return (long) LONG.get(data, row * width + width - 8);
    }

    /**
     * Whether the value at {@code row} is within {@code [Long.MIN_VALUE, Long.MAX_VALUE]}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return {@code true} if {@link #getLong(int)} returns the value without throwing
     */
    public boolean fitsLong(int row) {
        checkRow(row);
        return fitsLong(data, row * width, width, unsigned);
    }

    /**
     * The value as a {@code long}.
     *
     * @throws ArithmeticException when it does not fit a {@code long}
     */
    @Override
    public long getLong(int row) {
        if (!fitsLong(row)) {
            throw new ArithmeticException("value " + getString(row) + " of " + type.name() + " does not fit a long");
        }
        return (long) LONG.get(data, row * width);
    }

    /** The nearest double (correctly rounded). */
    @Override
    public double getDouble(int row) {
        checkRow(row);
        if (fitsLong(data, row * width, width, unsigned)) {
            return (double) (long) LONG.get(data, row * width);
        }
        return toBigInteger(data, row * width, width, unsigned).doubleValue();
    }

    /**
     * The exact value.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the value as a new BigInteger (non-negative for the unsigned types)
     */
    public BigInteger getBigInteger(int row) {
        checkRow(row);
        if (fitsLong(data, row * width, width, unsigned)) {
            return BigInteger.valueOf((long) LONG.get(data, row * width));
        }
        return toBigInteger(data, row * width, width, unsigned);
    }

    @Override
    public Object getObject(int row) {
        return getBigInteger(row);
    }

    @Override
    public String getString(int row) {
        checkRow(row);
        if (fitsLong(data, row * width, width, unsigned)) {
            return Long.toString((long) LONG.get(data, row * width));
        }
        return toBigInteger(data, row * width, width, unsigned).toString();
    }

    /**
     * Bulk copy of all lanes, row after row ({@code size() * lanes()} longs, lane 0 of each row first)
     * into {@code dst} starting at {@code dstOffset}.
     *
     * @param dst       destination; needs room for {@code size() * lanes()} longs from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives lane 0 of row 0
     */
    public void copyLanesTo(long[] dst, int dstOffset) {
        checkAccessible();
        ByteBuffer.wrap(data, 0, rows * width).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer()
                .get(dst, dstOffset, rows * (width / 8));
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new BigIntColumn(type, r, d, width, unsigned);
    }

    /** Whether the little-endian integer of {@code width} bytes at {@code off} fits a long. */
    static boolean fitsLong(byte[] data, int off, int width, boolean unsigned) {
        long low = (long) LONG.get(data, off);
        long ext = unsigned ? 0 : low >> 63;
        if (unsigned && low < 0) {
            return false;
        }
        for (int o = off + 8; o < off + width; o += 8) {
            if ((long) LONG.get(data, o) != ext) {
                return false;
            }
        }
        return true;
    }

    /** The little-endian (two's complement unless {@code unsigned}) integer of {@code width} bytes at {@code off}. */
    static BigInteger toBigInteger(byte[] data, int off, int width, boolean unsigned) {
        byte[] be = new byte[width];
        for (int i = 0; i < width; i++) {
            be[i] = data[off + width - 1 - i];
        }
        return unsigned ? new BigInteger(1, be) : new BigInteger(be);
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        sb.append(getString(row));
    }
}
