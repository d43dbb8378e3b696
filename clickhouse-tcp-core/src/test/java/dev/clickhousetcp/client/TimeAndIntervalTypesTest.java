package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.IntervalColumn;
import dev.clickhousetcp.data.TimeColumn;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalTime;
import java.time.Period;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Time, Time64(p) (26.7) and the Interval families (both servers where they exist). */
@ClickHouseTest
class TimeAndIntervalTypesTest {

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void valuesPrintLikeTheServer(ClickHouseServer.Kind kind) {
        List<String> exprs = new ArrayList<>(List.of("toIntervalWeek(2)", "toIntervalMinute(-3)", "toIntervalSecond(0)",
                "INTERVAL 5 DAY", "toIntervalYear(9223372036854775807)", "toIntervalMonth(-9223372036854775808)",
                "toIntervalHour(1)"));
        if (kind == ClickHouseServer.Kind.MODERN) {
            exprs.addAll(List.of("toIntervalQuarter(-2)", "toIntervalNanosecond(-7)", "toIntervalMicrosecond(1)", "toIntervalMillisecond(1000)",
                    "[INTERVAL 5 DAY, INTERVAL -1 DAY]", "tuple(INTERVAL 1 SECOND)",
                    "toTime('12:34:56')", "toTime('00:00:00')", "toTime('23:59:59')", "CAST(-3600 AS Time)",
                    "CAST(100000 AS Time)", "CAST(-1 AS Time)", "CAST(3599999 AS Time)", "CAST(3600000 AS Time)",
                    "CAST(-3600000 AS Time)", "CAST(2147483647 AS Time)", "CAST(-2147483648 AS Time)",
                    "toTime64('12:34:56.789', 3)", "toTime64(-1.5, 3)", "toTime64('-00:00:00.5', 1)",
                    "toTime64(0, 9)", "toTime64('12:00:00', 6)", "CAST(5 AS Time64(0))", "CAST(-5 AS Time64(0))",
                    "CAST(toDecimal64(3599999.999, 3) AS Time64(3))", "CAST(toDecimal64(3600000, 3) AS Time64(3))",
                    "CAST(toDecimal64(-3600000.5, 3) AS Time64(3))", "CAST(toDecimal64(-0.001, 3) AS Time64(3))",
                    "CAST(toDecimal64(86400.25, 2) AS Time64(2))", "toTime64('999:59:59.999999999', 9)",
                    "toTime64('-999:59:59.999999999', 9)",
                    "CAST(NULL AS Nullable(Time))", "CAST(7 AS Nullable(Time64(3)))", "[toTime('12:00:00'), toTime('01:02:03')]",
                    "tuple(toTime64('1:00:00.5', 1), 'x')", "map(toTime('01:00:00'), toTime64('02:00:00', 2))"));
        }
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.get(kind))) {
            assertThat(ServerTypeChecks.printMismatches(client, exprs)).isEmpty();
            if (kind == ClickHouseServer.Kind.MODERN) {
                assertThat(ServerTypeChecks.manyRowsMismatches(client, List.of(
                        "CAST(toInt32(number * 3601) - 30000000 AS Time)",
                        "CAST(toDecimal64(number * 1234567, 4) / 100 - 20000000 AS Time64(4))",
                        "toIntervalDay(number - 10000)"), 20000)).isEmpty();
            }
        }
    }

    @Test
    void javaObjects() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            try (QueryResult r = client.query("SELECT toTime('12:34:56'), CAST(-3600 AS Time), CAST(100000 AS Time), "
                    + "toTime64('01:02:03.456', 3), toTime64(-1.5, 3), INTERVAL 5 DAY, toIntervalMillisecond(1500), "
                    + "toIntervalQuarter(3), toIntervalWeek(2), toIntervalNanosecond(-1)")) {
                Block b = r.next();
                TimeColumn t = (TimeColumn) b.column(0);
                assertThat(t.getLocalTime(0)).isEqualTo(LocalTime.of(12, 34, 56));
                assertThat(t.getObject(0)).isEqualTo(Duration.ofSeconds(45296));
                assertThat(t.getLong(0)).isEqualTo(45296L);
                TimeColumn neg = (TimeColumn) b.column(1);
                assertThat(neg.getDuration(0)).isEqualTo(Duration.ofHours(-1));
                assertThatThrownBy(() -> neg.getLocalTime(0)).isInstanceOf(DateTimeException.class);
                assertThatThrownBy(() -> ((TimeColumn) b.column(2)).getLocalTime(0)).isInstanceOf(DateTimeException.class);
                assertThat(b.column(2).getObject(0)).isEqualTo(Duration.ofSeconds(100000));
                TimeColumn t64 = (TimeColumn) b.column(3);
                assertThat(t64.scale()).isEqualTo(3);
                assertThat(t64.getLong(0)).isEqualTo(3723456L);
                assertThat(t64.getLocalTime(0)).isEqualTo(LocalTime.of(1, 2, 3, 456_000_000));
                assertThat(t64.getDouble(0)).isEqualTo(3723.456);
                assertThat(b.column(4).getObject(0)).isEqualTo(Duration.ofMillis(-1500));
                IntervalColumn day = (IntervalColumn) b.column(5);
                assertThat(day.getObject(0)).isEqualTo(5L);
                assertThat(day.getPeriod(0)).isEqualTo(Period.ofDays(5));
                assertThat(day.getDuration(0)).isEqualTo(Duration.ofDays(5));
                assertThat(((IntervalColumn) b.column(6)).getDuration(0)).isEqualTo(Duration.ofMillis(1500));
                assertThatThrownBy(() -> ((IntervalColumn) b.column(6)).getPeriod(0))
                        .isInstanceOf(UnsupportedOperationException.class);
                IntervalColumn q = (IntervalColumn) b.column(7);
                assertThat(q.getPeriod(0)).isEqualTo(Period.ofMonths(9));
                assertThatThrownBy(() -> q.getDuration(0)).isInstanceOf(UnsupportedOperationException.class);
                assertThat(((IntervalColumn) b.column(8)).getPeriod(0)).isEqualTo(Period.ofDays(14));
                assertThat(((IntervalColumn) b.column(9)).getDuration(0)).isEqualTo(Duration.ofNanos(-1));
            }
        }
    }

    @Test
    void insertRoundTrips() {
        ClickHouseServer server = ClickHouseServers.modern();
        Map<String, List<String>> types = new LinkedHashMap<>();
        types.put("Time", List.of("'12:34:56'", "-3600", "100000", "3600000", "-2147483648", "0"));
        types.put("Time64(3)", List.of("'12:34:56.789'", "-1.5", "'-00:00:00.001'", "toDecimal64(3600000.5, 3)"));
        types.put("Time64(9)", List.of("'999:59:59.999999999'", "'-00:00:00.000000001'"));
        types.put("Time64(0)", List.of("5", "-5"));
        types.put("Nullable(Time)", List.of("NULL", "'01:00:00'"));
        types.put("Array(Time64(2))", List.of("['01:00:00.25', '-02:00:00']", "[]"));
        types.put("IntervalDay", List.of("5", "-1", "0"));
        types.put("IntervalNanosecond", List.of("-9223372036854775808", "9223372036854775807"));
        types.put("IntervalQuarter", List.of("3"));
        types.put("Array(IntervalMonth)", List.of("[1, -2]"));
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            assertThat(ServerTypeChecks.roundTripMismatches(client, server, types)).isEmpty();
        }
    }

    @Test
    void javaValuesAndColumnarInsert() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("time");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt32, a Time, b Time64(3), c IntervalDay, d IntervalMillisecond, "
                    + "e IntervalYear) ENGINE = Memory");
            try {
                client.insert(t, List.of(), List.of(
                        new Object[] {0, LocalTime.of(23, 59, 59), Duration.ofMillis(-1500), Period.ofWeeks(2),
                            Duration.ofSeconds(3), Period.ofYears(3)},
                        new Object[] {1, Duration.ofHours(-30), LocalTime.of(1, 2, 3, 456_789_000), 7L, 250, "-4"},
                        new Object[] {2, "-100:00:01", "12:00:00.5", Duration.ofDays(3), "1", Period.ofMonths(24)},
                        new Object[] {3, 59, Duration.ofNanos(-1_999_999), -1, Duration.ofNanos(1_000_000), 0}));
                assertThat(server.httpQuery("SELECT id, a, b, c, d, e FROM " + t + " ORDER BY id FORMAT TSV")).isEqualTo(
                        "0\t23:59:59\t-00:00:01.500\t14\t3000\t3\n"
                                + "1\t-30:00:00\t01:02:03.456\t7\t250\t-4\n"
                                + "2\t-100:00:01\t12:00:00.500\t3\t1\t2\n"
                                + "3\t00:00:59\t-00:00:00.001\t-1\t1\t0\n");
                int n = 4000;
                int[] ids = new int[n];
                int[] secs = new int[n];
                long[] ticks = new long[n];
                long[] days = new long[n];
                List<Duration> millis = new ArrayList<>();
                long[] years = new long[n];
                for (int i = 0; i < n; i++) {
                    ids[i] = 10 + i;
                    secs[i] = i * 37 - 20000;
                    ticks[i] = i * 123_457L - 1_000_000L;
                    days[i] = i - 2000;
                    millis.add(Duration.ofMillis(i * 3L));
                    years[i] = i % 7;
                }
                Map<String, Object> cols = new LinkedHashMap<>();
                cols.put("id", ids);
                cols.put("a", secs);
                cols.put("b", ticks);
                cols.put("c", days);
                cols.put("d", millis);
                cols.put("e", years);
                assertThat(client.insertColumns(t, cols)).isEqualTo(n);
                long sumSecs = 0;
                long sumTicks = 0;
                long sumDays = 0;
                long sumMillis = 0;
                long sumYears = 0;
                for (int i = 0; i < n; i++) {
                    sumSecs += secs[i];
                    sumTicks += ticks[i];
                    sumDays += days[i];
                    sumMillis += i * 3L;
                    sumYears += years[i];
                }
                assertThat(server.httpQuery("SELECT count(), sum(toInt32(a)), sum(toDecimal64(b, 3) * 1000), "
                        + "sum(toInt64(c)), sum(toInt64(d)), sum(toInt64(e)) FROM " + t + " WHERE id >= 10").trim())
                        .isEqualTo(n + "\t" + sumSecs + "\t" + sumTicks + "\t" + sumDays + "\t" + sumMillis + "\t" + sumYears);
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(
                        new Object[] {5, 3_000_000_000L, 0, 0, 0, 0}))).isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("Time");
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(
                        new Object[] {5, "12:60:00", 0, 0, 0, 0}))).isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("H:MM:SS");
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(
                        new Object[] {5, 0, 0, Duration.ofHours(36), 0, 0}))).isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("whole number");
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(
                        new Object[] {5, 0, 0, 0, Period.ofDays(1), 0}))).isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("Period");
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(
                        new Object[] {5, 0, 0, 0, 0, Period.ofMonths(13)}))).isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("whole number");
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo(Integer.toString(n + 4));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }
}
