package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.DateTime64Column;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DateTime64 values anywhere in Int64, not only inside the server's calendar (1900..2299): the text is
 * the server's own (it clamps the wall clock to 0000-01-01 00:00:00 .. 9999-12-31 23:59:59 and keeps the
 * fraction), the instant is exact where {@code java.time} can hold it and a {@link ClickHouseTypeException}
 * where it cannot; never an unchecked {@code DateTimeException}.
 */
@ClickHouseTest
class DateTime64RangeTest {
    private static final List<String> TICKS = List.of("-9223372036854775808", "9223372036854775807",
            "-1000000000000", "253402300799", "253402300800", "32503680000", "-62167219200", "-62167219201",
            "-2208988801", "-31557014167219200", "31556889864403199", "-31557014167154400", "-31557014167154401",
            "31556889864338399", "31556889864338400", "-1", "0");

    private static final long MIN_SECOND = LocalDateTime.MIN.toEpochSecond(ZoneOffset.UTC) + 18 * 3600;
    private static final long MAX_SECOND = LocalDateTime.MAX.toEpochSecond(ZoneOffset.UTC) - 18 * 3600;

    @Test
    void textIsTheServersAndInstantsAreExactOrTypedErrors() {
        List<String> exprs = new ArrayList<>();
        for (String ticks : TICKS) {
            for (int scale : new int[] {0, 1, 3, 9}) {
                for (String zone : new String[] {"UTC", "Asia/Tokyo", "America/St_Johns"}) {
                    exprs.add("reinterpret(toInt64(" + ticks + "), 'DateTime64(" + scale + ", \\'" + zone + "\\')')");
                }
            }
        }
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.get(ClickHouseServer.Kind.MODERN))) {
            assertThat(ServerTypeChecks.printMismatches(client, exprs)).isEmpty();
            for (String e : exprs) {
                client.query("SELECT " + e, (row, n) -> {
                    DateTime64Column c = (DateTime64Column) row.column(0);
                    BigInteger[] secs = new BigInteger(Long.toString(c.getLong(0)))
                            .divideAndRemainder(BigInteger.TEN.pow(c.scale()));
                    if (secs[1].signum() < 0) {
                        secs[0] = secs[0].subtract(BigInteger.ONE);
                        secs[1] = secs[1].add(BigInteger.TEN.pow(c.scale()));
                    }
                    long nanos = secs[1].multiply(BigInteger.TEN.pow(9 - c.scale())).longValueExact();
                    // java.time holds every zone's date-time for these seconds (offsets up to 18 hours)
                    if (secs[0].compareTo(BigInteger.valueOf(MIN_SECOND)) >= 0
                            && secs[0].compareTo(BigInteger.valueOf(MAX_SECOND)) <= 0) {
                        Instant exact = Instant.ofEpochSecond(secs[0].longValueExact(), nanos);
                        assertThat(c.getInstant(0)).as(e).isEqualTo(exact);
                        assertThat(c.getZonedDateTime(0).toInstant()).as(e).isEqualTo(exact);
                        assertThat(c.getObject(0)).as(e).isEqualTo(exact.atZone(c.zone()));
                        assertThat(c.getLocalDateTime(0)).as(e).isNotNull();
                    } else {
                        assertThatThrownBy(() -> c.getObject(0)).as(e).isInstanceOf(ClickHouseTypeException.class)
                                .hasMessageContaining("DateTime64");
                        assertThatThrownBy(() -> c.getInstant(0)).as(e).isInstanceOf(ClickHouseTypeException.class);
                        assertThatThrownBy(() -> c.getLocalDateTime(0)).as(e)
                                .isInstanceOf(ClickHouseTypeException.class);
                    }
                    return null;
                });
            }
        }
    }
}
