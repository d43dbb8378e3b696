package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Calendar;
import java.util.TimeZone;

import static org.assertj.core.api.Assertions.assertThat;

/** A timeout that passes while rows are read, and date-time values under a JVM zone of its own. */
@ClickHouseTest
class TimeoutAndZoneTest {

    @Test
    void aTimeoutWhileReadingRowsEndsTheResultWithHyt00() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            long rows = 0;
            try (ResultSet rs = s.executeQuery("SELECT number, sleepEachRow(0.05) FROM numbers(100)"
                    + " SETTINGS max_block_size = 1, function_sleep_max_microseconds_per_block = 0")) {
                SQLException e = null;
                try {
                    while (rs.next()) {
                        rows++;
                    }
                } catch (SQLException ex) {
                    e = ex;
                }
                assertThat((Object) e).isInstanceOf(SQLTimeoutException.class);
                assertThat(e.getSQLState()).isEqualTo("HYT00");
            }
            assertThat(rows).isLessThan(100);
            s.setQueryTimeout(0);
            try (ResultSet rs = s.executeQuery("SELECT 1")) {
                assertThat(rs.next()).isTrue();
            }
        }
    }

    @Test
    void timestampsAndDatesDoNotMoveWithTheJvmZone() throws SQLException {
        TimeZone saved = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Kiritimati")); // UTC+14
        try (Connection c = JdbcTests.connect("modern")) {
            Instant at = Instant.parse("2024-01-01T00:30:00Z");
            try (PreparedStatement ps = c.prepareStatement("SELECT toDateTime64(?, 3, 'UTC') AS t, toString(t),"
                    + " toDate('2024-01-01') AS d, toString(toDateTime64(?, 3, 'UTC')), toString(?)")) {
                ps.setTimestamp(1, Timestamp.from(at));
                ps.setObject(2, at);
                ps.setObject(3, LocalDate.of(2024, 1, 1));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertThat(rs.getTimestamp(1).toInstant()).isEqualTo(at);
                    assertThat(rs.getString(2)).isEqualTo("2024-01-01 00:30:00.000");
                    assertThat(rs.getObject(1, LocalDateTime.class)).isEqualTo(LocalDateTime.parse("2024-01-01T00:30"));
                    assertThat(rs.getDate(3).toLocalDate()).isEqualTo(LocalDate.of(2024, 1, 1));
                    Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
                    assertThat(rs.getDate(3, utc).getTime()).isEqualTo(Instant.parse("2024-01-01T00:00:00Z").toEpochMilli());
                    assertThat(rs.getTimestamp(1, utc).toInstant()).isEqualTo(at);
                    assertThat(rs.getString(4)).isEqualTo("2024-01-01 00:30:00.000");
                    assertThat(rs.getString(5)).isEqualTo("2024-01-01");
                }
            }
        } finally {
            TimeZone.setDefault(saved);
        }
    }
}
