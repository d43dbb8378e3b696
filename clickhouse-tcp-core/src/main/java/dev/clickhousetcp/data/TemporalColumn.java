package dev.clickhousetcp.data;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

/**
 * Projections shared by columns of points in time (DateTime, DateTime64): each row is an instant,
 * shown in the column's zone (the type's, else the query's session zone, else the server's). The
 * wall-clock projections follow the server's own rules ({@link ClickHouseZoneRules}), which differ
 * from {@link java.time} only on a few transition days; the instant projections are exact.
 */
public interface TemporalColumn extends Column {

    /**
     * The zone values are shown in.
     *
     * @return the type's zone, else the query's session zone, else the server's
     */
    ZoneId zone();

    /**
     * The instant at {@code row}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the point in time, independent of the zone
     */
    Instant getInstant(int row);

    /**
     * The instant in the column's zone.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the instant at {@link #zone()}, with java.time's offset for that instant
     */
    default ZonedDateTime getZonedDateTime(int row) {
        return getInstant(row).atZone(zone());
    }

    /**
     * Wall-clock date-time in the column's zone, as the server prints it.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the local date-time per {@link ClickHouseZoneRules}, with the instant's fraction of a second
     */
    default LocalDateTime getLocalDateTime(int row) {
        Instant i = getInstant(row);
        return ClickHouseZoneRules.of(zone()).toLocalDateTime(i.getEpochSecond(), i.getNano());
    }

    /**
     * The date in the column's zone, as the server's {@code toDate} computes it.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the date part of {@link #getLocalDateTime(int)}
     */
    default java.time.LocalDate getLocalDate(int row) {
        return getLocalDateTime(row).toLocalDate();
    }

    /**
     * The instant with the column zone's offset at that instant.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the instant with java.time's offset of {@link #zone()} at that instant
     */
    default OffsetDateTime getOffsetDateTime(int row) {
        return getZonedDateTime(row).toOffsetDateTime();
    }
}
