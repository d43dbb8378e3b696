package dev.clickhousetcp.data;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalTime;

/**
 * Time (Int32 seconds, 4 bytes) or Time64(p) (Int64 ticks of 10^-p seconds, 8 bytes) column, little-endian
 * (ClickHouse {@code SerializationTime}, {@code SerializationTime64}). A value is a signed time span: it
 * may be negative or longer than a day.
 *
 * <p>{@link #getLong} is the raw value (seconds, resp. ticks); {@link #getDuration} / {@link #getObject}
 * the span as {@link Duration}; {@link #getLocalTime} the time of day when {@code 0 <= value < 24h}.
 * {@link #getString} prints like the server: {@code [-]HH:MM:SS[.fraction]} with at least two hour
 * digits, the fraction always {@code p} digits, and the whole-second part capped at
 * {@code 999:59:59} (the server prints larger stored spans that way).
 */
public final class TimeColumn extends FixedWidthColumn {
    static final long[] POW10 = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L,
        100_000_000L, 1_000_000_000L};
    private static final long MAX_SECONDS_TEXT = 999L * 3600 + 59 * 60 + 59;

    private final int scale;

    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type  the column's ClickHouse type, Time or Time64(p)
     * @param rows  number of rows
     * @param data  the little-endian values, at least {@code rows * width} bytes
     * @param width 4 for Time, 8 for Time64
     * @param scale digits after the second (0 for Time, 0..9 for Time64)
     */
    TimeColumn(DataType type, int rows, byte[] data, int width, int scale) {
        super(type, rows, data, width);
        this.scale = scale;
    }

    /**
     * Digits after the second.
     *
     * @return 0 for Time, the precision p for Time64(p)
     */
    public int scale() {
        return scale;
    }

    /** The raw value: seconds (Time) or ticks of 10^-p seconds (Time64). */
    @Override
    public long getLong(int row) {
        checkRow(row);
        return width == 4 ? (int) INT.get(data, row * 4) : (long) LONG.get(data, row * 8);
    }

    /** The span in seconds (ticks divided by 10^p). */
    @Override
    public double getDouble(int row) {
        return (double) getLong(row) / POW10[scale];
    }

    /**
     * The span as a Duration (exact).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the signed span, negative for a negative value
     */
    public Duration getDuration(int row) {
        long v = getLong(row);
        long div = POW10[scale];
        return Duration.ofSeconds(Math.floorDiv(v, div), Math.floorMod(v, div) * POW10[9 - scale]);
    }

    /**
     * The value as a time of day.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the time of day that is the value after midnight
     * @throws DateTimeException when the value is negative or at least 24 hours
     */
    public LocalTime getLocalTime(int row) {
        long v = getLong(row);
        long div = POW10[scale];
        if (v < 0 || v >= 86_400L * div) {
            throw new DateTimeException("value " + getString(row) + " of " + type.name() + " is not a time of day");
        }
        return LocalTime.ofNanoOfDay(v * POW10[9 - scale]);
    }

    @Override
    public Object getObject(int row) {
        return getDuration(row);
    }

    @Override
    public String getString(int row) {
        return format(getLong(row), scale);
    }

    /** Text of a raw Time/Time64 value, as the server prints it. */
    static String format(long v, int scale) {
        StringBuilder sb = new StringBuilder(24);
        long div = POW10[scale];
        long secs;
        long frac;
        if (v < 0) {
            sb.append('-');
            // magnitude without overflow for Long.MIN_VALUE: work with negative remainders; at scale 0 the
            // magnitude of Long.MIN_VALUE itself does not fit, and is above the text's limit anyway
            secs = v / div == Long.MIN_VALUE ? Long.MAX_VALUE : -(v / div);
            frac = -(v % div);
        } else {
            secs = v / div;
            frac = v % div;
        }
        secs = Math.min(secs, MAX_SECONDS_TEXT);
        long h = secs / 3600;
        int m = (int) (secs / 60 % 60);
        int s = (int) (secs % 60);
        if (h < 10) {
            sb.append('0');
        }
        sb.append(h).append(':');
        if (m < 10) {
            sb.append('0');
        }
        sb.append(m).append(':');
        if (s < 10) {
            sb.append('0');
        }
        sb.append(s);
        if (scale > 0) {
            String f = Long.toString(frac);
            sb.append('.');
            for (int i = f.length(); i < scale; i++) {
                sb.append('0');
            }
            sb.append(f);
        }
        return sb.toString();
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new TimeColumn(type, r, d, width, scale);
    }

    @Override
    boolean quotedWhenNested() {
        return true;
    }
}
