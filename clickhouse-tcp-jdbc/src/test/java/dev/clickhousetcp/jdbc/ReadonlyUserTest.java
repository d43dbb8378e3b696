package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A {@code readonly = 1} user (no setting may be changed) can use everything that reads. */
@ClickHouseTest
class ReadonlyUserTest {

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void readsWorkForAReadonlyUser(String kind) throws SQLException {
        Properties info = new Properties();
        info.setProperty("user", ClickHouseServer.READONLY_USER);
        try (Connection c = JdbcTests.connect(kind, info); Statement s = c.createStatement()) {
            assertThat(c.isValid(5)).isTrue();
            s.setMaxRows(10);
            s.setQueryTimeout(30);
            s.setFetchSize(100);
            int rows = 0;
            try (ResultSet rs = s.executeQuery("SELECT number FROM system.numbers LIMIT 1000")) {
                while (rs.next()) {
                    rows++;
                }
            }
            assertThat(rows).isEqualTo(10);
            try (PreparedStatement ps = c.prepareStatement("SELECT number FROM system.numbers LIMIT ?")) {
                ps.setInt(1, 1000);
                ps.setQueryTimeout(30);
                ps.setMaxRows(5);
                int limited = 0;
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        limited++;
                    }
                }
                assertThat(limited).isEqualTo(5);
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT ? IS NULL, ?")) {
                ps.setNull(1, Types.NULL);
                ps.setString(2, "x");
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertThat(rs.getBoolean(1)).isTrue();
                    assertThat(rs.getString(2)).isEqualTo("x");
                }
            }
            assertThatThrownBy(() -> s.execute("CREATE TABLE ro_jdbc_never (x UInt8) ENGINE = Memory"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(164))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25006"));
            assertThat(c.isValid(5)).isTrue();
        }
    }
}
