package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * INSERTs whose VALUES hold expressions around the placeholders, or several groups: on 26.7 one
 * {@code INSERT ... SELECT ... FROM input(...)} fed by native blocks, on 18.16 (no {@code input()}) one
 * {@code INSERT ... VALUES} text of escaped literals. The stored values are what the server computes.
 */
@ClickHouseTest
class ExpressionInsertTest {

    private static Connection connect(String kind) throws SQLException {
        Properties p = new Properties();
        p.setProperty("setting.log_queries", "1"); // 18.16 logs no queries by default
        return JdbcTests.connect(kind, p);
    }

    private static long scalar(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    /** The INSERTs into {@code t} the server logged: count, written rows, native bytes received (-1 on 18.16). */
    private static long[] inserts(Statement s, String kind, String t) throws SQLException {
        s.execute("SYSTEM FLUSH LOGS");
        // 18.16's type column is a number (2: QueryFinish), 26.7's an enum
        String bytes = kind.equals("modern") ? "sum(ProfileEvents['InterfaceNativeReceiveBytes'])" : "-1";
        try (ResultSet rs = s.executeQuery("SELECT count(), sum(written_rows), " + bytes + " FROM system.query_log"
                + " WHERE toString(type) IN ('QueryFinish', '2') AND query LIKE 'INSERT INTO " + t + " %' AND event_date >= yesterday()")) {
            assertThat(rs.next()).isTrue();
            return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)};
        }
    }

    private static String hostile(int i) {
        return "it's \\ a 'quote' \\' and \\\\ back" + i + (i % 2 == 0 ? "\\" : "'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void singleExecuteComputesTheExpressions(String kind) throws SQLException {
        String t = JdbcTests.table("jdbc_exprins");
        try (Connection c = connect(kind); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (a Int32, b DateTime, c Int64) ENGINE = Memory");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (a, b, c) VALUES (?, now(), ? + 1)")) {
                ps.setInt(1, 5);
                ps.setLong(2, 7);
                assertThat(ps.executeUpdate()).isEqualTo(1);
                ps.setInt(1, -6);
                ps.setLong(2, -10);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            try (ResultSet rs = s.executeQuery("SELECT a, c, b >= now() - 3600 AND b <= now() FROM " + t
                    + " ORDER BY a")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(-6);
                assertThat(rs.getLong(2)).isEqualTo(-9);
                assertThat(rs.getInt(3)).isEqualTo(1);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(5);
                assertThat(rs.getLong(2)).isEqualTo(8);
                assertThat(rs.getInt(3)).isEqualTo(1);
                assertThat(rs.next()).isFalse();
            }
            s.execute("DROP TABLE " + t);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void aBatchWithExpressionsIsOneInsertWithNullsAndHostileStrings(String kind) throws SQLException {
        String t = JdbcTests.table("jdbc_exprbatch");
        int rows = 1000;
        try (Connection c = connect(kind); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id Int64, s String, n Nullable(Int32), m Nullable(Int64), u String)"
                    + " ENGINE = Memory");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t
                    + " (id, s, n, m, u) VALUES (?, concat(?, '!'), ?, ? * 2, upper(?))")) {
                for (int i = 0; i < rows; i++) {
                    ps.setLong(1, i);
                    ps.setString(2, hostile(i));
                    if (i % 7 == 0) {
                        ps.setNull(3, Types.INTEGER);
                    } else {
                        ps.setInt(3, i);
                    }
                    if (i % 5 == 0) {
                        ps.setNull(4, Types.BIGINT);
                    } else {
                        ps.setLong(4, i);
                    }
                    ps.setString(5, "ab'c\\" + i);
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                assertThat(counts).hasSize(rows);
                assertThat(Arrays.stream(counts).allMatch(n -> n == 1)).isTrue();
            }
            try (ResultSet rs = s.executeQuery("SELECT id, s, n, m, u FROM " + t + " ORDER BY id")) {
                for (int i = 0; i < rows; i++) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(i);
                    assertThat(rs.getString(2)).isEqualTo(hostile(i) + "!");
                    assertThat(rs.getObject(3)).isEqualTo(i % 7 == 0 ? null : i);
                    assertThat(rs.getObject(4)).isEqualTo(i % 5 == 0 ? null : 2L * i);
                    assertThat(rs.getString(5)).isEqualTo(("ab'c\\" + i).toUpperCase(Locale.ROOT));
                }
                assertThat(rs.next()).isFalse();
            }
            long[] logged = inserts(s, kind, t);
            assertThat(logged[0]).as("one INSERT for the batch").isEqualTo(1);
            assertThat(logged[1]).isEqualTo(rows);
            if (kind.equals("modern")) {
                assertThat(logged[2]).as("rows arrived as native blocks").isGreaterThan(rows * 8L);
            }
            s.execute("DROP TABLE " + t);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void severalValuesGroupsNumberTheirPlaceholdersAcrossTheText(String kind) throws SQLException {
        String t = JdbcTests.table("jdbc_groups");
        try (Connection c = connect(kind); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id Int64, s Nullable(String)) ENGINE = Memory");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (id, s) VALUES (?, ?), (?, ?)")) {
                for (int i = 0; i < 500; i++) {
                    ps.setLong(1, 2L * i);
                    ps.setString(2, i % 9 == 0 ? null : hostile(2 * i));
                    ps.setLong(3, 2L * i + 1);
                    ps.setString(4, hostile(2 * i + 1));
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                assertThat(counts).hasSize(500);
                assertThat(Arrays.stream(counts).allMatch(n -> n == 2)).as("two rows per parameter row").isTrue();
            }
            // groups of different shapes: one literal text on every server
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t
                    + " (id, s) VALUES (? + 10000, 'fixed'), (-?, lower(?))")) {
                ps.setInt(1, 1);
                ps.setInt(2, 5);
                ps.setString(3, "LoW'\\");
                assertThat(ps.executeUpdate()).isEqualTo(2);
            }
            try (ResultSet rs = s.executeQuery("SELECT id, s FROM " + t + " ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(-5);
                assertThat(rs.getString(2)).isEqualTo("low'\\");
                for (int i = 0; i < 1000; i++) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(i);
                    assertThat(rs.getString(2)).isEqualTo(i % 18 == 0 ? null : hostile(i));
                }
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(10001);
                assertThat(rs.getString(2)).isEqualTo("fixed");
                assertThat(rs.next()).isFalse();
            }
            long[] logged = inserts(s, kind, t);
            assertThat(logged[0]).as("one INSERT per execute").isEqualTo(2);
            assertThat(logged[1]).isEqualTo(1002);
            s.execute("DROP TABLE " + t);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void aValueTheExpressionRefusesFailsTheBatchAndKeepsTheConnection(String kind) throws SQLException {
        String t = JdbcTests.table("jdbc_exprbad");
        try (Connection c = connect(kind); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id UInt8, s String) ENGINE = Memory");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (id, s) VALUES (?, concat(?, 'x'))")) {
                ps.setInt(1, 1);
                ps.setString(2, "a");
                ps.addBatch();
                ps.setString(1, "not a number");
                ps.setString(2, "b");
                ps.addBatch();
                org.assertj.core.api.Assertions.assertThatThrownBy(ps::executeBatch)
                        .isInstanceOf(java.sql.BatchUpdateException.class);
                ps.setInt(1, 2);
                ps.setString(2, "c");
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            assertThat(scalar(s, "SELECT count() FROM " + t + " WHERE s = 'cx'")).isEqualTo(1);
            s.execute("DROP TABLE " + t);
        }
    }
}
