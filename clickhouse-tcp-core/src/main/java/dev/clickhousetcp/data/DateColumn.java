package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

import java.time.LocalDate;

/**
 * Date (UInt16 days since 1970-01-01) or Date32 (Int32 days since 1970-01-01) column.
 * {@link #getObject} returns {@link LocalDate}; {@link #getLong} the day number.
 */
public final class DateColumn extends FixedWidthColumn {
    public DateColumn(DataType type, int rows, byte[] data, int width) {
        super(type, rows, data, width);
    }

    @Override
    public long getLong(int row) {
        checkRow(row);
        return width == 2 ? ((short) SHORT.get(data, row * 2)) & 0xFFFF : (int) INT.get(data, row * 4);
    }

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
}
