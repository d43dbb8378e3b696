package dev.clickhousetcp.spring.actuate.jdbc;

import java.sql.Connection;

import javax.sql.DataSource;

import com.jayway.jsonpath.JsonPath;
import com.zaxxer.hikari.HikariDataSource;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.jdbc.ClickHouseClientDataSource;
import dev.clickhousetcp.jdbc.ClickHouseDriver;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * AT-02: a fully auto-configured web application with the starter, the actuator module and clickhouse-tcp-jdbc,
 * no ClickHouse HTTP driver, against the real ClickHouse 26.7 server. With only {@code spring.datasource.url}, the
 * DataSource is HikariCP over {@link ClickHouseDriver} and {@code /actuator/health} shows {@code db} UP; with
 * {@code clickhouse.tcp.jdbc.enabled=true} the DataSource borrows from the client's pool, which its pool meters show.
 */
@ClickHouseTest
class ClickHouseTcpJdbcBootIntegrationTests {

    private static ClickHouseServer server;

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
        .withUserConfiguration(App.class)
        .withPropertyValues("management.endpoints.web.exposure.include=health",
                "management.endpoint.health.show-details=always");

    @BeforeAll
    static void server(ClickHouseServer modern) {
        server = modern;
    }

    @Test
    void springDatasourceUrlAloneStartsHikariOverThisDriverAndDbIsUp() throws Exception {
        assertThat(ClassUtils.isPresent("com.clickhouse.jdbc.Driver", null)).isFalse();
        assertThat(ClassUtils.isPresent("com.clickhouse.jdbc.ClickHouseDriver", null)).isFalse();
        this.runner
            .withPropertyValues("spring.datasource.url=jdbc:clickhouse:tcp://" + server.host() + ":" + server.tcpPort()
                    + "/default")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                HikariDataSource dataSource = (HikariDataSource) context.getBean(DataSource.class);
                assertThat(dataSource.getDriverClassName()).isEqualTo(ClickHouseDriver.class.getName());
                try (Connection connection = dataSource.getConnection()) {
                    assertThat(connection.getMetaData().getDriverName()).isEqualTo(ClickHouseDriver.NAME);
                }
                // the db component (the whole health also holds this runner's DOWN liveness)
                String health = getJson(context, "/actuator/health/db");
                assertThat(JsonPath.<String>read(health, "$.status")).isEqualTo("UP");
                assertThat(JsonPath.<String>read(health, "$.details.database")).isEqualTo("ClickHouse");
            });
    }

    @Test
    void springDatasourceAloneAlsoPointsTheNativeClientAtItsServerAndBothAreUp() throws Exception {
        this.runner
            .withPropertyValues("spring.datasource.url=jdbc:clickhouse:tcp://" + server.host() + ":" + server.tcpPort()
                    + "/system", "spring.datasource.username=" + ClickHouseServer.SECRET_USER,
                    "spring.datasource.password=" + ClickHouseServer.SECRET_PASSWORD)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                String health = getJson(context, "/actuator/health");
                assertThat(JsonPath.<String>read(health, "$.components.db.status")).isEqualTo("UP");
                assertThat(JsonPath.<String>read(health, "$.components.clickHouseTcp.status")).isEqualTo("UP");
                assertThat(health).doesNotContain(ClickHouseServer.SECRET_PASSWORD);
                Object[] row = context.getBean(ClickHouseTcpClient.class)
                    .queryRows("SELECT currentUser(), currentDatabase(), tcpPort()").get(0);
                assertThat(row[0]).isEqualTo(ClickHouseServer.SECRET_USER);
                assertThat(row[1]).isEqualTo("system");
                assertThat(String.valueOf(row[2])).isEqualTo(String.valueOf(server.tcpPort()));
            });
    }

    @Test
    void dataSourceOverTheClientIsUpAndCountedByThePoolMeters() throws Exception {
        this.runner
            .withPropertyValues("clickhouse.tcp.host=" + server.host(), "clickhouse.tcp.port=" + server.tcpPort(),
                    "clickhouse.tcp.jdbc.enabled=true")
            .run((context) -> {
                assertThat(context).hasNotFailed().doesNotHaveBean(HikariDataSource.class);
                ClickHouseClientDataSource dataSource = context.getBean(ClickHouseClientDataSource.class);
                assertThat(dataSource.getClient()).isSameAs(context.getBean(ClickHouseTcpClient.class));
                String health = getJson(context, "/actuator/health");
                assertThat(JsonPath.<String>read(health, "$.components.db.status")).isEqualTo("UP");
                assertThat(JsonPath.<String>read(health, "$.components.db.details.database")).isEqualTo("ClickHouse");
                assertThat(JsonPath.<String>read(health, "$.components.clickHouseTcp.status")).isEqualTo("UP");

                MeterRegistry registry = context.getBean(MeterRegistry.class);
                double before = registry.get("clickhouse.tcp.pool.active").gauge().value();
                try (Connection connection = dataSource.getConnection()) {
                    assertThat(registry.get("clickhouse.tcp.pool.active").gauge().value()).isEqualTo(before + 1);
                    assertThat(JdbcClient.create(dataSource).sql("SELECT 1").query(Integer.class).single()).isOne();
                    assertThat(connection.isValid(1)).isTrue();
                }
                assertThat(registry.get("clickhouse.tcp.pool.active").gauge().value()).isEqualTo(before);
            });
    }

    /** The JSON of {@code path}, whatever the HTTP status (the whole health is 503 when any component is down). */
    private static String getJson(AssertableWebApplicationContext context, String path) throws Exception {
        MvcResult result = MockMvcBuilders.webAppContextSetup(context).build().perform(get(path)).andReturn();
        return result.getResponse().getContentAsString();
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {

    }

}
