package dev.clickhousetcp.data;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * FixedString(N) column: N bytes per row, zero-padded. {@link #getObject} and {@link #getString}
 * return the bytes decoded as UTF-8 without the trailing zero padding; {@link #getBytes} the raw N
 * bytes.
 */
public final class FixedStringColumn extends FixedWidthColumn {
    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type the column's ClickHouse type, FixedString(N)
     * @param rows number of rows
     * @param data the values, {@code n} bytes each, at least {@code rows * n} bytes
     * @param n    the N of FixedString(N): bytes per value
     */
    FixedStringColumn(DataType type, int rows, byte[] data, int n) {
        super(type, rows, data, n);
    }

    /**
     * A copy of the row's raw N bytes, zero padding included.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return a new array of {@code width()} bytes
     */
    public byte[] getBytes(int row) {
        checkRow(row);
        return Arrays.copyOfRange(data, row * width, row * width + width);
    }

    /** The value as text with trailing zero bytes removed, as ClickHouse's {@code toString} returns it. */
    @Override
    public String getString(int row) {
        checkRow(row);
        int end = row * width + width;
        while (end > row * width && data[end - 1] == 0) {
            end--;
        }
        return new String(data, row * width, end - row * width, StandardCharsets.UTF_8);
    }

    @Override
    public Object getObject(int row) {
        return getString(row);
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new FixedStringColumn(type, r, d, width);
    }

    @Override
    boolean quotedWhenNested() {
        return true;
    }

    /** FixedString keeps all N bytes in its nested form (the server prints {@code ['ab\0\0']}). */
    @Override
    String nestedText(int row) {
        return new String(getBytes(row), StandardCharsets.UTF_8);
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        JsonText.appendString(sb, new String(getBytes(row), StandardCharsets.UTF_8));
    }
}
