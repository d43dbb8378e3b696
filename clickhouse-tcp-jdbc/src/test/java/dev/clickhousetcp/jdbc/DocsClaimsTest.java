package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What docs/jdbc.md says, checked one claim at a time. */
@ClickHouseTest
class DocsClaimsTest {

    @Test
    void cursorMovesScrollRequestsAndBigNumbers() throws SQLException {
        try (Connection c = JdbcTests.connect("modern")) {
            c.clearWarnings();
            try (Statement s = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_UPDATABLE)) {
                assertThat((Object) c.getWarnings()).isNotNull();
                assertThat(s.getResultSetType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
                try (ResultSet rs = s.executeQuery("SELECT toUInt64(18446744073709551615), toInt128(5)")) {
                    rs.next();
                    for (var move : Arrays.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>asList(
                            rs::previous, rs::first, rs::last, () -> rs.absolute(1), () -> rs.relative(1), rs::beforeFirst,
                            rs::afterLast)) {
                        assertThatThrownBy(move).isInstanceOf(SQLException.class)
                                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("24000"));
                    }
                    assertThatThrownBy(() -> rs.getLong(1)).isInstanceOf(SQLException.class)
                            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));
                    assertThat(rs.getLong(2)).isEqualTo(5L);
                    assertThat(rs.unwrap(QueryResult.class)).isNotNull();
                }
            }
        }
    }

    @Test
    void isValidWhileStreamingAnswersWithoutTouchingTheStream() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT number FROM numbers(300000) SETTINGS max_block_size = 1000")) {
            long sum = 0;
            long n = 0;
            while (rs.next()) {
                if (n % 50000 == 0) {
                    assertThat(c.isValid(1)).isTrue();
                }
                sum += rs.getLong(1);
                n++;
            }
            assertThat(n).isEqualTo(300000);
            assertThat(sum).isEqualTo(300000L * 299999 / 2);
            assertThat(c.isValid(1)).isTrue();
        }
    }

    @Test
    void timeColumnsAreLocalTimeWithinADayElseDuration() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT toTime('12:34:56'), toTime64('25:00:00.5', 1)"
                     + " SETTINGS enable_time_time64_type = 1")) {
            rs.next();
            assertThat(rs.getObject(1)).isEqualTo(LocalTime.of(12, 34, 56));
            assertThat(rs.getObject(2)).isEqualTo(Duration.ofHours(25).plusMillis(500));
            assertThat(rs.getString(1)).isEqualTo("12:34:56");
        }
    }

    @Test
    void cancelCarriesTheServerCode() throws Exception {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT number FROM system.numbers SETTINGS max_block_size = 100")) {
                rs.next();
                s.cancel();
                assertThatThrownBy(() -> {
                    while (rs.next()) {
                        // read to the cancellation
                    }
                }).isInstanceOf(SQLException.class).satisfies(e -> {
                    assertThat(((SQLException) e).getSQLState()).isEqualTo("HY008");
                    assertThat(((SQLException) e).getErrorCode()).isEqualTo(394);
                });
            }
            try (ResultSet rs = s.executeQuery("SELECT 3")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(3);
            }
        }
    }

    @Test
    void propertyInfoListsEveryPropertyWithChoices() throws SQLException {
        Driver d = DriverManager.getDriver("jdbc:clickhouse:tcp://localhost:9000/default");
        assertThat(d).isInstanceOf(ClickHouseDriver.class);
        DriverPropertyInfo[] info = d.getPropertyInfo("jdbc:clickhouse:tcp://localhost:9000/default", new Properties());
        assertThat(Arrays.stream(info).map(i -> i.name)).contains("user", "password", "compression", "transactionMode",
                "databaseTerm", "parameterMode", "multiStatement", "insertBlockRows", "busyBufferBytes", "maxPoolSize");
        for (DriverPropertyInfo i : info) {
            assertThat(i.description).as(i.name).isNotBlank();
            if (i.name.equals("transactionMode")) {
                assertThat(i.choices).containsExactlyInAnyOrder("emulate", "strict");
            }
        }
        assertThat(d.acceptsURL("jdbc:clickhouse://localhost:8123")).isFalse();
        assertThat(d.connect("jdbc:ch:https://localhost:8443", new Properties())).isNull();
    }
}
