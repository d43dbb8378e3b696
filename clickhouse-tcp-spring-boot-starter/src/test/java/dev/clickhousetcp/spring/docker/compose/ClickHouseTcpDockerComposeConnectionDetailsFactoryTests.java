package dev.clickhousetcp.spring.docker.compose;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails.Node;
import dev.clickhousetcp.spring.docker.compose.ClickHouseTcpDockerComposeConnectionDetailsFactory.ClickHouseTcpDockerComposeConnectionDetails;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.LegacyServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactory;
import org.springframework.boot.docker.compose.core.ConnectionPorts;
import org.springframework.boot.docker.compose.core.ImageReference;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The connection details of a {@code clickhouse/clickhouse-server} compose service, from a
 * {@link RunningService} as Spring Boot's docker compose support describes one. Without Docker the
 * service is the legacy test server: its ports stand for the container's mapped 9000 and 9440, so the
 * details are used for real connections, plain and over TLS.
 */
@ClickHouseTest
class ClickHouseTcpDockerComposeConnectionDetailsFactoryTests {

    private static ClickHouseServer legacy;

    @BeforeAll
    static void server(@LegacyServer ClickHouseServer server) {
        legacy = server;
    }

    @Test
    void nodeUserPasswordAndDatabaseComeFromTheService() {
        RunningService service = new Service("localhost", Map.of(9000, legacy.tcpPort()),
                Map.of("CLICKHOUSE_USER", ClickHouseServer.SECRET_USER, "CLICKHOUSE_PASSWORD",
                        ClickHouseServer.SECRET_PASSWORD, "CLICKHOUSE_DB", "system"),
                Map.of());
        ClickHouseTcpConnectionDetails details = new ClickHouseTcpDockerComposeConnectionDetails(service);
        assertThat(details.getNodes()).containsExactly(new Node("localhost", legacy.tcpPort()));
        assertThat(details.getUsername()).isEqualTo(ClickHouseServer.SECRET_USER);
        assertThat(details.getPassword()).isEqualTo(ClickHouseServer.SECRET_PASSWORD);
        assertThat(details.getDatabase()).isEqualTo("system");
        assertThat(details.getSslBundle()).isNull();
        assertThat(details.toString()).doesNotContain(ClickHouseServer.SECRET_PASSWORD);
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class))
            .withBean(ClickHouseTcpConnectionDetails.class, () -> details)
            .run((context) -> {
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(user(client)).isEqualTo(ClickHouseServer.SECRET_USER);
                assertThat(client.queryRows("SELECT currentDatabase()").get(0)[0]).isEqualTo("system");
            });
    }

    @Test
    void sslBundleLabelsSelectTheTlsPort() {
        String ca = legacy.serverCertificatePem().orElseThrow().getParent().resolve("ca.crt").toString();
        RunningService service = new Service("localhost", Map.of(9000, legacy.tcpPort(), 9440, legacy.tlsPort()),
                Map.of("ALLOW_EMPTY_PASSWORD", "yes"),
                Map.of("org.springframework.boot.sslbundle.pem.truststore.certificate", "file:" + ca));
        ClickHouseTcpConnectionDetails details = new ClickHouseTcpDockerComposeConnectionDetails(service);
        assertThat(details.getNodes()).containsExactly(new Node("localhost", legacy.tlsPort()));
        assertThat(details.getSslBundle()).isNotNull();
        assertThat(details.getUsername()).isEqualTo("default");
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class))
            .withBean(ClickHouseTcpConnectionDetails.class, () -> details)
            .run((context) -> {
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(client.config().tls()).isNotNull();
                assertThat(user(client)).isEqualTo("default");
            });
    }

    @Test
    void serviceWithoutPasswordIsRefused() {
        RunningService service = new Service("localhost", Map.of(9000, 9000), Map.of(), Map.of());
        assertThatIllegalStateException().isThrownBy(() -> new ClickHouseTcpDockerComposeConnectionDetails(service))
            .withMessageContaining("No ClickHouse password");
    }

    @Test
    void serviceWithoutTheNativePortIsRefused() {
        RunningService service = new Service("localhost", Map.of(8123, 32768), Map.of("ALLOW_EMPTY_PASSWORD", "1"),
                Map.of());
        assertThatIllegalStateException().isThrownBy(() -> new ClickHouseTcpDockerComposeConnectionDetails(service));
    }

    @Test
    void factoryIsRegisteredInSpringFactories() {
        List<?> factories = SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
            .load(ConnectionDetailsFactory.class);
        assertThat(factories).hasAtLeastOneElementOfType(ClickHouseTcpDockerComposeConnectionDetailsFactory.class);
    }

    private static String user(ClickHouseTcpClient client) {
        String id = "compose-" + UUID.randomUUID();
        return (String) client.queryRows("SELECT user FROM system.processes WHERE query_id = '" + id + "'",
                QueryOptions.builder().queryId(id).build()).get(0)[0];
    }

    /** A compose service as Spring Boot's docker compose support reports it. */
    record Service(String host, Map<Integer, Integer> mappedPorts, Map<String, @Nullable String> env,
            Map<String, String> labels) implements RunningService {

        @Override
        public String name() {
            return "clickhouse";
        }

        @Override
        public ImageReference image() {
            return ImageReference.of("clickhouse/clickhouse-server:25.8");
        }

        @Override
        public ConnectionPorts ports() {
            return new ConnectionPorts() {
                @Override
                public int get(int containerPort) {
                    Integer port = Service.this.mappedPorts.get(containerPort);
                    if (port == null) {
                        throw new IllegalStateException("No host port mapping found for container port " + containerPort);
                    }
                    return port;
                }

                @Override
                public List<Integer> getAll() {
                    return new ArrayList<>(Service.this.mappedPorts.values());
                }

                @Override
                public List<Integer> getAll(@Nullable String protocol) {
                    return getAll();
                }
            };
        }

    }

}
