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

    /** Does {@code change} (given the table name) in a transaction on a two-row table, then rolls back. */
    private static boolean warnsAfterRollback(SqlChange change) throws SQLException {
        String t = JdbcTests.table("jdbc_rb");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id UInt32, name String) ENGINE = MergeTree ORDER BY id"
                    + " SETTINGS enable_block_number_column = 1, enable_block_offset_column = 1");
            try {
                s.execute("INSERT INTO " + t + " VALUES (1, 'a'), (2, 'b')");
                c.setAutoCommit(false);
                change.run(c, t);
                c.rollback();
                return c.getWarnings() != null;
            } finally {
                c.setAutoCommit(true);
                s.execute("DROP TABLE " + t);
            }
        }
    }

    private interface SqlChange {
        void run(Connection c, String table) throws SQLException;
    }

    @ParameterizedTest
    @ValueSource(strings = {"DELETE FROM %s WHERE id = 1", "UPDATE %s SET name = 'x' WHERE id = 1",
            "ALTER TABLE %s DELETE WHERE id = 2", "TRUNCATE TABLE %s", "SELECT count() FROM %s"})
    void aRollbackAfterAChangeWarns(String statement) throws SQLException {
        boolean warned = warnsAfterRollback((c, t) -> {
            try (Statement s = c.createStatement()) {
                s.execute(String.format(statement, t));
            }
        });
        assertThat(warned).as("a warning after %s", statement).isEqualTo(!statement.startsWith("SELECT"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"DELETE FROM %s WHERE id = ?", "UPDATE %s SET name = 'x' WHERE id = ?"})
    void aRollbackAfterAPreparedChangeWarns(String statement) throws SQLException {
        boolean warned = warnsAfterRollback((c, t) -> {
            try (PreparedStatement ps = c.prepareStatement(String.format(statement, t))) {
                ps.setInt(1, 1);
                ps.executeUpdate();
            }
        });
        assertThat(warned).as("a warning after %s", statement).isTrue();
    }
}
