package dev.clickhousetcp.spring.autoconfigure.endpoint;

import java.util.Map;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseEndpoint;
import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseEndpoint.ClickHouseClientDescriptor;
import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseEndpoint.EndpointDescriptor;
import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseEndpointWebExtension;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseEndpointAutoConfiguration} and what {@link ClickHouseEndpoint} reports, against the
 * real server.
 */
@ClickHouseTest
class ClickHouseEndpointAutoConfigurationTests {

    private static ClickHouseServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class,
                ClickHouseEndpointAutoConfiguration.class))
        .withPropertyValues("management.endpoints.web.exposure.include=clickhouse");

    @BeforeAll
    static void server(ClickHouseServer modern) {
        server = modern;
    }

    private String[] connection() {
        return new String[] { "clickhouse.tcp.host=" + server.host(), "clickhouse.tcp.port=" + server.tcpPort() };
    }

    @Test
    void registersEndpointAndWebExtension() {
        this.runner.withPropertyValues(connection())
            .run((context) -> assertThat(context).hasSingleBean(ClickHouseEndpoint.class)
                .hasSingleBean(ClickHouseEndpointWebExtension.class));
    }

    @Test
    void serverIsUnknownUntilThePoolConnectsAndTheEndpointNeverConnects() {
        this.runner.withPropertyValues(connection()).run((context) -> {
            ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
            ClickHouseClientDescriptor before = only(context.getBean(ClickHouseEndpoint.class));
            EndpointDescriptor endpoint = before.endpoints().get(0);
            assertThat(endpoint.endpoint()).isEqualTo(server.host() + ":" + server.tcpPort());
            assertThat(endpoint.status()).isEqualTo(ClickHouseEndpoint.STATUS_UNKNOWN);
            assertThat(endpoint.server()).isNull();
            assertThat(client.poolStats().created()).isZero();

            String version = client.queryRows("SELECT version()").get(0)[0].toString();
            String timezone = client.queryRows("SELECT timezone()").get(0)[0].toString();
            ClickHouseClientDescriptor after = only(context.getBean(ClickHouseEndpoint.class));
            EndpointDescriptor known = after.endpoints().get(0);
            assertThat(known.status()).isEqualTo(ClickHouseEndpoint.STATUS_KNOWN);
            assertThat(known.server()).isNotNull();
            assertThat(version).startsWith(known.server().version());
            assertThat(known.server().timezone()).isEqualTo(timezone);
            assertThat(known.server().name()).isEqualTo("ClickHouse");
            assertThat(known.server().negotiatedRevision()).isPositive()
                .isLessThanOrEqualTo(known.server().serverRevision());
            assertThat(after.pool().created()).isEqualTo(1);
            assertThat(after.pool().idle()).isEqualTo(1);
            assertThat(after.pool().acquisitions()).isEqualTo(2);
            assertThat(after.pool().max()).isEqualTo(20);
            assertThat(client.poolStats().created()).as("reading the endpoint opened no connection").isEqualTo(1);
        });
    }

    @Test
    void configurationIsMaskedByDefault() {
        this.runner.withPropertyValues(connection())
            .withPropertyValues("clickhouse.tcp.username=" + ClickHouseServer.SECRET_USER,
                    "clickhouse.tcp.password=" + ClickHouseServer.SECRET_PASSWORD,
                    "clickhouse.tcp.settings.max_threads=2", "clickhouse.tcp.pool.max-size=3",
                    "clickhouse.tcp.query.timeout=5s")
            .run((context) -> {
                Map<String, Object> configuration = only(context.getBean(ClickHouseEndpoint.class)).configuration();
                assertThat(configuration).containsEntry("username", "******")
                    .containsEntry("password", "******")
                    .containsEntry("database", "******")
                    .containsEntry("client-name", "******")
                    .containsEntry("settings", Map.of("max_threads", "******"))
                    .containsEntry("compression", "LZ4")
                    .containsEntry("endpoints", java.util.List.of(server.host() + ":" + server.tcpPort()));
                assertThat(configuration.get("pool")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                    .containsEntry("max-size", 3)
                    .containsEntry("acquire-timeout", "PT30S");
                assertThat(configuration).containsEntry("query", Map.of("timeout", "PT5S"));
                assertThat(configuration.toString()).doesNotContain(ClickHouseServer.SECRET_PASSWORD);
            });
    }

    @Test
    void showValuesAlwaysShowsTheValuesButNeverThePassword() {
        this.runner.withPropertyValues(connection())
            .withPropertyValues("management.endpoint.clickhouse.show-values=always",
                    "clickhouse.tcp.username=" + ClickHouseServer.SECRET_USER,
                    "clickhouse.tcp.password=" + ClickHouseServer.SECRET_PASSWORD,
                    "clickhouse.tcp.settings.max_threads=2", "clickhouse.tcp.settings.log_comment=orders")
            .run((context) -> {
                Map<String, Object> configuration = only(context.getBean(ClickHouseEndpoint.class)).configuration();
                assertThat(configuration).containsEntry("username", ClickHouseServer.SECRET_USER)
                    .containsEntry("password", "******")
                    .containsEntry("database", "default")
                    .containsEntry("client-name", "clickhouse-tcp")
                    .containsEntry("settings", Map.of("max_threads", "2", "log_comment", "orders"));
                assertThat(configuration.toString()).doesNotContain(ClickHouseServer.SECRET_PASSWORD);
            });
    }

    @Test
    void withoutPasswordThereIsNoPasswordEntry() {
        this.runner.withPropertyValues(connection())
            .run((context) -> assertThat(only(context.getBean(ClickHouseEndpoint.class)).configuration())
                .doesNotContainKey("password")
                .doesNotContainKey("query"));
    }

    @Test
    void sanitizingFunctionsApplyToShownValues() {
        this.runner.withPropertyValues(connection())
            .withPropertyValues("management.endpoint.clickhouse.show-values=always",
                    "clickhouse.tcp.settings.max_threads=2", "clickhouse.tcp.settings.log_comment=orders")
            .withBean("maskSettings", SanitizingFunction.class,
                    () -> SanitizingFunction.sanitizeValue().ifKeyEquals("clickhouse.tcp.settings.log_comment"))
            .run((context) -> assertThat(only(context.getBean(ClickHouseEndpoint.class)).configuration())
                .containsEntry("username", "default")
                .containsEntry("settings", Map.of("max_threads", "2", "log_comment", "******")));
    }

    @Test
    void severalClientsAreKeyedByBeanName() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ClickHouseEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=clickhouse")
            .withBean("ordersClient", ClickHouseTcpClient.class,
                    () -> ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort()).maxPoolSize(2).build())
            .withBean("eventsClient", ClickHouseTcpClient.class,
                    () -> ClickHouseTcpClient.builder().host("127.0.0.1").port(1).maxPoolSize(5).build())
            .run((context) -> {
                ClickHouseEndpoint endpoint = context.getBean(ClickHouseEndpoint.class);
                Map<String, ClickHouseClientDescriptor> clients = endpoint.clickhouse().clients();
                assertThat(clients.keySet()).containsExactly("eventsClient", "ordersClient");
                assertThat(clients.get("ordersClient").pool().max()).isEqualTo(2);
                assertThat(clients.get("eventsClient").pool().max()).isEqualTo(5);
                assertThat(clients.get("eventsClient").endpoints().get(0).endpoint()).isEqualTo("127.0.0.1:1");
                assertThat(endpoint.clickhouseClient("ordersClient")).isNotNull();
                assertThat(endpoint.clickhouseClient("missing")).isNull();
            });
    }

    @Test
    void absentWithoutClient() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ClickHouseEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=clickhouse")
            .run((context) -> assertThat(context).doesNotHaveBean(ClickHouseEndpoint.class)
                .doesNotHaveBean(ClickHouseEndpointWebExtension.class));
    }

    @Test
    void absentWhenNotExposed() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class,
                    ClickHouseEndpointAutoConfiguration.class))
            .withPropertyValues(connection())
            .run((context) -> assertThat(context).doesNotHaveBean(ClickHouseEndpoint.class));
    }

    @Test
    void absentWhenAccessIsNone() {
        this.runner.withPropertyValues(connection())
            .withPropertyValues("management.endpoint.clickhouse.access=NONE")
            .run((context) -> assertThat(context).doesNotHaveBean(ClickHouseEndpoint.class));
    }

    @Test
    void backsOffForUserEndpoint() {
        this.runner.withPropertyValues(connection())
            .withBean("mine", ClickHouseEndpoint.class,
                    () -> new ClickHouseEndpoint(Map.of(), java.util.List.of(),
                            org.springframework.boot.actuate.endpoint.Show.NEVER))
            .run((context) -> assertThat(context).hasSingleBean(ClickHouseEndpoint.class).hasBean("mine"));
    }

    private static ClickHouseClientDescriptor only(ClickHouseEndpoint endpoint) {
        Map<String, ClickHouseClientDescriptor> clients = endpoint.clickhouse().clients();
        assertThat(clients).hasSize(1);
        return clients.values().iterator().next();
    }

}
