package dev.clickhousetcp.spring.autoconfigure.observation;

import java.util.List;

import dev.clickhousetcp.observe.DefaultClickHouseTcpObservationConvention;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.core.ClickHouseErrorDetails;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.IncorrectResultSizeDataAccessException;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Secrets in statements never reach what the starter records or reports: the observation's
 * {@code db.query.text}, the translated exception's message and {@code getSql()}, the template's own
 * messages. Against the real ClickHouse 26.7 server, whose {@code query_log} hides the same secrets.
 */
@ClickHouseTest
class ClickHouseTcpSecretsTests {

    private static ClickHouseServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class,
                ClickHouseTcpObservationAutoConfiguration.class, ClickHouseTcpAutoConfiguration.class))
        .withUserConfiguration(TestRegistry.class);

    @BeforeAll
    static void server(ClickHouseServer modern) {
        server = modern;
    }

    /** Statements that fail on the test server, each with a secret of another kind. */
    static final List<String> STATEMENTS = List.of(
            "CREATE USER IF NOT EXISTS u1 IDENTIFIED WITH sha256_password BY 'Secret-1'",
            "SELECT * FROM mysql('127.0.0.1:1', 'db', 'tbl', 'user', 'Secret-2')",
            "SELECT * FROM remote('127.0.0.1:1', 'db', 'tbl', 'user', 'Secret-3')",
            "CREATE NAMED COLLECTION nc_secret AS url = 'http://127.0.0.1:1', password = 'Secret-4'",
            "SELECT * FROM azureBlobStorage('DefaultEndpointsProtocol=http;AccountName=a;AccountKey=Secret-5;', 'c', 'x')");

    @Test
    void theTemplateRecordsAndReportsNoSecret() {
        this.runner.withPropertyValues("clickhouse.tcp.host=" + server.host(), "clickhouse.tcp.port=" + server.tcpPort())
            .run((context) -> {
                ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
                TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
                for (String sql : STATEMENTS) {
                    registry.clear();
                    DataAccessException ex = catchThrowableOfType(DataAccessException.class, () -> template.execute(sql));
                    assertThat(ex).as(sql).isNotNull();
                    assertThat(ex.getMessage()).as(sql).doesNotContain("Secret-").contains("[HIDDEN]");
                    assertThat(((ClickHouseErrorDetails) ex).getSql()).as(sql).doesNotContain("Secret-")
                        .contains("[HIDDEN]");
                    assertThat(registry).hasObservationWithNameEqualTo(DefaultClickHouseTcpObservationConvention.NAME)
                        .that()
                        .hasBeenStopped()
                        .hasHighCardinalityKeyValueWithKey("db.query.text")
                        .satisfies((c) -> assertThat(c.getHighCardinalityKeyValue("db.query.text").getValue())
                            .as(sql).doesNotContain("Secret-").contains("[HIDDEN]"));
                }
                // the template's own messages: no row, one column expected
                String encrypt = "SELECT encrypt('aes-256-ofb', 'text', 'Secret-6-Secret-6-Secret-6-Secre') WHERE 0";
                assertThatThrownBy(() -> template.queryForObject(encrypt, String.class))
                    .isInstanceOf(IncorrectResultSizeDataAccessException.class)
                    .satisfies((e) -> assertThat(e.getMessage()).doesNotContain("Secret-").contains("[HIDDEN]"));
            });
    }

    @Configuration(proxyBeanMethods = false)
    static class TestRegistry {

        @Bean
        TestObservationRegistry observationRegistry() {
            return TestObservationRegistry.create();
        }

    }

}
