package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code getObject} and the typed getters per JDBC.md's type table; metadata from the native header. */
@ClickHouseTest
class ResultSetTypesTest {

    private static ResultSet one(Statement s, String sql) throws SQLException {
        ResultSet rs = s.executeQuery(sql);
        assertThat(rs.next()).isTrue();
        return rs;
    }

    @Test
    void numbersAndStrings() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement();
             ResultSet rs = one(s, "SELECT toInt8(-8), toUInt8(200), toInt16(-16), toUInt16(60000), toInt32(-32), "
                     + "toUInt32(4000000000), toInt64(-64), toUInt64('18446744073709551615'), toFloat32(1.5), "
                     + "toFloat64(2.25), toDecimal64('12.3456', 4), true, 'héllo', toFixedString('ab', 3), "
                     + "CAST('b' AS Enum8('a' = 1, 'b' = 2)), toInt128('-170141183460469231731687303715884105728')")) {
            assertThat(rs.getObject(1)).isEqualTo((byte) -8);
            assertThat(rs.getObject(2)).isEqualTo((short) 200);
            assertThat(rs.getObject(3)).isEqualTo((short) -16);
            assertThat(rs.getObject(4)).isEqualTo(60000);
            assertThat(rs.getObject(5)).isEqualTo(-32);
            assertThat(rs.getObject(6)).isEqualTo(4_000_000_000L);
            assertThat(rs.getObject(7)).isEqualTo(-64L);
            assertThat(rs.getObject(8)).isEqualTo(new BigInteger("18446744073709551615"));
            assertThatThrownBy(() -> rs.getLong(8)).isInstanceOf(SQLDataException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));
            assertThat(rs.getObject(9)).isEqualTo(1.5f);
            assertThat(rs.getObject(10)).isEqualTo(2.25);
            assertThat(rs.getObject(11)).isEqualTo(new BigDecimal("12.3456"));
            assertThat(rs.getDouble(11)).isEqualTo(12.3456);
            assertThat(rs.getObject(12)).isEqualTo(true);
            assertThat(rs.getInt(12)).isEqualTo(1);
            assertThat(rs.getObject(13)).isEqualTo("héllo");
            assertThat(rs.getBytes(13)).isEqualTo("héllo".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(rs.getBytes(14)).containsExactly('a', 'b', 0);
            assertThat(rs.getObject(15)).isEqualTo("b");
            assertThat(rs.getInt(2)).isEqualTo(200);
            assertThat(rs.getObject(16)).isEqualTo(new BigInteger("-170141183460469231731687303715884105728"));
            assertThat(rs.getString(16)).isEqualTo("-170141183460469231731687303715884105728");
            assertThat(rs.getObject(6, Long.class)).isEqualTo(4_000_000_000L);
            assertThat(rs.getObject(8, BigInteger.class)).isEqualTo(new BigInteger("18446744073709551615"));
            assertThat(rs.getObject(2, String.class)).isEqualTo("200");
            ResultSetMetaData md = rs.getMetaData();
            assertThat(md.getColumnType(8)).isEqualTo(Types.NUMERIC);
            assertThat(md.getColumnTypeName(11)).isEqualTo("Decimal(18, 4)");
            assertThat(md.getScale(11)).isEqualTo(4);
            assertThat(md.getPrecision(11)).isEqualTo(18);
            assertThat(md.getColumnClassName(8)).isEqualTo(BigInteger.class.getName());
            assertThat(md.isSigned(2)).isFalse();
            assertThat(md.isSigned(1)).isTrue();
        }
    }

    @Test
    void datesAndTimesAreExactWhateverTheJvmZone() throws SQLException {
        TimeZone saved = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"));
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement();
             ResultSet rs = one(s, "SELECT toDate('2024-02-29'), toDateTime('2024-03-10 02:30:00', 'Europe/Berlin'), "
                     + "toDateTime64('2024-01-01 00:00:00.123456', 6, 'UTC'), toDate32('1900-01-01'), "
                     + "toDateTime(1700000000, 'Asia/Tokyo')")) {
            assertThat(rs.getObject(1)).isEqualTo(java.sql.Date.valueOf("2024-02-29"));
            assertThat(rs.getObject(1, LocalDate.class)).isEqualTo(LocalDate.of(2024, 2, 29));
            Instant berlin = LocalDateTime.parse("2024-03-10T02:30:00").atZone(java.time.ZoneId.of("Europe/Berlin"))
                    .toInstant();
            assertThat(rs.getObject(2)).isInstanceOf(Timestamp.class);
            assertThat(((Timestamp) rs.getObject(2)).toInstant()).isEqualTo(berlin);
            assertThat(rs.getTimestamp(2).getTime()).isEqualTo(berlin.toEpochMilli());
            assertThat(rs.getObject(2, Instant.class)).isEqualTo(berlin);
            assertThat(rs.getObject(2, LocalDateTime.class)).isEqualTo(LocalDateTime.parse("2024-03-10T02:30:00"));
            assertThat(rs.getObject(3, Instant.class)).isEqualTo(Instant.parse("2024-01-01T00:00:00.123456Z"));
            assertThat(rs.getObject(3, OffsetDateTime.class))
                    .isEqualTo(OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 123_456_000, ZoneOffset.UTC));
            assertThat(rs.getString(3)).isEqualTo("2024-01-01 00:00:00.123456");
            assertThat(rs.getObject(4, LocalDate.class)).isEqualTo(LocalDate.of(1900, 1, 1));
            assertThat(rs.getObject(5, Instant.class)).isEqualTo(Instant.ofEpochSecond(1_700_000_000));
            assertThat(rs.getString(5)).isEqualTo("2023-11-15 07:13:20");
            ResultSetMetaData md = rs.getMetaData();
            assertThat(md.getColumnType(2)).isEqualTo(Types.TIMESTAMP);
            assertThat(md.getColumnTypeName(2)).isEqualTo("DateTime('Europe/Berlin')");
            assertThat(md.getColumnType(1)).isEqualTo(Types.DATE);
        } finally {
            TimeZone.setDefault(saved);
        }
    }

    @Test
    void compositesAndOthers() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement();
             ResultSet rs = one(s, "SELECT [1, 2, 3]::Array(UInt32), [[1], [2, NULL]]::Array(Array(Nullable(Int8))), "
                     + "map('a', 1, 'b', 2), tuple(1, 'x')::Tuple(a UInt8, b String), "
                     + "toUUID('01234567-89ab-cdef-0123-456789abcdef'), toIPv4('10.0.0.1'), toIPv6('::1'), "
                     + "CAST(NULL AS Nullable(String)), toLowCardinality(toNullable('lc')), [toDate('2024-01-01')]")) {
            Array a = rs.getArray(1);
            assertThat(a.getBaseTypeName()).isEqualTo("UInt32");
            assertThat((Object[]) a.getArray()).containsExactly(1L, 2L, 3L);
            assertThat(rs.getObject(1, long[].class)).containsExactly(1, 2, 3);
            assertThat(rs.getObject(1, List.class)).containsExactly(1L, 2L, 3L);
            Object[] nested = (Object[]) rs.getArray(2).getArray();
            assertThat(nested).hasSize(2);
            assertThat((Object[]) ((Array) nested[1]).getArray()).containsExactly((byte) 2, null);
            assertThat(rs.getObject(3)).isEqualTo(Map.of("a", (short) 1, "b", (short) 2));
            Struct t = (Struct) rs.getObject(4);
            assertThat(t.getAttributes()).containsExactly((short) 1, "x");
            assertThat(t.getSQLTypeName()).isEqualTo("Tuple(a UInt8, b String)");
            assertThat(rs.getObject(5)).isEqualTo(UUID.fromString("01234567-89ab-cdef-0123-456789abcdef"));
            assertThat(rs.getObject(6)).isInstanceOf(java.net.Inet4Address.class);
            assertThat(rs.getObject(6, InetAddress.class).getHostAddress()).isEqualTo("10.0.0.1");
            assertThat(rs.getObject(7)).isInstanceOf(java.net.Inet6Address.class);
            assertThat(rs.getObject(8)).isNull();
            assertThat(rs.wasNull()).isTrue();
            assertThat(rs.getInt(8)).isZero();
            assertThat(rs.wasNull()).isTrue();
            assertThat(rs.getString(9)).isEqualTo("lc");
            assertThat(rs.wasNull()).isFalse();
            assertThat((Object[]) rs.getArray(10).getArray()).containsExactly(java.sql.Date.valueOf("2024-01-01"));
            ResultSetMetaData md = rs.getMetaData();
            assertThat(md.getColumnTypeName(9)).isEqualTo("LowCardinality(Nullable(String))");
            assertThat(md.isNullable(9)).isEqualTo(ResultSetMetaData.columnNullable);
            assertThat(md.isNullable(1)).isEqualTo(ResultSetMetaData.columnNoNulls);
            assertThat(md.getColumnType(1)).isEqualTo(Types.ARRAY);
            assertThat(md.getColumnType(4)).isEqualTo(Types.STRUCT);
            assertThat(md.getColumnType(5)).isEqualTo(Types.OTHER);
            assertThat(md.getTableName(1)).isEmpty();
        }
    }

    @Test
    void labelsAndCursorRules() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT 1 AS a, 2 AS A, 3 AS b")) {
            assertThatThrownBy(() -> rs.getInt(1)).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("24000"));
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("a")).isEqualTo(1);
            assertThat(rs.getInt("A")).isEqualTo(2);
            assertThat(rs.getInt("B")).isEqualTo(3);
            assertThatThrownBy(rs::previous).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("24000"));
            assertThatThrownBy(() -> rs.updateInt(1, 1)).isInstanceOf(java.sql.SQLFeatureNotSupportedException.class);
            assertThat(rs.next()).isFalse();
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void legacyServerTypes() throws SQLException {
        try (Connection c = JdbcTests.connect("legacy"); Statement s = c.createStatement();
             ResultSet rs = one(s, "SELECT toUInt64(18446744073709551615), toDateTime(1500000000, 'UTC'), "
                     + "[1, 2], toNullable(toString('x')), toDecimal32('1.5', 2)")) {
            assertThat(rs.getObject(1)).isEqualTo(new BigInteger("18446744073709551615"));
            assertThat(rs.getObject(2, Instant.class)).isEqualTo(Instant.ofEpochSecond(1_500_000_000));
            assertThat((Object[]) rs.getArray(3).getArray()).containsExactly((short) 1, (short) 2);
            assertThat(rs.getString(4)).isEqualTo("x");
            assertThat(rs.getBigDecimal(5)).isEqualTo(new BigDecimal("1.50"));
        }
    }
}
