package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * DateTime[(tz)] column: UInt32 seconds since the epoch, shown in the column's time zone (the type's,
 * else the server's). {@link #getObject} returns {@link ZonedDateTime} in that zone; {@link #getLong}
 * the epoch second.
 */
public final class DateTimeColumn extends FixedWidthColumn {
    static final DateTimeFormatter TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");
    private final ZoneId zone;

    public DateTimeColumn(DataType type, int rows, byte[] data, ZoneId zone) {
        super(type, rows, data, 4);
        this.zone = zone;
    }

    /** The zone values are shown in. */
    public ZoneId zone() {
        return zone;
    }

    @Override
    public long getLong(int row) {
        checkRow(row);
        return ((int) INT.get(data, row * 4)) & 0xFFFFFFFFL;
    }

    public Instant getInstant(int row) {
        return Instant.ofEpochSecond(getLong(row));
    }

    public ZonedDateTime getZonedDateTime(int row) {
        return getInstant(row).atZone(zone);
    }

    /** Wall-clock date-time in the column's zone. */
    public LocalDateTime getLocalDateTime(int row) {
        return getZonedDateTime(row).toLocalDateTime();
    }

    /** The instant with the column zone's offset at that instant. */
    public java.time.OffsetDateTime getOffsetDateTime(int row) {
        return getZonedDateTime(row).toOffsetDateTime();
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
}
