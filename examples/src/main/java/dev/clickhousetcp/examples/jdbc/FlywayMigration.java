package dev.clickhousetcp.examples.jdbc;

import dev.clickhousetcp.jdbc.ClickHouseDataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * A Flyway migration through the JDBC driver, with Flyway's ClickHouse plugin
 * ({@code org.flywaydb:flyway-database-clickhouse}, found through the driver's product name "ClickHouse"): three
 * versioned scripts under {@code dev/clickhousetcp/examples/jdbc/migration} create a table, add a column and insert
 * two rows; Flyway records them in its history table (a MergeTree table, started with a baseline at version 0 as
 * the database already holds other tables) and a second {@code migrate()} runs nothing. The scripts take the table name from the placeholder {@code ${table}}.
 */
public final class FlywayMigration {

    private FlywayMigration() {
    }

    /** What a migration did: the scripts it ran and the schema version it left. */
    public record Migrated(int migrationsExecuted, String currentVersion) {
    }

    public static void main(String[] args) throws SQLException {
        String table = System.getProperty("example.table", "example_events");
        DataSource dataSource = new ClickHouseDataSource("jdbc:clickhouse:tcp://"
                + System.getProperty("clickhouse.host", "127.0.0.1") + ":"
                + Integer.getInteger("clickhouse.port", 19000) + "/default");
        try {
            System.out.println("first run: " + run(dataSource, table));
            System.out.println("second run: " + run(dataSource, table));
        } finally {
            // also after a failure: the next run starts clean
            try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + table);
                s.execute("DROP TABLE IF EXISTS " + historyTable(table));
            }
        }
    }

    /** The history table Flyway keeps for {@code table}'s migrations. */
    public static String historyTable(String table) {
        return table + "_flyway_history";
    }

    /** Migrates {@code table} to the latest script version. */
    public static Migrated run(DataSource dataSource, String table) {
        Flyway flyway = Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:dev/clickhousetcp/examples/jdbc/migration")
                .table(historyTable(table))
                .placeholders(Map.of("table", table))
                // the database holds other tables already: start the history at version 0, then run V1..V3
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load();
        MigrateResult result = flyway.migrate();
        return new Migrated(result.migrationsExecuted, flyway.info().current().getVersion().getVersion());
    }
}
