package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * DateTime64(p[, tz]) column: Int64 ticks of 10^-p seconds since the epoch. {@link #getObject}
 * returns {@link java.time.ZonedDateTime} in the column's zone (the type's, else the query's session
 * zone, else the server's); {@link #getLong} the raw ticks; {@link #getString} and
 * {@link #getLocalDateTime} the wall clock the server prints ({@link ClickHouseZoneRules}). Every Int64
 * value has a text; the {@code java.time} projections throw {@link ClickHouseTypeException} for values
 * beyond about 10^9 years from 1970, which only DateTime64(0..2) can hold.
 */
public final class DateTime64Column extends FixedWidthColumn implements TemporalColumn {
    private static final long[] POW10 = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L,
        100_000_000L, 1_000_000_000L};
    /** The server's earliest and latest wall clocks in text (src/Common/DateLUTImpl.h limits what it prints). */
    private static final LocalDateTime MIN_TEXT = LocalDateTime.of(0, 1, 1, 0, 0, 0);
    private static final LocalDateTime MAX_TEXT = LocalDateTime.of(9999, 12, 31, 23, 59, 59);
    private static final long MIN_TEXT_SECOND = MIN_TEXT.toEpochSecond(ZoneOffset.UTC);
    private static final long MAX_TEXT_SECOND = MAX_TEXT.toEpochSecond(ZoneOffset.UTC);
    /** Epoch seconds java.time's Instant, LocalDateTime and ZonedDateTime all hold in every zone (offsets up to 18 h). */
    private static final long MIN_JAVA_SECOND = LocalDateTime.MIN.toEpochSecond(ZoneOffset.UTC) + 18 * 3600;
    private static final long MAX_JAVA_SECOND = LocalDateTime.MAX.toEpochSecond(ZoneOffset.UTC) - 18 * 3600;
    private final int scale;
    private final ZoneId zone;
    /** The zone's wall-clock rules as the server applies them. */
    private final ClickHouseZoneRules rules;
    /** The zone's offset when it never changes (UTC, a fixed offset), else null. */
    private final ZoneOffset fixedOffset;

    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type  the column's ClickHouse type, DateTime64(p[, tz])
     * @param rows  number of rows
     * @param data  the little-endian Int64 ticks, at least {@code rows * 8} bytes
     * @param scale the precision p: ticks are 10^-p seconds, 0..9
     * @param zone  the zone values are shown in: the type's, else the session's, else the server's
     */
    DateTime64Column(DataType type, int rows, byte[] data, int scale, ZoneId zone) {
        super(type, rows, data, 8);
        this.scale = scale;
        this.zone = zone;
        this.rules = ClickHouseZoneRules.of(zone);
        this.fixedOffset = rules.fixedOffset();
    }

    /**
     * Digits after the second (0..9).
     *
     * @return the precision p of DateTime64(p)
     */
    public int scale() {
        return scale;
    }

    @Override
    public ZoneId zone() {
        return zone;
    }

    @Override
    public long getLong(int row) {
        checkRow(row);
        return (long) LONG.get(data, row * 8);
    }

    /**
     * {@inheritDoc}
     *
     * @throws ClickHouseTypeException when the value lies beyond what {@link Instant} can hold in every zone
     *                                 (more than about 10^9 years from 1970; only DateTime64(0..2) has such values)
     */
    @Override
    public Instant getInstant(int row) {
        long ticks = getLong(row);
        long div = POW10[scale];
        long sec = javaSecond(ticks, Math.floorDiv(ticks, div));
        long frac = Math.floorMod(ticks, div);
        return Instant.ofEpochSecond(sec, frac * POW10[9 - scale]);
    }

    /**
     * Wall-clock date-time in the column's zone as the server prints it (directly for fixed-offset zones).
     *
     * @throws ClickHouseTypeException when the value lies beyond what {@code java.time} can hold (more than
     *                                 about 10^9 years from 1970; only DateTime64(0..2) has such values)
     */
    @Override
    public LocalDateTime getLocalDateTime(int row) {
        long ticks = getLong(row);
        long div = POW10[scale];
        long sec = javaSecond(ticks, Math.floorDiv(ticks, div));
        int nano = (int) (Math.floorMod(ticks, div) * POW10[9 - scale]);
        return wallClock(sec, nano);
    }

    private LocalDateTime wallClock(long sec, int nano) {
        ZoneOffset o = fixedOffset;
        return o != null ? LocalDateTime.ofEpochSecond(sec, nano, o) : rules.toLocalDateTime(sec, nano);
    }

    /** {@code sec}, checked to be within what java.time's date-time types hold in every zone. */
    private long javaSecond(long ticks, long sec) {
        if (sec < MIN_JAVA_SECOND || sec > MAX_JAVA_SECOND) {
            throw new ClickHouseTypeException("the " + type.name() + " value of " + ticks + " ticks is "
                    + (sec < 0 ? "before" : "after") + " the range of java.time's date-times (years -999999999.."
                    + "999999999); read it with getLong or getString");
        }
        return sec;
    }

    @Override
    public Object getObject(int row) {
        return getZonedDateTime(row);
    }

    /**
     * The value as the server prints it: {@code yyyy-MM-dd HH:mm:ss} and the p digits of the fraction, the
     * wall clock limited to 0000-01-01 00:00:00 .. 9999-12-31 23:59:59 as the server limits it (the
     * fraction is kept), so every Int64 value has a text.
     */
    @Override
    public String getString(int row) {
        long ticks = getLong(row);
        long sec = Math.floorDiv(ticks, POW10[scale]);
        LocalDateTime wall;
        if (sec < MIN_TEXT_SECOND - 86_400) { // a day of margin: no zone's offset reaches it
            wall = MIN_TEXT;
        } else if (sec > MAX_TEXT_SECOND + 86_400) {
            wall = MAX_TEXT;
        } else {
            wall = wallClock(sec, 0);
            wall = wall.isBefore(MIN_TEXT) ? MIN_TEXT : wall.isAfter(MAX_TEXT) ? MAX_TEXT : wall;
        }
        String s = DateTimeColumn.TEXT.format(wall); // whole seconds: the pattern has no fraction
        if (scale == 0) {
            return s;
        }
        String frac = Long.toString(Math.floorMod(ticks, POW10[scale]));
        return s + "." + "0".repeat(scale - frac.length()) + frac;
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new DateTime64Column(type, r, d, scale, zone);
    }

    @Override
    boolean quotedWhenNested() {
        return true;
    }
}
