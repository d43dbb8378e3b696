package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code ?} parameters: server-side typed parameters, escaped literals where the server takes none. */
@ClickHouseTest
class PreparedStatementTest {

    /** Strings that break naive escaping: quotes, backslashes, braces, placeholders, comment starts, unicode. */
    static List<String> hostile() {
        List<String> s = new ArrayList<>(List.of("'", "''", "\\", "\\'", "'\\", "a\\", "\\\\'", "x' OR '1'='1",
                "'; DROP TABLE t; --", "{p1:String}", "{", "}", "{fn now()}", "Z!F3{fn ", "{d '2024-01-01'}", "?",
                "??", "'?'", "-- comment", "/* c */", "#", "$$", "$$ ? $$", "\"", "`", "\\N", "NULL", "\n", "\r\n",
                "\t", "\0", "\b\f", "é", "日本語", "😀", "\u00a0", "\\x41", "%", "_", "\\%", "a'b\"c`d", "' || '",
                "\\\\", "'''", "\\''", "end\\", "ʼ", "‘quoted’", "\u2028", ""));
        assertThat(s).hasSize(50);
        return s;
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void hostileStringsRoundTrip(String kind) throws SQLException {
        try (Connection c = JdbcTests.connect(kind);
             PreparedStatement ps = c.prepareStatement("SELECT ?, length(?), 'lit?' /* ? */")) {
            for (String v : hostile()) {
                ps.setString(1, v);
                ps.setString(2, v);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).as("value %s", v).isEqualTo(v);
                    assertThat(rs.getLong(2)).isEqualTo(v.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
                    assertThat(rs.getString(3)).isEqualTo("lit?");
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void hostileStringsRoundTripThroughLiteralsInDdlAndTables(String kind) throws SQLException {
        String t = JdbcTests.table("jdbc_hostile");
        try (Connection c = JdbcTests.connect(kind); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (i UInt32, v String) ENGINE = Memory");
            try {
                // INSERT ... SELECT takes server parameters on 26.7 and literals on 18.16
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " SELECT ?, ?")) {
                    int i = 0;
                    for (String v : hostile()) {
                        ps.setInt(1, i++);
                        ps.setString(2, v);
                        ps.executeUpdate();
                    }
                }
                try (ResultSet rs = s.executeQuery("SELECT i, v FROM " + t + " ORDER BY i")) {
                    for (String v : hostile()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getString(2)).isEqualTo(v);
                    }
                    assertThat(rs.next()).isFalse();
                }
            } finally {
                s.execute("DROP TABLE " + t);
            }
        }
    }

    @Test
    void literalModeEscapesEverywhere() throws SQLException {
        Properties literal = new Properties();
        literal.setProperty("parameterMode", "literal");
        try (Connection c = JdbcTests.connect("modern", literal);
             PreparedStatement ps = c.prepareStatement("SELECT ?")) {
            for (String v : hostile()) {
                ps.setString(1, v);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertThat(rs.getString(1)).isEqualTo(v);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void typedParameters(String kind) throws SQLException {
        try (Connection c = JdbcTests.connect(kind);
             PreparedStatement ps = c.prepareStatement(
                     "SELECT ? + 1, ? * 2, toString(?), toString(?), ?, toString(?), toTypeName(?), ? IS NULL")) {
            ps.setInt(1, 41);
            ps.setLong(2, 1L << 40);
            ps.setBigDecimal(3, new BigDecimal("12.345"));
            ps.setObject(4, LocalDate.of(2024, 2, 29));
            ps.setDouble(5, 0.25);
            ps.setObject(6, UUID.fromString("01234567-89ab-cdef-0123-456789abcdef"));
            ps.setString(7, "x");
            ps.setNull(8, Types.INTEGER);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(42);
                assertThat(rs.getLong(2)).isEqualTo(1L << 41);
                assertThat(new BigDecimal(rs.getString(3))).isEqualByComparingTo("12.345");
                assertThat(rs.getString(4)).isEqualTo("2024-02-29");
                assertThat(rs.getDouble(5)).isEqualTo(0.25);
                assertThat(rs.getString(6)).isEqualTo("01234567-89ab-cdef-0123-456789abcdef");
                assertThat(rs.getString(7)).isEqualTo("String");
                assertThat(rs.getBoolean(8)).isTrue();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void instantsAreExactWhateverTheZones(String kind) throws SQLException {
        Instant instant = Instant.parse("2024-03-10T02:30:00Z");
        try (Connection c = JdbcTests.connect(kind);
             PreparedStatement ps = c.prepareStatement("SELECT toUnixTimestamp(toDateTime(?, 'UTC')), "
                     + "toDateTime(?, 'Asia/Tokyo')")) {
            ps.setTimestamp(1, java.sql.Timestamp.from(instant));
            ps.setObject(2, instant);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(instant.getEpochSecond());
                assertThat(rs.getTimestamp(2).toInstant()).isEqualTo(instant);
                assertThat(rs.getObject(2, LocalDateTime.class)).isEqualTo(LocalDateTime.parse("2024-03-10T11:30:00"));
            }
        }
    }

    @Test
    void arraysAndBigIntegers() throws SQLException {
        try (Connection c = JdbcTests.connect("modern");
             PreparedStatement ps = c.prepareStatement("SELECT arraySum(?), length(?), ? + 0, has(?, 'b')")) {
            ps.setObject(1, new long[]{1, 2, 3});
            ps.setArray(2, c.createArrayOf("VARCHAR", new Object[]{"a", "b"}));
            ps.setObject(3, new BigInteger("18446744073709551615"));
            ps.setObject(4, List.of("a", "b"));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(6);
                assertThat(rs.getInt(2)).isEqualTo(2);
                assertThat(rs.getObject(3)).isEqualTo(new BigInteger("18446744073709551615"));
                assertThat(rs.getBoolean(4)).isTrue();
            }
        }
    }

    @Test
    void unsetParametersAndBadIndexesAreClearErrors() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); PreparedStatement ps = c.prepareStatement("SELECT ?, ?")) {
            ps.setInt(1, 1);
            assertThatThrownBy(ps::executeQuery).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("07001"));
            assertThatThrownBy(() -> ps.setInt(3, 1)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("2 placeholders");
            assertThat(ps.getParameterMetaData().getParameterCount()).isEqualTo(2);
        }
    }

    @Test
    void aPlainStatementLeavesTheTernaryAlone() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT 1 ? 'yes' : 'no'")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("yes");
        }
    }

    @Test
    void escapesAreRewrittenButBoundValuesNever() throws SQLException {
        try (Connection c = JdbcTests.connect("modern");
             PreparedStatement ps = c.prepareStatement("SELECT {d '2024-01-02'}, {fn upper(?)}, ?")) {
            ps.setString(1, "a{fn x}");
            ps.setString(2, "Z!F3{fn ");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getObject(1, LocalDate.class)).isEqualTo(LocalDate.of(2024, 1, 2));
                assertThat(rs.getString(2)).isEqualTo("A{FN X}");
                assertThat(rs.getString(3)).isEqualTo("Z!F3{fn ");
            }
        }
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.setEscapeProcessing(false);
            assertThatThrownBy(() -> s.executeQuery("SELECT {fn upper('a')}")).isInstanceOf(SQLException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void metadataBeforeExecutionComesFromTheServer(String kind) throws SQLException {
        try (Connection c = JdbcTests.connect(kind)) {
            String sql = kind.equals("legacy") ? "SELECT number AS n, toString(number) AS s FROM system.numbers LIMIT 3"
                    : "SELECT number AS n, toString(?) AS s FROM numbers(3) -- trailing comment";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                java.sql.ResultSetMetaData md = ps.getMetaData();
                assertThat(md).isNotNull();
                assertThat(md.getColumnCount()).isEqualTo(2);
                assertThat(md.getColumnLabel(1)).isEqualTo("n");
                assertThat(md.getColumnTypeName(1)).isEqualTo("UInt64");
                assertThat(md.getColumnLabel(2)).isEqualTo("s");
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)")) {
                assertThat(ps.getMetaData()).isNull();
            }
        }
    }

    @Test
    void instantsKeepTheirNanoseconds() throws SQLException {
        Instant instant = Instant.parse("2024-05-06T07:08:09.123456789Z");
        try (Connection c = JdbcTests.connect("modern");
             PreparedStatement ps = c.prepareStatement("SELECT toUnixTimestamp64Nano(toDateTime64(?, 9, 'UTC'))")) {
            ps.setObject(1, instant);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(instant.getEpochSecond() * 1_000_000_000L + instant.getNano());
            }
            ps.setTimestamp(1, java.sql.Timestamp.from(instant));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(instant.getEpochSecond() * 1_000_000_000L + instant.getNano());
            }
        }
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            c.close();
            assertThat(s.isClosed()).isTrue();
        }
    }

    @Test
    void streamsAreReadUpToTheirLength() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); PreparedStatement ps = c.prepareStatement("SELECT ?, ?, ?")) {
            ps.setCharacterStream(1, new java.io.StringReader("héllo wörld"), 5L);
            ps.setBinaryStream(2, new java.io.ByteArrayInputStream("bytes".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            ps.setCharacterStream(3, new java.io.StringReader("all of it"));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("héllo");
                assertThat(rs.getString(2)).isEqualTo("bytes");
                assertThat(rs.getString(3)).isEqualTo("all of it");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void bytesAreBinarySafe(String kind) throws SQLException {
        byte[] bytes = {0, (byte) 0xff, '\'', '\\', (byte) 0xc3, 'x', '\n'};
        try (Connection c = JdbcTests.connect(kind); PreparedStatement ps = c.prepareStatement("SELECT ?, length(?)")) {
            ps.setBytes(1, bytes);
            ps.setBytes(2, bytes);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getBytes(1)).isEqualTo(bytes);
                assertThat(rs.getInt(2)).isEqualTo(bytes.length);
            }
        }
    }

    /** A negative literal after {@code -} must not form a {@code --} comment: {@code 10-?} with -5 is 15. */
    @ParameterizedTest
    @ValueSource(strings = {"legacy", "modern-literal"})
    void negativeLiteralsNeverJoinAPrecedingMinus(String kind) throws SQLException {
        Properties info = new Properties();
        if (kind.equals("modern-literal")) {
            info.setProperty("parameterMode", "literal");
        }
        try (Connection c = JdbcTests.connect(kind.startsWith("modern") ? "modern" : "legacy", info)) {
            try (PreparedStatement ps = c.prepareStatement("SELECT 10-?, toString(10-?), 1")) {
                for (Object[] v : new Object[][] {{-5, "15"}, {-5L, "15"}, {new BigDecimal("-2.5"), "12.5"},
                        {BigInteger.valueOf(-7), "17"}, {-0.5d, "10.5"}, {-0.0d, "10"}, {-1.5f, "11.5"}}) {
                    ps.setObject(1, v[0]);
                    ps.setObject(2, v[0]);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getString(2)).as("10-(%s)", v[0]).isEqualTo(v[1]);
                        assertThat(rs.getInt(3)).isEqualTo(1);
                    }
                }
                ps.setDouble(1, Double.NEGATIVE_INFINITY);
                ps.setDouble(2, Double.NEGATIVE_INFINITY);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getDouble(1)).isEqualTo(Double.POSITIVE_INFINITY);
                    assertThat(rs.getInt(3)).isEqualTo(1);
                }
            }
            String t = JdbcTests.table("jdbc_neglit");
            try (Statement s = c.createStatement()) {
                // a DDL default (literals on every server) and an INSERT ... SELECT in literal mode
                try (PreparedStatement ps = c.prepareStatement("CREATE TABLE " + t
                        + " (i Int32, d Int32 DEFAULT 100-?) ENGINE = Memory")) {
                    ps.setInt(1, -3);
                    ps.executeUpdate();
                }
                try {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (i) SELECT 0-?")) {
                        ps.setInt(1, -42);
                        ps.executeUpdate();
                    }
                    try (ResultSet rs = s.executeQuery("SELECT i, d FROM " + t)) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getInt(1)).isEqualTo(42);
                        assertThat(rs.getInt(2)).isEqualTo(103);
                    }
                } finally {
                    s.execute("DROP TABLE IF EXISTS " + t);
                }
            }
        }
    }
}
