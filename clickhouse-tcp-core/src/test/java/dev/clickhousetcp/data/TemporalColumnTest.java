package dev.clickhousetcp.data;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wall-clock accessors of DateTime and DateTime64 columns (a direct computation for fixed-offset
 * zones, the server's rules otherwise) agree with {@link ClickHouseZoneRules} applied to
 * {@code getInstant(row)}, and with {@code java.time} wherever the instant's day has no offset change,
 * without a server ({@link ClickHouseZoneRulesTest} checks the rules against the server).
 */
class TemporalColumnTest {
    private static final List<ZoneId> ZONES = List.of(ZoneOffset.UTC, ZoneId.of("UTC"), ZoneId.of("Etc/GMT+3"),
            ZoneOffset.ofHoursMinutes(5, 30), ZoneId.of("Europe/Berlin"), ZoneId.of("America/St_Johns"),
            ZoneId.of("Australia/Lord_Howe"));

    @Test
    void dateTimeWallClockMatchesZoneRules() {
        Random rnd = new Random(3);
        int rows = 2000;
        ByteBuffer b = ByteBuffer.allocate(rows * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < rows; i++) {
            b.putInt(i == 0 ? 0 : i == 1 ? -1 : rnd.nextInt()); // 0, 2106-02-07 06:28:15 and random UInt32 seconds
        }
        for (ZoneId zone : ZONES) {
            DateTimeColumn c = new DateTimeColumn(DataTypes.parse("DateTime", zone), rows, b.array(), zone);
            for (int i = 0; i < rows; i++) {
                LocalDateTime expected = expected(c.getInstant(i), zone);
                assertThat(c.getLocalDateTime(i)).as("%s row %d", zone, i).isEqualTo(expected);
                assertThat(c.getString(i)).isEqualTo(DateTimeColumn.TEXT.format(expected));
            }
        }
    }

    @Test
    void dateTime64WallClockMatchesZoneRules() {
        Random rnd = new Random(5);
        int rows = 2000;
        for (int scale : new int[] {0, 3, 6, 9}) {
            ByteBuffer b = ByteBuffer.allocate(rows * 8).order(ByteOrder.LITTLE_ENDIAN);
            long span = 4_000_000_000L * (long) Math.pow(10, scale);
            for (int i = 0; i < rows; i++) {
                b.putLong(i == 0 ? -1 : i == 1 ? 0 : Math.floorMod(rnd.nextLong(), 2 * span) - span); // before and after 1970
            }
            for (ZoneId zone : ZONES) {
                DateTime64Column c = new DateTime64Column(DataTypes.parse("DateTime64(" + scale + ")", zone), rows,
                        b.array(), scale, zone);
                for (int i = 0; i < rows; i++) {
                    LocalDateTime expected = expected(c.getInstant(i), zone);
                    assertThat(c.getLocalDateTime(i)).as("%s scale %d row %d", zone, scale, i).isEqualTo(expected);
                    assertThat(c.getString(i)).startsWith(DateTimeColumn.TEXT.format(expected));
                }
            }
        }
    }

    @Test
    void time64TextAtTheInt64Extremes() {
        // the server limits Time text to -999:59:59 .. 999:59:59 (ClickHouse 26.7:
        // SELECT CAST(toInt64(-9223372036854775808) AS Time64(0)) prints -999:59:59)
        assertThat(TimeColumn.format(Long.MIN_VALUE, 0)).isEqualTo("-999:59:59");
        assertThat(TimeColumn.format(Long.MAX_VALUE, 0)).isEqualTo("999:59:59");
        assertThat(TimeColumn.format(Long.MIN_VALUE + 1, 0)).isEqualTo("-999:59:59");
        assertThat(TimeColumn.format(Long.MIN_VALUE, 3)).isEqualTo("-999:59:59.808");
    }

    /** The server's wall clock for {@code i}, checked against java.time's on days without an offset change. */
    private static LocalDateTime expected(Instant i, ZoneId zone) {
        LocalDateTime server = ClickHouseZoneRules.of(zone).toLocalDateTime(i.getEpochSecond(), i.getNano());
        LocalDateTime java = i.atZone(zone).toLocalDateTime();
        java.time.zone.ZoneRules r = zone.getRules();
        Instant dayStart = java.toLocalDate().atStartOfDay(zone).toInstant();
        java.time.zone.ZoneOffsetTransition next = r.nextTransition(dayStart.minusSeconds(2 * 86_400));
        boolean transitionNearby = next != null && next.getInstant().isBefore(dayStart.plusSeconds(3 * 86_400));
        if (!transitionNearby) {
            assertThat(server).as("%s at %s", zone, i).isEqualTo(java);
        }
        return server;
    }
}
