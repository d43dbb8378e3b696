package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * FixedString(N) column: N bytes per row, zero-padded. {@link #getObject} returns the bytes decoded
 * as UTF-8 {@code String} including padding (as ClickHouse's text output does); {@link #getBytes}
 * the raw bytes.
 */
public final class FixedStringColumn extends FixedWidthColumn {
    public FixedStringColumn(DataType type, int rows, byte[] data, int n) {
        super(type, rows, data, n);
    }

    public byte[] getBytes(int row) {
        checkRow(row);
        return Arrays.copyOfRange(data, row * width, row * width + width);
    }

    @Override
    public String getString(int row) {
        checkRow(row);
        return new String(data, row * width, width, StandardCharsets.UTF_8);
    }

    @Override
    public Object getObject(int row) {
        return getString(row);
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new FixedStringColumn(type, r, d, width);
    }
}
