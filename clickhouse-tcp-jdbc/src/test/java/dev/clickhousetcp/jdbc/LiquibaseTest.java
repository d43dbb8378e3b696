package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.jdbc.liquibase.ClickHouseTcpDatabase;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import liquibase.Scope;
import liquibase.command.CommandScope;
import liquibase.command.core.TagCommandStep;
import liquibase.command.core.UpdateCommandStep;
import liquibase.command.core.helpers.DbUrlConnectionArgumentsCommandStep;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.DirectoryResourceAccessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Liquibase 4.33 with the ClickHouse extension ({@code com.mediarithmics:liquibase-clickhouse}) over the
 * driver, against 26.7. The extension's database class needs {@code ru.yandex.clickhouse.ClickHouseDriver}
 * (the 2021 HTTP driver, not in today's {@code clickhouse-jdbc} or {@code jdbc-v2}) to load, so the driver's
 * own {@link ClickHouseTcpDatabase} is what Liquibase uses; it is checked with the extension's jar on the
 * class path (next to {@code jdbc-v2}) and without it (in a child JVM).
 */
@ClickHouseTest
class LiquibaseTest {
    private static final String CHANGELOG = """
            --liquibase formatted sql

            --changeset tcp:1
            CREATE TABLE items (id UInt64, name String) ENGINE = MergeTree ORDER BY id

            --changeset tcp:2
            ALTER TABLE items ADD COLUMN qty UInt32 DEFAULT 1

            --changeset tcp:3
            INSERT INTO items (id, name) SELECT number, toString(number) FROM numbers(100)
            """;

    @TempDir
    Path dir;

    private final ClickHouseServer server = ClickHouseServers.modern();
    private final List<String> databases = new ArrayList<>();

    @AfterEach
    void dropDatabases() {
        for (String db : databases) {
            server.httpQuery("DROP DATABASE IF EXISTS " + db);
        }
    }

    @ParameterizedTest(name = "databaseTerm={0}")
    @ValueSource(strings = {"schema", "catalog"})
    void updateAppliesThreeChangeSetsOnceWithTheLockInTheUrlDatabase(String databaseTerm) throws Exception {
        // liquibase-clickhouse is on this class path, but cannot load without ru.yandex.clickhouse.ClickHouseDriver
        assertThatThrownBy(() -> Class.forName("liquibase.ext.clickhouse.database.ClickHouseDatabase"))
                .isInstanceOf(NoClassDefFoundError.class);
        String db = newDatabase();
        updateTwice(server, db, databaseTerm, dir);
    }

    @Test
    void updateWorksWithoutTheExtensionOnTheClassPath() throws Exception {
        String db = newDatabase();
        String classPath = Stream.of(ChildJvm.testClassPath().split(File.pathSeparator))
                .filter(entry -> !entry.contains("liquibase-clickhouse"))
                .collect(Collectors.joining(File.pathSeparator));
        assertThat(classPath).isNotEqualTo(ChildJvm.testClassPath());

        String out = ChildJvm.run(ChildJvm.thisJava(), List.of(), classPath, WithoutExtension.class, 120,
                db, dir.toString());

        assertThat(out).contains("liquibase update done");
    }

    /** A URL alone: Liquibase takes the driver class from the database object and opens the connection. */
    @Test
    void urlModeFindsTheDriver() throws Exception {
        String url = "jdbc:clickhouse:tcp://" + server.host() + ":" + server.tcpPort() + "/default";

        Database database = DatabaseFactory.getInstance()
                .openDatabase(url, "default", "", null, new DirectoryResourceAccessor(dir));
        try {
            assertThat(database).isInstanceOf(ClickHouseTcpDatabase.class);
            assertThat(database.getDefaultCatalogName()).isEqualTo("default");
            assertThat(database.getConnection().getDatabaseProductName()).isEqualTo("ClickHouse");
        } finally {
            database.close();
        }
    }

    /** {@link #updateTwice} in a JVM of its own: args database, changelog directory. */
    static final class WithoutExtension {
        public static void main(String[] args) throws Exception {
            try {
                Class.forName("liquibase.ext.clickhouse.database.ClickHouseDatabase");
                throw new AssertionError("liquibase-clickhouse is on the class path");
            } catch (ClassNotFoundException expected) {
                // the case under test
            }
            updateTwice(ClickHouseServers.modern(), args[0], "schema", Path.of(args[1]));
            System.out.println("liquibase update done");
        }
    }

    /**
     * Creates {@code db}, runs the changelog twice on one connection to it and checks the tables, the lock
     * mutations and the connection after Liquibase.
     */
    static void updateTwice(ClickHouseServer server, String db, String databaseTerm, Path dir) throws Exception {
        server.httpQuery("CREATE DATABASE " + db);
        Files.writeString(dir.resolve("changelog.sql"), CHANGELOG);
        String url = "jdbc:clickhouse:tcp://" + server.host() + ":" + server.tcpPort() + "/" + db
                + "?databaseTerm=" + databaseTerm;

        try (Connection connection = DriverManager.getConnection(url)) {
            Database database = DatabaseFactory.getInstance()
                    .findCorrectDatabaseImplementation(new JdbcConnection(connection));
            assertThat(database).isInstanceOf(ClickHouseTcpDatabase.class);

            update(database, dir);

            assertThat(query(server, "SELECT count(), groupArray(ID) FROM (SELECT ID FROM " + db
                    + ".DATABASECHANGELOG ORDER BY ORDEREXECUTED)")).isEqualTo("3\t['1','2','3']");
            assertThat(query(server, "SELECT ID, LOCKED FROM " + db + ".DATABASECHANGELOGLOCK")).isEqualTo("1\tfalse");
            assertThat(query(server, "SELECT count(), sum(qty) FROM " + db + ".items")).isEqualTo("100\t100");
            // the lock is taken and released by mutations, each waited for
            assertThat(lockMutations(server, db)).isEqualTo("1\t1\t1");

            // the liquibase-clickhouse lock service's probe: a SELECT whose result is never read
            try (Statement probe = connection.createStatement(); Statement next = connection.createStatement()) {
                assertThat(probe.execute("SELECT ID FROM " + db + ".DATABASECHANGELOGLOCK LIMIT 1")).isTrue();
                try (ResultSet rs = next.executeQuery("SELECT count() FROM " + db + ".items")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(100);
                    assertThat(rs.next()).isFalse();
                }
            }

            update(database, dir);

            assertThat(query(server, "SELECT count() FROM " + db + ".DATABASECHANGELOG")).isEqualTo("3");
            assertThat(query(server, "SELECT count() FROM " + db + ".items")).isEqualTo("100");
            assertThat(lockMutations(server, db)).isEqualTo("1\t1\t1");
            assertThat(query(server, "SELECT ID, LOCKED FROM " + db + ".DATABASECHANGELOGLOCK")).isEqualTo("1\tfalse");

            // tag: an UPDATE of the last changeset's row, as a mutation
            new CommandScope(TagCommandStep.COMMAND_NAME)
                    .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, database)
                    .addArgumentValue(TagCommandStep.TAG_ARG, "v1")
                    .execute();
            assertThat(query(server, "SELECT groupArray(ifNull(TAG, '-')) FROM (SELECT TAG FROM " + db
                    + ".DATABASECHANGELOG ORDER BY ORDEREXECUTED)")).isEqualTo("['-','-','v1']");
        }
    }

    private static void update(Database database, Path dir) throws Exception {
        Scope.child(Map.of(Scope.Attr.resourceAccessor.name(), new DirectoryResourceAccessor(dir)), () ->
                new CommandScope(UpdateCommandStep.COMMAND_NAME)
                        .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, database)
                        .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG, "changelog.sql")
                        .execute());
    }

    /** How often the lock was taken and released by a mutation, and whether every mutation is done. */
    private static String lockMutations(ClickHouseServer server, String db) {
        return query(server, "SELECT countIf(command LIKE '%UPDATE LOCKED = true, LOCKGRANTED = now64(3), LOCKEDBY = \\'%'),"
                + " countIf(command LIKE '%UPDATE LOCKED = false, LOCKEDBY = NULL%'), min(is_done)"
                + " FROM system.mutations WHERE database = '" + db + "' AND table = 'DATABASECHANGELOGLOCK'");
    }

    private String newDatabase() {
        String db = JdbcTests.table("liquibase");
        databases.add(db);
        return db;
    }

    private static String query(ClickHouseServer server, String sql) {
        return server.httpQuery(sql).strip();
    }
}
