package dev.clickhousetcp.data;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * DateTime[(tz)] column: UInt32 seconds since the epoch, shown in the column's time zone (the type's,
 * else the query's session zone, else the server's). {@link #getObject} returns
 * {@link java.time.ZonedDateTime} in that zone; {@link #getLong} the epoch second; {@link #getString}
 * and {@link #getLocalDateTime} the wall clock the server prints ({@link ClickHouseZoneRules}).
 */
public final class DateTimeColumn extends FixedWidthColumn implements TemporalColumn {
    static final DateTimeFormatter TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");
    private final ZoneId zone;
    /** The zone's wall-clock rules as the server applies them. */
    private final ClickHouseZoneRules rules;
    /** The zone's offset when it never changes (UTC, a fixed offset), else null. */
    private final ZoneOffset fixedOffset;

    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type the column's ClickHouse type, DateTime[(tz)]
     * @param rows number of rows
     * @param data the little-endian UInt32 epoch seconds, at least {@code rows * 4} bytes
     * @param zone the zone values are shown in: the type's, else the session's, else the server's
     */
    DateTimeColumn(DataType type, int rows, byte[] data, ZoneId zone) {
        super(type, rows, data, 4);
        this.zone = zone;
        this.rules = ClickHouseZoneRules.of(zone);
        this.fixedOffset = rules.fixedOffset();
    }

    @Override
    public ZoneId zone() {
        return zone;
    }

    @Override
    public long getLong(int row) {
        checkRow(row);
        return ((int) INT.get(data, row * 4)) & 0xFFFFFFFFL;
    }

    @Override
    public Instant getInstant(int row) {
        return Instant.ofEpochSecond(getLong(row));
    }

    /** Wall-clock date-time in the column's zone as the server prints it (directly for fixed-offset zones). */
    @Override
    public LocalDateTime getLocalDateTime(int row) {
        ZoneOffset o = fixedOffset;
        return o != null ? LocalDateTime.ofEpochSecond(getLong(row), 0, o) : rules.toLocalDateTime(getLong(row), 0);
    }

    @Override
    public Object getObject(int row) {
        return getZonedDateTime(row);
    }

    @Override
    public String getString(int row) {
        return TEXT.format(getLocalDateTime(row));
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new DateTimeColumn(type, r, d, zone);
    }

    @Override
    boolean quotedWhenNested() {
        return true;
    }
}
