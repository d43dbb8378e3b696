package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wall-clock accessors of DateTime and DateTime64 columns (a direct computation for fixed-offset
 * zones, the zone rules otherwise) agree with {@code getInstant(row).atZone(zone())}, without a server.
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
                LocalDateTime expected = c.getInstant(i).atZone(zone).toLocalDateTime();
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
                    LocalDateTime expected = c.getInstant(i).atZone(zone).toLocalDateTime();
                    assertThat(c.getLocalDateTime(i)).as("%s scale %d row %d", zone, scale, i).isEqualTo(expected);
                    assertThat(c.getString(i)).startsWith(DateTimeColumn.TEXT.format(expected));
                }
            }
        }
    }
}
