package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What row mappers ask a ResultSet per row: {@code getObject(i, Class)} of the java.time and java.sql date-time
 * classes from DateTime and DateTime64 columns (read from the column without its boxed value), checked against
 * what the server itself says of each value (epoch nanoseconds, its text, its zone), {@code BigInteger} of the
 * integer families against the server's own digits, and {@code findColumn} asked
 * again and again with the same label.
 */
@ClickHouseTest
class RowMapperPathTest {

    /** Date-times around DST changes, before 1970, with and without fractions, in zones with and without DST. */
    private static final String[] VALUES = {"1969-12-31 23:59:59.5", "2021-03-28 01:30:00.125", "2021-10-31 01:30:00",
        "2024-02-29 12:00:00.999999", "1970-01-01 00:00:00", "2100-01-01 00:00:01.1"};
    private static final String[] TYPES = {"DateTime('UTC')", "DateTime('Europe/London')", "DateTime('Asia/Kolkata')",
        "DateTime64(3, 'America/New_York')", "DateTime64(6, 'Europe/London')", "Nullable(DateTime64(9, 'Asia/Tokyo'))",
        "Nullable(DateTime('Australia/Lord_Howe'))"};

    @Test
    void dateTimeClassesAreWhatTheServerSaysOfEachValue() throws SQLException {
        int checked = 0;
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            for (String type : TYPES) {
                for (String value : VALUES) {
                    String v = "CAST(parseDateTime64BestEffort('" + value + "', 9, 'UTC') AS " + type + ")";
                    try (ResultSet rs = s.executeQuery("SELECT " + v + ", toString(toUnixTimestamp64Nano(toDateTime64("
                            + v + ", 9))), toString(" + v + "), timezoneOf(" + v + ")")) {
                        assertThat(rs.next()).isTrue();
                        long nanos = Long.parseLong(rs.getString(2));
                        Instant instant = Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L),
                                Math.floorMod(nanos, 1_000_000_000L));
                        LocalDateTime wall = LocalDateTime.parse(rs.getString(3).replace(' ', 'T'));
                        ZonedDateTime zoned = instant.atZone(ZoneId.of(rs.getString(4)));
                        String at = type + " " + value;
                        assertThat(rs.getObject(1, Instant.class)).as(at).isEqualTo(instant);
                        assertThat(rs.getObject(1, ZonedDateTime.class)).as(at).isEqualTo(zoned);
                        assertThat(rs.getObject(1, OffsetDateTime.class)).as(at).isEqualTo(zoned.toOffsetDateTime());
                        assertThat(rs.getObject(1, LocalDateTime.class)).as(at).isEqualTo(wall);
                        assertThat(rs.getObject(1, LocalDate.class)).as(at).isEqualTo(wall.toLocalDate());
                        assertThat(rs.getObject(1, LocalTime.class)).as(at).isEqualTo(wall.toLocalTime());
                        assertThat(rs.getObject(1, Timestamp.class)).as(at).isEqualTo(Timestamp.from(instant));
                        assertThat(rs.getObject(1, java.util.Date.class)).as(at).isEqualTo(Timestamp.from(instant));
                        assertThat(rs.getObject(1, Date.class)).as(at).isEqualTo(Date.valueOf(wall.toLocalDate()));
                        assertThat(rs.getObject(1, Time.class)).as(at).isEqualTo(Time.valueOf(wall.toLocalTime()));
                        // the typed getters that go through getObject(i, Class) agree
                        assertThat(rs.getTimestamp(1)).as(at).isEqualTo(Timestamp.from(instant));
                        assertThat(rs.getDate(1)).as(at).isEqualTo(Date.valueOf(wall.toLocalDate()));
                        checked++;
                    }
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT CAST(NULL AS Nullable(DateTime64(3, 'UTC')))")) {
                assertThat(rs.next()).isTrue();
                for (Class<?> type : new Class<?>[] {Instant.class, LocalDateTime.class, LocalDate.class,
                    OffsetDateTime.class, ZonedDateTime.class, Timestamp.class, Date.class, LocalTime.class}) {
                    assertThat(rs.getObject(1, type)).as(type.getName()).isNull();
                    assertThat(rs.wasNull()).isTrue();
                }
            }
        }
        assertThat(checked).isEqualTo(TYPES.length * VALUES.length);
    }

    @Test
    void bigIntegerOfEveryIntegerFamilyIsTheServersNumber() throws SQLException {
        String[] values = {"toInt8(-128)", "toUInt8(255)", "toInt16(-32768)", "toUInt16(65535)", "toInt32(-2147483648)",
            "toUInt32(4294967295)", "toInt64(-9223372036854775808)", "toUInt64('18446744073709551615')",
            "toInt128('-170141183460469231731687303715884105728')", "toUInt256('12345678901234567890123')",
            "toDecimal64('-42.000', 3)", "CAST(7 AS Nullable(Int64))", "toString(-99)"};
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            for (String v : values) {
                try (ResultSet rs = s.executeQuery("SELECT " + v + ", toString(toDecimal256(" + v + ", 0))")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getObject(1, java.math.BigInteger.class)).as(v)
                            .isEqualTo(new java.math.BigInteger(rs.getString(2)));
                }
            }
            // a fraction is no integer: a data exception (22003), whatever the column family
            try (ResultSet rs = s.executeQuery("SELECT CAST(NULL AS Nullable(Int32)), toDecimal64('1.5', 1), "
                    + "toDecimal128('-2.25', 2), toFloat64(0.5), '3.75'")) {
                assertThat(rs.next()).isTrue();
                for (int i = 2; i <= 5; i++) {
                    int column = i;
                    assertThatThrownBy(() -> rs.getObject(column, java.math.BigInteger.class))
                            .as("column %d", i).isInstanceOf(java.sql.SQLDataException.class)
                            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));
                }
                assertThat(rs.getObject(1, java.math.BigInteger.class)).isNull();
                assertThat(rs.wasNull()).isTrue();
            }
        }
    }

    @Test
    void findColumnAskedAgainWithTheSameLabelKeepsItsAnswer() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT number AS id, toString(number) AS Name, number * 2 AS Id, "
                     + "number AS NAME FROM numbers(3)")) {
            String id = "id";
            String lower = "name";
            int rows = 0;
            while (rs.next()) {
                // the first column with the label, exact before case-insensitive
                assertThat(rs.findColumn(id)).isEqualTo(1);
                assertThat(rs.findColumn(lower)).isEqualTo(2);
                assertThat(rs.findColumn("NAME")).isEqualTo(4);
                assertThat(rs.findColumn(new String("Name"))).isEqualTo(2);
                assertThat(rs.findColumn("ID")).isEqualTo(1);
                assertThat(rs.findColumn("Id")).isEqualTo(3);
                assertThat(rs.getLong(id)).isEqualTo(rows);
                assertThat(rs.getString(lower)).isEqualTo(String.valueOf(rows));
                assertThatThrownBy(() -> rs.findColumn("nope")).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S22"));
                assertThatThrownBy(() -> rs.findColumn(null)).isInstanceOf(SQLException.class);
                rows++;
            }
            assertThat(rows).isEqualTo(3);
            rs.close();
            assertThatThrownBy(() -> rs.findColumn(id)).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HY010"));
        }
    }
}
