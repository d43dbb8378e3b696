package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code multiStatement=split} with a PreparedStatement whose placeholders span several statements: numbered
 * across the whole text, each statement gets its own values, each result comes through getMoreResults.
 */
@ClickHouseTest
class SplitPreparedStatementTest {

    private static Connection connect(String kind) throws SQLException {
        Properties p = new Properties();
        p.setProperty("multiStatement", "split");
        return JdbcTests.connect(kind, p);
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void placeholdersAreNumberedAcrossTheStatements(String kind) throws SQLException {
        try (Connection c = connect(kind);
             PreparedStatement ps = c.prepareStatement("SELECT ? AS a; SELECT ? + 1 AS b, ? AS c -- ?\n; SELECT ?")) {
            assertThat(ps.getParameterMetaData().getParameterCount()).isEqualTo(4);
            for (int round = 0; round < 2; round++) { // reusable: the second round gets its own values
                ps.setInt(1, 5 + round);
                ps.setLong(2, 10 + round);
                ps.setString(3, "x'y\\" + round);
                ps.setString(4, "last" + round);
                assertThat(ps.execute()).isTrue();
                try (ResultSet rs = ps.getResultSet()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(5 + round);
                    assertThat(rs.next()).isFalse();
                }
                assertThat(ps.getMoreResults()).isTrue();
                try (ResultSet rs = ps.getResultSet()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(11 + round);
                    assertThat(rs.getString(2)).isEqualTo("x'y\\" + round);
                }
                assertThat(ps.getMoreResults()).isTrue();
                try (ResultSet rs = ps.getResultSet()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("last" + round);
                }
                assertThat(ps.getMoreResults()).isFalse();
                assertThat(ps.getUpdateCount()).isEqualTo(-1);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void ddlInsertAndQueryInOneTextEachTakeTheirOwnValues(String kind) throws SQLException {
        String t = JdbcTests.table("jdbc_splitps");
        try (Connection c = connect(kind); Statement s = c.createStatement()) {
            // the DDL takes its value as a literal (the server reads no parameters in DDL), the others as parameters
            try (PreparedStatement ps = c.prepareStatement("CREATE TABLE " + t + " (x Int64, y Int64 DEFAULT ?) ENGINE"
                    + " = Memory; INSERT INTO " + t + " (x) SELECT ?; SELECT count(), sum(y) FROM " + t + " WHERE x = ?")) {
                ps.setInt(1, 42);
                ps.setLong(2, 7);
                ps.setLong(3, 7);
                assertThat(ps.execute()).isFalse();
                assertThat(ps.getUpdateCount()).isZero();
                assertThat(ps.getMoreResults()).isFalse();
                // 18.16 reports no written rows for an INSERT ... SELECT (no write progress), 26.7 does
                assertThat(ps.getUpdateCount()).as("the INSERT's count").isEqualTo(kind.equals("modern") ? 1 : 0);
                assertThat(ps.getMoreResults()).isTrue();
                try (ResultSet rs = ps.getResultSet()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(1);
                    assertThat(rs.getLong(2)).isEqualTo(42);
                }
                assertThat(ps.getMoreResults()).isFalse();
                assertThat(ps.getUpdateCount()).isEqualTo(-1);
            }
            // a batch runs every statement of the text for each row
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (x) SELECT ?; INSERT INTO " + t
                    + " (x, y) SELECT ? * 10, ?")) {
                for (int i = 1; i <= 3; i++) {
                    ps.setInt(1, 100 + i);
                    ps.setInt(2, 100 + i);
                    ps.setInt(3, -i);
                    ps.addBatch();
                }
                assertThat(ps.executeBatch()).hasSize(3);
            }
            try (ResultSet rs = s.executeQuery("SELECT count(), sum(x), sum(y) FROM " + t + " WHERE x > 100")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(6);
                assertThat(rs.getLong(2)).isEqualTo(101 + 102 + 103 + 1010 + 1020 + 1030);
                assertThat(rs.getLong(3)).isEqualTo(3 * 42 - 1 - 2 - 3);
            }
            s.execute("DROP TABLE " + t);
        }
    }
}
