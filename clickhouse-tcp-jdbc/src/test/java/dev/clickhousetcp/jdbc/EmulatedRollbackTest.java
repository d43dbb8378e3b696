package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * transactionMode=emulate: a rollback after a statement that changed data warns (JDBC.md (c)), also when the
 * server reports no written rows for it, as ClickHouse 26.7 does for lightweight DELETE and UPDATE, mutations
 * ({@code ALTER TABLE ... DELETE}) and DDL. A transaction that only read does not warn.
 */
@ClickHouseTest
class EmulatedRollbackTest {

    @ParameterizedTest
    @ValueSource(strings = {"DELETE FROM %s WHERE id = 1", "UPDATE %s SET name = 'x' WHERE id = 1",
            "ALTER TABLE %s DELETE WHERE id = 2", "TRUNCATE TABLE %s", "SELECT count() FROM %s"})
    void aRollbackAfterAChangeWarns(String statement) throws SQLException {
        String t = JdbcTests.table("jdbc_rb");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id UInt32, name String) ENGINE = MergeTree ORDER BY id"
                    + " SETTINGS enable_block_number_column = 1, enable_block_offset_column = 1");
            try {
                s.execute("INSERT INTO " + t + " VALUES (1, 'a'), (2, 'b')");
                c.setAutoCommit(false);
                s.execute(String.format(statement, t));
                c.rollback();
                boolean reads = statement.startsWith("SELECT");
                assertThat(c.getWarnings() != null).as("a warning after %s", statement).isEqualTo(!reads);
            } finally {
                c.setAutoCommit(true);
                s.execute("DROP TABLE " + t);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"DELETE FROM %s WHERE id = ?", "UPDATE %s SET name = 'x' WHERE id = ?"})
    void aRollbackAfterAPreparedChangeWarns(String statement) throws SQLException {
        String t = JdbcTests.table("jdbc_rbp");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id UInt32, name String) ENGINE = MergeTree ORDER BY id"
                    + " SETTINGS enable_block_number_column = 1, enable_block_offset_column = 1");
            try {
                s.execute("INSERT INTO " + t + " VALUES (1, 'a')");
                c.setAutoCommit(false);
                try (PreparedStatement ps = c.prepareStatement(String.format(statement, t))) {
                    ps.setInt(1, 1);
                    ps.executeUpdate();
                }
                c.rollback();
                assertThat(c.getWarnings() != null).as("a warning after %s", statement).isTrue();
            } finally {
                c.setAutoCommit(true);
                s.execute("DROP TABLE " + t);
            }
        }
    }
}
