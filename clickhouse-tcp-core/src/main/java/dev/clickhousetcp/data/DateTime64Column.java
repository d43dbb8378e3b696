package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * DateTime64(p[, tz]) column: Int64 ticks of 10^-p seconds since the epoch. {@link #getObject}
 * returns {@link java.time.ZonedDateTime} in the column's zone (the type's, else the query's session
 * zone, else the server's); {@link #getLong} the raw ticks; {@link #getString} and
 * {@link #getLocalDateTime} the wall clock the server prints ({@link ClickHouseZoneRules}).
 */
public final class DateTime64Column extends FixedWidthColumn implements TemporalColumn {
    private static final long[] POW10 = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L,
        100_000_000L, 1_000_000_000L};
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
    public DateTime64Column(DataType type, int rows, byte[] data, int scale, ZoneId zone) {
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

    @Override
    public Instant getInstant(int row) {
        long ticks = getLong(row);
        long div = POW10[scale];
        long sec = Math.floorDiv(ticks, div);
        long frac = Math.floorMod(ticks, div);
        return Instant.ofEpochSecond(sec, frac * POW10[9 - scale]);
    }

    /** Wall-clock date-time in the column's zone as the server prints it (directly for fixed-offset zones). */
    @Override
    public LocalDateTime getLocalDateTime(int row) {
        long ticks = getLong(row);
        long div = POW10[scale];
        long sec = Math.floorDiv(ticks, div);
        int nano = (int) (Math.floorMod(ticks, div) * POW10[9 - scale]);
        ZoneOffset o = fixedOffset;
        return o != null ? LocalDateTime.ofEpochSecond(sec, nano, o) : rules.toLocalDateTime(sec, nano);
    }

    @Override
    public Object getObject(int row) {
        return getZonedDateTime(row);
    }

    @Override
    public String getString(int row) {
        String s = DateTimeColumn.TEXT.format(getLocalDateTime(row)); // whole seconds: the pattern has no fraction
        if (scale == 0) {
            return s;
        }
        String frac = Long.toString(Math.floorMod(getLong(row), POW10[scale]));
        return s + "." + "0".repeat(scale - frac.length()) + frac;
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new DateTime64Column(type, r, d, scale, zone);
    }
}
