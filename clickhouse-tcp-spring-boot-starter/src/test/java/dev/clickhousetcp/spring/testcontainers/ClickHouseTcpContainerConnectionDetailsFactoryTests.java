package dev.clickhousetcp.spring.testcontainers;

import java.util.List;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.Endpoint;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails.Node;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import org.junit.jupiter.api.Test;
import org.testcontainers.clickhouse.ClickHouseContainer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactory;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.junit.jupiter.SpringJUnitConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @ServiceConnection} on a {@link ClickHouseContainer} through Spring Boot's own machinery, with a
 * container that is never started: its host and mapped native port are the modern test server's (see
 * {@link ServerBackedClickHouseContainer}), so the connection details are used for real queries. The
 * same test with a started container runs in {@link ClickHouseTcpContainerConnectionDetailsFactoryIntegrationTests}
 * where Docker is available.
 */
@SpringJUnitConfig
@TestPropertySource(properties = { "clickhouse.tcp.endpoints=127.0.0.1:1", "clickhouse.tcp.username=nobody" })
class ClickHouseTcpContainerConnectionDetailsFactoryTests {

    static final ClickHouseServer server = ClickHouseServers.modern();

    @ServiceConnection
    static final ClickHouseContainer container = ServerBackedClickHouseContainer.ofSecretUser(server);

    @Autowired
    ApplicationContext context;

    @Test
    void connectionDetailsComeFromTheContainerAndWinOverTheProperties() {
        ClickHouseTcpConnectionDetails details = this.context.getBean(ClickHouseTcpConnectionDetails.class);
        assertThat(details).isInstanceOf(
                ClickHouseTcpContainerConnectionDetailsFactory.ClickHouseTcpContainerConnectionDetails.class);
        assertThat(details.getNodes()).containsExactly(new Node(server.host(), server.tcpPort()));
        assertThat(details.getUsername()).isEqualTo(ClickHouseServer.SECRET_USER);
        assertThat(details.getPassword()).isEqualTo(ClickHouseServer.SECRET_PASSWORD);
        assertThat(details.getDatabase()).isEqualTo("system");
        assertThat(details.getSslBundle()).isNull();
        assertThat(details.toString()).doesNotContain(ClickHouseServer.SECRET_PASSWORD);

        ClickHouseTcpClient client = this.context.getBean(ClickHouseTcpClient.class);
        assertThat(client.poolConfig().endpoints()).containsExactly(new Endpoint(server.host(), server.tcpPort()));
        assertThat(this.context.getBean(ClickHouseTcpTemplate.class)
            .queryForObject("SELECT concat(currentUser(), '/', currentDatabase())", String.class))
            .isEqualTo(ClickHouseServer.SECRET_USER + "/system");
    }

    @Test
    void springBootsJdbcConnectionDetailsForTheSameContainerStillWork() {
        // both factories accept a ClickHouseContainer; each makes its own connection details type
        assertThat(this.context.getBeansOfType(ClickHouseTcpConnectionDetails.class)).hasSize(1);
        JdbcConnectionDetails jdbc = this.context.getBean(JdbcConnectionDetails.class);
        assertThat(jdbc.getUsername()).isEqualTo(ClickHouseServer.SECRET_USER);
        assertThat(jdbc.getPassword()).isEqualTo(ClickHouseServer.SECRET_PASSWORD);
    }

    @Test
    void nodesAreTheHostAndTheMappedNativePort() {
        assertThat(ClickHouseTcpContainerConnectionDetailsFactory.nodes("docker-host",
                (port) -> (port == 9000) ? 32768 : -1))
            .containsExactly(new Node("docker-host", 32768));
        // the real container class exposes the native port this factory maps
        try (ClickHouseContainer plain = new ClickHouseContainer("clickhouse/clickhouse-server:25.8")) {
            assertThat(plain.getExposedPorts()).contains(ClickHouseTcpContainerConnectionDetailsFactory.NATIVE_PORT);
        }
    }

    @Test
    void factoryIsRegisteredInSpringFactories() {
        List<?> factories = SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
            .load(ConnectionDetailsFactory.class);
        assertThat(factories).hasAtLeastOneElementOfType(ClickHouseTcpContainerConnectionDetailsFactory.class);
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(ClickHouseTcpAutoConfiguration.class)
    static class Config {

    }

}
