package dev.clickhousetcp.spring.autoconfigure.observation;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.observe.ClickHouseTcpObservationContext;
import dev.clickhousetcp.observe.ClickHouseTcpObservationConvention;
import dev.clickhousetcp.observe.DefaultClickHouseTcpObservationConvention;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseTcpObservationAutoConfiguration} with Spring Boot's observation auto-configuration,
 * against the real ClickHouse 26.7 server.
 */
@ClickHouseTest
class ClickHouseTcpObservationAutoConfigurationTests {

    private static ClickHouseServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class,
                ClickHouseTcpObservationAutoConfiguration.class, ClickHouseTcpAutoConfiguration.class));

    @BeforeAll
    static void server(ClickHouseServer modern) {
        server = modern;
    }

    private ApplicationContextRunner connected() {
        return this.runner.withPropertyValues("clickhouse.tcp.host=" + server.host(),
                "clickhouse.tcp.port=" + server.tcpPort())
            .withUserConfiguration(TestRegistry.class);
    }

    @Test
    void theClientIsObservedThroughTheRegistryBean() {
        connected().run((context) -> {
            assertThat(context).hasSingleBean(ClickHouseTcpObservationAutoConfiguration.class);
            ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
            assertThat(client.isObserved()).isTrue();
            assertThat(client.name()).isEqualTo("clickHouseTcpClient");
            context.getBean(ClickHouseTcpTemplate.class).queryForList("SELECT number FROM numbers(3)");
            TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
            assertThat(registry).hasObservationWithNameEqualTo(DefaultClickHouseTcpObservationConvention.NAME)
                .that()
                .hasBeenStopped()
                .hasLowCardinalityKeyValue("clickhouse.client.name", "clickHouseTcpClient")
                .hasLowCardinalityKeyValue("db.operation.name", "SELECT")
                .hasHighCardinalityKeyValue("db.query.text", "SELECT number FROM numbers(3)")
                .hasHighCardinalityKeyValue("db.response.returned_rows", "3");
        });
    }

    @Test
    void queryTextCanBeTurnedOff() {
        connected().withPropertyValues("management.observations.clickhousetcp.include-query-text=false")
            .run((context) -> {
                context.getBean(ClickHouseTcpClient.class).queryRows("SELECT 1");
                assertThat(context.getBean(TestObservationRegistry.class))
                    .hasObservationWithNameEqualTo(DefaultClickHouseTcpObservationConvention.NAME)
                    .that()
                    .doesNotHaveHighCardinalityKeyValueWithKey("db.query.text")
                    .hasHighCardinalityKeyValueWithKey("clickhouse.query_id");
            });
    }

    @Test
    void aConventionBeanReplacesTheDefault() {
        connected().withUserConfiguration(CustomConvention.class).run((context) -> {
            context.getBean(ClickHouseTcpClient.class).ping();
            assertThat(context.getBean(TestObservationRegistry.class)).hasObservationWithNameEqualTo("custom.ch")
                .that()
                .hasContextualNameEqualTo("custom PING")
                .hasLowCardinalityKeyValue("team", "analytics")
                .hasLowCardinalityKeyValue("db.system.name", "clickhouse");
        });
    }

    @Test
    void withoutAnObservationRegistryNothingChanges() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ClickHouseTcpObservationAutoConfiguration.class,
                    ClickHouseTcpAutoConfiguration.class))
            .withPropertyValues("clickhouse.tcp.host=" + server.host(), "clickhouse.tcp.port=" + server.tcpPort())
            .run((context) -> {
                assertThat(context).doesNotHaveBean(ClickHouseTcpObservationAutoConfiguration.class)
                    .doesNotHaveBean(ObservationRegistry.class);
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(client.isObserved()).isFalse();
                assertThat(client.queryRows("SELECT 1")).hasSize(1);
            });
    }

    @Test
    void thePropertyIsDocumented() throws IOException {
        String json;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Map<String, Object>> properties = JsonPath
            .read(json, "$.properties[?(@.name == 'management.observations.clickhousetcp.include-query-text')]");
        assertThat(properties).hasSize(1);
        Map<String, Object> property = properties.get(0);
        String row = "| `management.observations.clickhousetcp.include-query-text` | Boolean | `"
                + property.get("defaultValue") + "` | " + property.get("description") + " |";
        assertThat(Files.readAllLines(Path.of("..", "docs", "observability.md"), StandardCharsets.UTF_8)).contains(row);
    }

    @Configuration(proxyBeanMethods = false)
    static class TestRegistry {

        @Bean
        TestObservationRegistry observationRegistry() {
            return TestObservationRegistry.create();
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class CustomConvention {

        @Bean
        ClickHouseTcpObservationConvention customConvention() {
            return new DefaultClickHouseTcpObservationConvention(true) {
                @Override
                public String getName() {
                    return "custom.ch";
                }

                @Override
                public String getContextualName(ClickHouseTcpObservationContext context) {
                    return "custom " + super.getContextualName(context);
                }

                @Override
                public KeyValues getLowCardinalityKeyValues(ClickHouseTcpObservationContext context) {
                    return super.getLowCardinalityKeyValues(context).and(KeyValue.of("team", "analytics"));
                }
            };
        }

    }

}
