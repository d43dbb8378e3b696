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

    /** The zone values are shown in. */
    ZoneId zone();

    /** The instant at {@code row}. */
    Instant getInstant(int row);

    /** The instant in the column's zone. */
    default ZonedDateTime getZonedDateTime(int row) {
        return getInstant(row).atZone(zone());
    }

    /** Wall-clock date-time in the column's zone, as the server prints it. */
    default LocalDateTime getLocalDateTime(int row) {
        Instant i = getInstant(row);
        return ClickHouseZoneRules.of(zone()).toLocalDateTime(i.getEpochSecond(), i.getNano());
    }

    /** The date in the column's zone, as the server's {@code toDate} computes it. */
    default java.time.LocalDate getLocalDate(int row) {
        return getLocalDateTime(row).toLocalDate();
    }

    /** The instant with the column zone's offset at that instant. */
    default OffsetDateTime getOffsetDateTime(int row) {
        return getZonedDateTime(row).toOffsetDateTime();
    }
}
