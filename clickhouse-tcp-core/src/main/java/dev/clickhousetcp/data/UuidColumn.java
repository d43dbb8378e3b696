package dev.clickhousetcp.data;

import java.util.UUID;

/**
 * UUID column: 16 bytes per value as two little-endian UInt64 halves, the high half first
 * (ClickHouse {@code SerializationUUID}). {@link #getObject} returns {@link UUID}.
 */
public final class UuidColumn extends FixedWidthColumn {
    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type the column's ClickHouse type, UUID
     * @param rows number of rows
     * @param data 16 bytes per value in the wire layout, at least {@code rows * 16} bytes
     */
    UuidColumn(DataType type, int rows, byte[] data) {
        super(type, rows, data, 16);
    }

    /**
     * The high 64 bits of the UUID, as {@link UUID#getMostSignificantBits()}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the high half, read from bytes 0..7 of the value
     */
    public long getMostSignificantBits(int row) {
        checkRow(row);
        return (long) LONG.get(data, row * 16);
    }

    /**
     * The low 64 bits of the UUID, as {@link UUID#getLeastSignificantBits()}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the low half, read from bytes 8..15 of the value
     */
    public long getLeastSignificantBits(int row) {
        checkRow(row);
        return (long) LONG.get(data, row * 16 + 8);
    }

    /**
     * The value as a Java UUID.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return a new UUID with the row's two halves
     */
    public UUID getUuid(int row) {
        return new UUID(getMostSignificantBits(row), getLeastSignificantBits(row));
    }

    @Override
    public Object getObject(int row) {
        return getUuid(row);
    }

    @Override
    public String getString(int row) {
        return getUuid(row).toString();
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new UuidColumn(type, r, d);
    }

    @Override
    boolean quotedWhenNested() {
        return true;
    }
}
