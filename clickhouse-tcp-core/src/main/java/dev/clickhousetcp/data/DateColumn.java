package dev.clickhousetcp.data;

import java.time.LocalDate;

/**
 * Date (UInt16 days since 1970-01-01) or Date32 (Int32 days since 1970-01-01) column.
 * {@link #getObject} returns {@link LocalDate}; {@link #getLong} the day number.
 */
public final class DateColumn extends FixedWidthColumn {
    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type  the column's ClickHouse type, Date or Date32
     * @param rows  number of rows
     * @param data  the little-endian day numbers, at least {@code rows * width} bytes
     * @param width 2 for Date (UInt16), 4 for Date32 (Int32)
     */
    DateColumn(DataType type, int rows, byte[] data, int width) {
        super(type, rows, data, width);
    }

    @Override
    public long getLong(int row) {
        checkRow(row);
        return width == 2 ? ((short) SHORT.get(data, row * 2)) & 0xFFFF : (int) INT.get(data, row * 4);
    }

    /**
     * The value as a date.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the date {@code getLong(row)} days after 1970-01-01 (before it for a negative Date32)
     */
    public LocalDate getLocalDate(int row) {
        return LocalDate.ofEpochDay(getLong(row));
    }

    @Override
    public Object getObject(int row) {
        return getLocalDate(row);
    }

    @Override
    public String getString(int row) {
        return getLocalDate(row).toString();
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new DateColumn(type, r, d, width);
    }

    @Override
    boolean quotedWhenNested() {
        return true;
    }
}
