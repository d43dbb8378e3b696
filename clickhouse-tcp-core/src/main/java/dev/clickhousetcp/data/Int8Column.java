package dev.clickhousetcp.data;

/**
 * Int8 / UInt8 column over little-endian bytes. {@link #getObject} returns {@code Byte} for Int8, {@code Short} for UInt8.
 */
public final class Int8Column extends IntegerColumn {
    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type     the column's ClickHouse type, Int8 or UInt8
     * @param rows     number of rows
     * @param data     the little-endian value bytes, at least {@code rows * 1} long
     * @param unsigned whether the type is the unsigned one
     */
    Int8Column(DataType type, int rows, byte[] data, boolean unsigned) {
        super(type, rows, data, 1, unsigned);
    }

    /**
     * The raw byte lane at {@code row} (unsigned values keep their bit pattern).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the stored bits as a signed {@code byte}
     */
    public byte getRaw(int row) {
        checkRow(row);
        return data[row];
    }

    @Override
    public long getLong(int row) {
        checkRow(row);
        byte v = data[row];
        return unsigned ? v & 0xFFL : v;
    }

    @Override
    public Object getObject(int row) {
        long v = getLong(row);
        return unsigned ? (Object) (short) v : (Object) (byte) v;
    }

    /**
     * Bulk copy of the raw lanes of all rows into {@code dst} starting at {@code dstOffset}.
     *
     * @param dst       destination; needs room for {@code size()} values from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives row 0
     */
    public void copyTo(byte[] dst, int dstOffset) {
        checkAccessible();
        System.arraycopy(data, 0, dst, dstOffset, rows);
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new Int8Column(type, r, d, unsigned);
    }
}
