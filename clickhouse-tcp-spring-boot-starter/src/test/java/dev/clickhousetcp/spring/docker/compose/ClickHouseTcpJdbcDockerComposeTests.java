package dev.clickhousetcp.spring.docker.compose;

import java.lang.reflect.Constructor;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import dev.clickhousetcp.jdbc.ClickHouseDriver;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import dev.clickhousetcp.spring.autoconfigure.jdbc.ClickHouseTcpJdbcAutoConfiguration;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.LegacyServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactories;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code clickhouse/clickhouse-server} compose service with clickhouse-tcp-jdbc: Spring Boot's own docker compose
 * factories (found through {@code spring.factories}, as at startup) make both its HTTP {@code JdbcConnectionDetails}
 * ({@code jdbc:clickhouse://host:<8123 mapped>/db}) and the starter's native ones from one {@link RunningService};
 * the DataSource gets the native port. Without Docker the service is the legacy test server (its native and HTTP
 * ports stand for the mapped 9000 and 8123), so the DataSource runs real queries.
 */
@ClickHouseTest
class ClickHouseTcpJdbcDockerComposeTests {

    private static ClickHouseServer legacy;

    @BeforeAll
    static void server(@LegacyServer ClickHouseServer server) {
        legacy = server;
    }

    @Test
    void theDataSourceGetsTheNativePortNotSpringBootsHttpUrl() throws Exception {
        RunningService service = new ClickHouseTcpDockerComposeConnectionDetailsFactoryTests.Service("localhost",
                Map.of(9000, legacy.tcpPort(), 8123, legacy.httpPort()),
                Map.of("CLICKHOUSE_USER", ClickHouseServer.SECRET_USER, "CLICKHOUSE_PASSWORD",
                        ClickHouseServer.SECRET_PASSWORD, "CLICKHOUSE_DB", "system"),
                Map.of());
        Map<Class<?>, ConnectionDetails> details = new ConnectionDetailsFactories(getClass().getClassLoader())
            .getConnectionDetails(source(service), false);
        JdbcConnectionDetails http = (JdbcConnectionDetails) details.get(JdbcConnectionDetails.class);
        assertThat(http.getJdbcUrl()).isEqualTo("jdbc:clickhouse://localhost:" + legacy.httpPort() + "/system");
        ClickHouseTcpConnectionDetails nativeDetails = (ClickHouseTcpConnectionDetails) details
            .get(ClickHouseTcpConnectionDetails.class);
        assertThat(nativeDetails).isNotNull();

        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class,
                    ClickHouseTcpJdbcAutoConfiguration.class, DataSourceAutoConfiguration.class,
                    JdbcTemplateAutoConfiguration.class))
            .withBean(ClickHouseTcpConnectionDetails.class, () -> nativeDetails)
            .withBean(JdbcConnectionDetails.class, () -> http)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                JdbcConnectionDetails jdbc = context.getBean(JdbcConnectionDetails.class);
                assertThat(jdbc.getJdbcUrl())
                    .isEqualTo("jdbc:clickhouse:tcp://localhost:" + legacy.tcpPort() + "/system");
                assertThat(jdbc.getDriverClassName()).isEqualTo(ClickHouseDriver.class.getName());
                assertThat(context).hasSingleBean(DataSource.class);
                JdbcTemplate template = context.getBean(JdbcTemplate.class);
                assertThat(template.queryForObject("SELECT concat(currentDatabase(), '/', version())", String.class))
                    .startsWith("system/18.16.");
                String marker = UUID.randomUUID().toString(); // 18.16 has no currentUser(): the query finds itself
                assertThat(template.queryForObject("SELECT user FROM system.processes WHERE query LIKE '%" + marker
                        + "%'", String.class)).isEqualTo(ClickHouseServer.SECRET_USER);
            });
    }

    /** Spring Boot makes a source for each running service; its constructor is not public. */
    private static DockerComposeConnectionSource source(RunningService service) throws Exception {
        Constructor<DockerComposeConnectionSource> constructor = DockerComposeConnectionSource.class
            .getDeclaredConstructor(RunningService.class, org.springframework.core.env.Environment.class);
        constructor.setAccessible(true);
        return constructor.newInstance(service, new StandardEnvironment());
    }

}
