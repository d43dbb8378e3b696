package dev.clickhousetcp.spring.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.core.ClickHouseErrorDetails;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.LegacyServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.InvalidDataAccessApiUsageException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The starter as an application uses it: a {@code @SpringBootApplication}-style class, full auto-configuration
 * and an {@code application.yml} written as docs/spring.md shows, against the real servers.
 */
@ClickHouseTest
class ApplicationYamlTests {

    @TempDir
    Path dir;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

    }

    record Setting(String name, String value) {
    }

    private ConfigurableApplicationContext start(String yaml) throws IOException {
        Path file = this.dir.resolve("application.yml");
        Files.writeString(file, yaml);
        return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
            .properties("spring.config.location=file:" + file, "spring.main.banner-mode=off",
                    // no JDBC here: HikariCP is on the test class path for the JDBC tests, and a client with an SSL
                    // bundle cannot give Spring Boot's DataSource a JDBC URL (ClickHouseTcpJdbcAutoConfiguration)
                    "spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
            .run();
    }

    private Throwable startupFailure(String yaml) {
        Throwable failure = catchThrowable(() -> start(yaml).close());
        assertThat(failure).as("startup failure").isNotNull();
        return failure;
    }

    @Test
    void urlWithOverridesAndAPemBundleOnTheTlsPort(@LegacyServer ClickHouseServer legacy) throws IOException {
        Path certificates = legacy.serverCertificatePem().orElseThrow().getParent();
        String yaml = """
                spring:
                  ssl:
                    bundle:
                      pem:
                        clickhouse:
                          truststore:
                            certificate: file:%s
                          keystore:
                            certificate: file:%s
                            private-key: file:%s
                clickhouse:
                  tcp:
                    url: clickhouse://default@localhost/default?max_threads=3&max_block_size=1000&client_name=from-url
                    port: %d
                    database: system
                    client-name: yaml-app
                    compression: zstd
                    zstd-level: 3
                    connection:
                      handshake-timeout: 10s
                    ssl:
                      bundle: clickhouse
                    settings:
                      max_threads: 2
                """.formatted(certificates.resolve("ca.crt"), certificates.resolve("client.crt"),
                certificates.resolve("client.key"), legacy.tlsPort());
        try (ConfigurableApplicationContext context = start(yaml)) {
            ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
            assertThat(client.config().tls()).isNotNull();
            assertThat(client.config().tls().hostnameVerification()).isTrue();
            assertThat(client.poolConfig().endpoints()).hasSize(1);
            assertThat(client.poolConfig().endpoints().get(0).port()).isEqualTo(legacy.tlsPort());
            ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
            // the database and client name properties win over the URL's
            assertThat(template.queryForObject("SELECT currentDatabase()", String.class)).isEqualTo("system");
            assertThat(client.config().clientName()).isEqualTo("yaml-app");
            // settings: the property entry wins over the URL parameter of the same name, the others pass
            List<Setting> settings = template.query(
                    "SELECT name, value FROM system.settings WHERE name IN ('max_threads', 'max_block_size') "
                            + "ORDER BY name",
                    Setting.class);
            assertThat(settings).containsExactly(new Setting("max_block_size", "1000"),
                    new Setting("max_threads", "2"));
            assertThat(template.queryForList("SELECT number FROM numbers(20000)", Long.class)).hasSize(20000);
        }
        // the startup check of the settings connects with the same TLS configuration
        FailureAnalysis analysis = ClickHouseTcpPropertiesTests
            .analyze(startupFailure(yaml.replace("max_threads: 2", "max_thread: 2")));
        assertThat(analysis.getDescription()).contains("clickhouse.tcp.settings.max_thread")
            .contains("'max_threads'");
    }

    @Test
    void badValuesFailStartupNamingEachProperty() {
        Throwable failure = startupFailure("""
                clickhouse:
                  tcp:
                    port: 0
                    failover-backoff: -1s
                    zstd-level: 4
                    connection:
                      socket-timeout: 0s
                      block-buffer-pool-size: -1MB
                    pool:
                      max-size: 2
                      min-idle: 3
                      validate-after-idle: -5s
                    limits:
                      max-columns: 0
                """);
        FailureAnalysis analysis = ClickHouseTcpPropertiesTests.analyze(failure);
        assertThat(analysis.getDescription()).contains("Property: clickhouse.tcp.port")
            .contains("Property: clickhouse.tcp.failover-backoff")
            .contains("Property: clickhouse.tcp.zstd-level")
            .contains("Property: clickhouse.tcp.connection.socket-timeout")
            .contains("Property: clickhouse.tcp.connection.block-buffer-pool-size")
            .contains("Property: clickhouse.tcp.pool.min-idle")
            .contains("Property: clickhouse.tcp.pool.validate-after-idle")
            .contains("Property: clickhouse.tcp.limits.max-columns");
        Throwable wrongType = startupFailure("""
                clickhouse:
                  tcp:
                    connection:
                      connect-timeout: soon
                """);
        assertThat(ClickHouseTcpPropertiesTests.analyze(wrongType).getDescription())
            .contains("clickhouse.tcp.connection.connect-timeout")
            .contains("soon");
    }

    @Test
    void unknownSettingFailsStartupOrTheFirstQueryNamingIt(ClickHouseServer server) throws IOException {
        String yaml = """
                clickhouse:
                  tcp:
                    url: clickhouse://localhost:%d?max_thread=4
                    settings:
                      sesion_timezone: UTC
                """.formatted(server.tcpPort());
        FailureAnalysis analysis = ClickHouseTcpPropertiesTests.analyze(startupFailure(yaml));
        assertThat(analysis.getDescription()).contains("clickhouse.tcp.url (query parameter max_thread)")
            .contains("'max_threads'")
            .contains("clickhouse.tcp.settings.sesion_timezone")
            .contains("'session_timezone'");
        assertThat(analysis.getAction()).contains("clickhouse.tcp.validate-settings-on-startup");
        try (ConfigurableApplicationContext context = start(
                yaml + "    validate-settings-on-startup: false\n")) {
            ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
            assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
                .isThrownBy(() -> template.queryForList("SELECT 1", Map.of()))
                .withMessageContaining("clickhouse.tcp.settings")
                .satisfies((ex) -> assertThat(((ClickHouseErrorDetails) ex).getErrorCode()).isEqualTo(115));
        }
    }

}
