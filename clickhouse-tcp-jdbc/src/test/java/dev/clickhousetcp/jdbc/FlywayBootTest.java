package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot's Flyway auto-configuration (spring-boot-flyway, the Boot-managed Flyway and the
 * ClickHouse plugin) migrating at start-up over a Boot DataSource on the driver, against 26.7.
 */
@ClickHouseTest
class FlywayBootTest {
    @TempDir
    Path migrations;

    private final ClickHouseServer server = ClickHouseServers.modern();
    private final String db = JdbcTests.table("flyway_boot");

    @AfterEach
    void drop() {
        server.httpQuery("DROP DATABASE IF EXISTS " + db);
    }

    @Test
    void migratesAtStartUp() throws Exception {
        server.httpQuery("CREATE DATABASE " + db);
        Files.writeString(migrations.resolve("V1__create.sql"),
                "CREATE TABLE boot_events (id UInt64) ENGINE = MergeTree ORDER BY id\n");
        Files.writeString(migrations.resolve("V2__fill.sql"),
                "INSERT INTO boot_events SELECT number FROM numbers(10)\n");

        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.main.banner-mode=off",
                        "spring.datasource.url=jdbc:clickhouse:tcp://" + server.host() + ":" + server.tcpPort() + "/" + db,
                        // Boot maps jdbc:clickhouse: URLs to the official driver's class name (DatabaseDriver.CLICKHOUSE)
                        "spring.datasource.driver-class-name=" + ClickHouseDriver.class.getName(),
                        "spring.flyway.locations=filesystem:" + migrations)
                .run()) {
            assertThat(context.getBean(Flyway.class).info().applied()).hasSize(2);
            assertThat(driverOf(context.getBean(DataSource.class))).isEqualTo(ClickHouseDriver.NAME);
        }

        assertThat(server.httpQuery("SELECT count(), countIf(success) FROM " + db + ".flyway_schema_history").strip())
                .isEqualTo("2\t2");
        assertThat(server.httpQuery("SELECT count() FROM " + db + ".boot_events").strip()).isEqualTo("10");
    }

    private static String driverOf(DataSource ds) throws SQLException {
        try (var c = ds.getConnection()) {
            return c.getMetaData().getDriverName();
        }
    }

    /** The application: auto-configuration only. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
    }
}
