package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.core.api.output.RepairResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Flyway (the version Spring Boot manages) with its ClickHouse plugin ({@code flyway-database-clickhouse})
 * over the driver, against 26.7: migrate, a second migrate, validate, info, a database Flyway creates, URL
 * mode with the driver named, and the failure and repair path.
 */
@ClickHouseTest
class FlywayTest {
    @TempDir
    Path migrations;

    private final ClickHouseServer server = ClickHouseServers.modern();
    private final List<String> databases = new ArrayList<>();

    @BeforeEach
    void writeMigrations() throws IOException {
        write("V1__create.sql", "CREATE TABLE events (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
        write("V2__add_column.sql", "ALTER TABLE events ADD COLUMN score Float64 DEFAULT 0");
        write("V3__fill.sql",
                "INSERT INTO events (id, name, score) SELECT number, toString(number), number / 2 FROM numbers(1000)");
        write("R__event_names.sql", "CREATE OR REPLACE VIEW event_names AS SELECT id, name FROM events");
    }

    @AfterEach
    void dropDatabases() {
        for (String db : databases) {
            server.httpQuery("DROP DATABASE IF EXISTS " + db);
        }
    }

    @ParameterizedTest(name = "databaseTerm={0}")
    @ValueSource(strings = {"schema", "catalog"})
    void migratesThenFindsNothingToDoAndValidates(String databaseTerm) throws SQLException {
        String db = newDatabase();
        server.httpQuery("CREATE DATABASE " + db);
        Flyway flyway = flyway(url(db) + "?databaseTerm=" + databaseTerm).load();

        MigrateResult first = flyway.migrate();

        assertThat(first.success).isTrue();
        assertThat(first.migrationsExecuted).isEqualTo(4);
        assertThat(query("SELECT engine, primary_key FROM system.tables WHERE database = '" + db
                + "' AND name = 'flyway_schema_history'")).isEqualTo("MergeTree\t(script)");
        assertThat(query("SELECT count(), countIf(success), countIf(abs(dateDiff('second', installed_on, now())) <= 60),"
                + " countIf(version IS NOT NULL AND checksum IS NOT NULL) FROM " + db + ".flyway_schema_history"))
                .isEqualTo("4\t4\t4\t3");
        assertThat(query("SELECT count(), sum(score), any(name = toString(id)) FROM " + db + ".events"))
                .isEqualTo("1000\t249750\t1");
        assertThat(query("SELECT count() FROM " + db + ".event_names")).isEqualTo("1000");

        MigrateResult second = flyway.migrate();
        assertThat(second.migrationsExecuted).isZero();
        assertThat(flyway.validateWithResult().validationSuccessful).isTrue();
        MigrationInfo[] applied = flyway.info().applied();
        assertThat(applied).extracting(MigrationInfo::getState).containsOnly(MigrationState.SUCCESS);
        assertThat(applied).extracting(MigrationInfo::getScript)
                .containsExactly("V1__create.sql", "V2__add_column.sql", "V3__fill.sql", "R__event_names.sql");
        assertThat(applied).extracting(MigrationInfo::getInstalledBy).containsOnly("default");
        assertThat(flyway.info().pending()).isEmpty();
    }

    @Test
    void createsAnAbsentSchemaAndKeepsTheHistoryThere() throws SQLException {
        String db = newDatabase();

        MigrateResult result = flyway(url("default")).schemas(db).load().migrate();

        assertThat(result.migrationsExecuted).isEqualTo(4);
        assertThat(query("SELECT count() FROM system.databases WHERE name = '" + db + "'")).isEqualTo("1");
        assertThat(query("SELECT count() FROM " + db + ".flyway_schema_history WHERE success")).isEqualTo("5");
        assertThat(query("SELECT type FROM " + db + ".flyway_schema_history WHERE installed_rank = 0"))
                .isEqualTo("SCHEMA");
        assertThat(query("SELECT count() FROM " + db + ".events")).isEqualTo("1000");
    }

    /**
     * On the legacy server: 26.7 treats a handshake naming an absent database as a failed login, which
     * aborts the shared test server's process.
     */
    @Test
    void anAbsentDatabaseInTheUrlFailsAtGetConnection() {
        ClickHouseServer legacy = ClickHouseServers.legacy();
        String url = "jdbc:clickhouse:tcp://" + legacy.host() + ":" + legacy.tcpPort() + "/" + JdbcTests.table("absent");

        assertThatThrownBy(() -> DriverManager.getConnection(url).close())
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getSQLState()).isEqualTo("3F000");
                    assertThat(e.getErrorCode()).isEqualTo(81);
                });
    }

    /**
     * The command line's {@code -url} and {@code -driver}, as configuration properties: the plugin names
     * another driver class for {@code jdbc:clickhouse:} URLs, so {@code flyway.driver} must name this one.
     * ({@code FluentConfiguration.dataSource(url, user, password)} builds its DataSource without the driver
     * setting in Flyway 11, so it cannot be used for this.)
     */
    @Test
    void urlModeWithTheDriverNamedMigrates() throws SQLException {
        String db = newDatabase();
        server.httpQuery("CREATE DATABASE " + db);
        Flyway flyway = Flyway.configure()
                .configuration(Map.of(
                        "flyway.url", url(db),
                        "flyway.driver", ClickHouseDriver.class.getName(),
                        "flyway.user", "default",
                        "flyway.locations", "filesystem:" + migrations))
                .load();

        assertThat(flyway.migrate().migrationsExecuted).isEqualTo(4);
        assertThat(query("SELECT count() FROM " + db + ".flyway_schema_history WHERE success")).isEqualTo("4");
    }

    @Test
    void aFailedMigrationCarriesTheServerErrorAndRepairLetsTheFixedOneApply() throws Exception {
        String db = newDatabase();
        server.httpQuery("CREATE DATABASE " + db);
        Flyway flyway = flyway(url(db)).load();
        flyway.migrate();
        write("V4__broken.sql", "ALTER TABLE events ADD COLUMNN broken UInt8");

        assertThatThrownBy(flyway::migrate).isInstanceOfSatisfying(FlywayException.class, e -> {
            SQLException cause = sqlCause(e);
            assertThat(cause.getSQLState()).isEqualTo("42000");
            assertThat(cause.getErrorCode()).isEqualTo(62);
        });
        assertThat(query("SELECT toUInt8(success), script FROM " + db + ".flyway_schema_history WHERE version = '4'"))
                .isEqualTo("0\tV4__broken.sql");

        RepairResult repair = flyway.repair();

        assertThat(repair.repairActions).contains("Removed failed migrations");
        assertThat(query("SELECT count() FROM " + db + ".flyway_schema_history WHERE version = '4'")).isEqualTo("0");
        write("V4__broken.sql", "ALTER TABLE events ADD COLUMN fixed UInt8");
        assertThat(flyway.migrate().migrationsExecuted).isEqualTo(1);
        assertThat(query("SELECT count(), countIf(success) FROM " + db + ".flyway_schema_history"))
                .isEqualTo("5\t5");
        assertThat(query("SELECT count() FROM system.columns WHERE database = '" + db
                + "' AND table = 'events' AND name = 'fixed'")).isEqualTo("1");
    }

    /**
     * {@code flyway.clickhouse.clusterName} makes the plugin create its history table {@code ON CLUSTER}; the
     * server's refusal (here: no such cluster, code 701) reaches the caller as the SQLException, and no history
     * table is left behind. (The project's local cluster runs no Keeper, so distributed DDL itself cannot be
     * run here: see docs/jdbc.md.)
     */
    @Test
    void aRefusedOnClusterDdlSurfacesAsTheServerError() {
        String db = newDatabase();
        server.httpQuery("CREATE DATABASE " + db);
        String cluster = JdbcTests.table("no_such_cluster");
        Flyway flyway = flyway(url(db)).configuration(Map.of("flyway.clickhouse.clusterName", cluster)).load();

        assertThatThrownBy(flyway::migrate).isInstanceOfSatisfying(FlywayException.class, e -> {
            SQLException cause = sqlCause(e);
            assertThat(cause.getErrorCode()).isEqualTo(701);
            assertThat(cause.getMessage()).contains(cluster);
        });
        assertThat(query("SELECT count() FROM system.tables WHERE database = '" + db + "'")).isEqualTo("0");
    }

    private org.flywaydb.core.api.configuration.FluentConfiguration flyway(String url) {
        ClickHouseDataSource ds = new ClickHouseDataSource();
        ds.setUrl(url);
        return Flyway.configure().dataSource(ds).locations("filesystem:" + migrations);
    }

    private static SQLException sqlCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return sql;
            }
        }
        throw new AssertionError("no SQLException in the cause chain", e);
    }

    private String newDatabase() {
        String db = JdbcTests.table("flyway");
        databases.add(db);
        return db;
    }

    private String url(String db) {
        return "jdbc:clickhouse:tcp://" + server.host() + ":" + server.tcpPort() + "/" + db;
    }

    private String query(String sql) {
        return server.httpQuery(sql).strip();
    }

    private void write(String name, String sql) throws IOException {
        Files.writeString(migrations.resolve(name), sql + "\n");
    }
}
