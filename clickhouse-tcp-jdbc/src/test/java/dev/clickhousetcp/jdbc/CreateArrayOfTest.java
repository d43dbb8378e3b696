package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code Connection.createArrayOf} with the names Spring Data JDBC passes: {@code JDBCType.getName()} of the type
 * {@code JdbcUtil.targetSqlTypeFor} picks for the element class (spring-data-jdbc {@code DefaultJdbcTypeFactory}),
 * or {@code UNKNOWN} for a class it has no JDBC type for (UUID, enums). The array binds as a query parameter and
 * names a ClickHouse element type ({@code getBaseTypeName}); for {@code UNKNOWN} the one ClickHouse's
 * {@code toTypeName} gives the bound elements.
 */
@ClickHouseTest
class CreateArrayOfTest {

    static Stream<Arguments> springDataNames() {
        UUID u = UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
        return Stream.of(
                Arguments.of("VARCHAR", new Object[]{"a", "b'c"}),
                Arguments.of("BIGINT", new Object[]{1L, Long.MAX_VALUE}),
                Arguments.of("INTEGER", new Object[]{1, 2}),
                Arguments.of("SMALLINT", new Object[]{(short) 1}),
                Arguments.of("TINYINT", new Object[]{(byte) 1}),
                Arguments.of("DOUBLE", new Object[]{1.5d}),
                Arguments.of("REAL", new Object[]{1.5f}),
                Arguments.of("BIT", new Object[]{true, false}),
                Arguments.of("DECIMAL", new Object[]{new BigDecimal("1.25")}),
                Arguments.of("DATE", new Object[]{java.sql.Date.valueOf(LocalDate.of(2026, 1, 2))}),
                Arguments.of("TIMESTAMP", new Object[]{Timestamp.from(Instant.parse("2026-01-02T03:04:05.123Z"))}),
                Arguments.of("TIMESTAMP_WITH_TIMEZONE",
                        new Object[]{Timestamp.from(Instant.parse("2026-01-02T03:04:05.123Z"))}),
                Arguments.of("VARBINARY", new Object[]{"bytes"}),
                Arguments.of("UNKNOWN", new Object[]{u}),
                Arguments.of("UNKNOWN", new Object[]{"x", null}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("springDataNames")
    void bindsAndNamesAClickHouseElementType(String name, Object[] elements) throws SQLException {
        try (Connection c = JdbcTests.connect("modern");
             PreparedStatement ps = c.prepareStatement("SELECT toTypeName(?), length(?)")) {
            Array array = c.createArrayOf(name, elements);
            ps.setArray(1, array);
            ps.setArray(2, array);
            String bound;
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                bound = rs.getString(1);
                assertThat(rs.getInt(2)).isEqualTo(elements.length);
            }
            String base = array.getBaseTypeName();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT toTypeName(CAST([] AS Array(" + base + ")))")) {
                rs.next();
                assertThat(rs.getString(1)).as("%s names a ClickHouse type", name).isEqualTo("Array(" + base + ")");
            }
            if (name.equals("UNKNOWN")) {
                assertThat("Array(" + base + ")").as("taken from the elements").isEqualTo(bound);
            }
            assertThat(array.getBaseType()).isEqualTo(JdbcTypes.sqlType(base));
        }
    }

    @Test
    void aNullTypeNameIsAClearError() throws SQLException {
        try (Connection c = JdbcTests.connect("modern")) {
            assertThatThrownBy(() -> c.createArrayOf(null, new Object[]{1}))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
        }
    }
}
