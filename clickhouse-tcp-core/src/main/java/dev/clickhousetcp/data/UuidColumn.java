package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

import java.util.UUID;

/**
 * UUID column: 16 bytes per value as two little-endian UInt64 halves, the high half first
 * (ClickHouse {@code SerializationUUID}). {@link #getObject} returns {@link UUID}.
 */
public final class UuidColumn extends FixedWidthColumn {
    public UuidColumn(DataType type, int rows, byte[] data) {
        super(type, rows, data, 16);
    }

    public long getMostSignificantBits(int row) {
        checkRow(row);
        return (long) LONG.get(data, row * 16);
    }

    public long getLeastSignificantBits(int row) {
        checkRow(row);
        return (long) LONG.get(data, row * 16 + 8);
    }

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
}
