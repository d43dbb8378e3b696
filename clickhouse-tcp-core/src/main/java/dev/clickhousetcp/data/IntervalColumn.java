package dev.clickhousetcp.data;

import java.time.Duration;
import java.time.Period;

/**
 * IntervalNanosecond ... IntervalYear column: one Int64 count of the unit per value, little-endian
 * (ClickHouse {@code DataTypeInterval}, {@code SerializationInterval}).
 *
 * <p>{@link #getObject} returns the count as {@code Long}, matching {@link #getString}, which prints the
 * bare number as the server's {@code toString} does (e.g. {@code 5} for {@code INTERVAL 5 DAY}).
 * {@link #getDuration} converts the fixed-length units (Nanosecond to Week; a day is 86 400 s);
 * {@link #getPeriod} the calendar units (Day, Week, Month, Quarter, Year).
 */
public final class IntervalColumn extends FixedWidthColumn {
    private final IntervalType.Unit unit;

    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type the column's ClickHouse type, one of IntervalNanosecond ... IntervalYear
     * @param rows number of rows
     * @param data the little-endian Int64 counts, at least {@code rows * 8} bytes
     * @param unit the unit the type counts in
     */
    IntervalColumn(DataType type, int rows, byte[] data, IntervalType.Unit unit) {
        super(type, rows, data, 8);
        this.unit = unit;
    }

    /**
     * The interval's unit.
     *
     * @return the unit of the counts, for example {@code DAY} for IntervalDay
     */
    public IntervalType.Unit unit() {
        return unit;
    }

    /** The count of units. */
    @Override
    public long getLong(int row) {
        checkRow(row);
        return (long) LONG.get(data, row * 8);
    }

    @Override
    public double getDouble(int row) {
        return getLong(row);
    }

    /**
     * The interval as a Duration.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the count times the unit's fixed length
     * @throws UnsupportedOperationException for Month, Quarter and Year (no fixed length)
     * @throws ArithmeticException when the span exceeds Duration's range
     */
    public Duration getDuration(int row) {
        return unit.toDuration(getLong(row));
    }

    /**
     * The interval as a Period.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return a Period of that many days (Day; Week as 7 days), months (Month; Quarter as 3 months) or years
     * @throws UnsupportedOperationException for units shorter than a day
     * @throws ArithmeticException when the count exceeds an {@code int} of the Period's field
     */
    public Period getPeriod(int row) {
        return unit.toPeriod(getLong(row));
    }

    @Override
    public Object getObject(int row) {
        return getLong(row);
    }

    @Override
    public String getString(int row) {
        return Long.toString(getLong(row));
    }

    /**
     * Bulk copy of the counts of all rows into {@code dst}.
     *
     * @param dst       destination; needs room for {@code size()} values from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives row 0
     */
    public void copyTo(long[] dst, int dstOffset) {
        checkAccessible();
        for (int i = 0; i < rows; i++) {
            dst[dstOffset + i] = (long) LONG.get(data, i * 8);
        }
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new IntervalColumn(type, r, d, unit);
    }
}
