package dev.clickhousetcp.spring.autoconfigure;

import java.util.List;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.Endpoint;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails.Node;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the connection details come from: {@code clickhouse.tcp.url}, the explicit properties that
 * override its parts, and a {@link ClickHouseTcpConnectionDetails} bean that replaces them all.
 */
@ClickHouseTest
class ClickHouseTcpConnectionDetailsTests {

    private static ClickHouseServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class));

    @BeforeAll
    static void server(ClickHouseServer modern) {
        server = modern;
    }

    private String url(String userInfo, String rest) {
        return "clickhouse://" + userInfo + server.host() + ":" + server.tcpPort() + rest;
    }

    @Test
    void defaultsAreLocalhost9000AsDefaultUser() {
        this.runner.run((context) -> {
            ClickHouseTcpConnectionDetails details = context.getBean(ClickHouseTcpConnectionDetails.class);
            assertThat(details.getNodes()).containsExactly(new Node("localhost", 9000));
            assertThat(details.getUsername()).isEqualTo("default");
            assertThat(details.getPassword()).isNull();
            assertThat(details.getDatabase()).isEqualTo("default");
            assertThat(details.getSslBundle()).isNull();
        });
    }

    @Test
    void urlConfiguresTheConnectionAndTheClient() {
        String url = url(ClickHouseServer.SECRET_USER + ":" + ClickHouseServer.SECRET_PASSWORD + "@",
                "/system?max_threads=3&compression=zstd&zstd_level=2&client_name=from-url");
        this.runner.withPropertyValues("clickhouse.tcp.url=" + url).run((context) -> {
            ClickHouseTcpConnectionDetails details = context.getBean(ClickHouseTcpConnectionDetails.class);
            assertThat(details.getNodes()).containsExactly(new Node(server.host(), server.tcpPort()));
            assertThat(details.getUsername()).isEqualTo(ClickHouseServer.SECRET_USER);
            assertThat(details.getDatabase()).isEqualTo("system");
            ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
            assertThat(client.config().compression()).isEqualTo(dev.clickhousetcp.client.Compression.zstd(2));
            assertThat(client.config().clientName()).isEqualTo("from-url");
            ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
            assertThat(template.queryForObject(
                    "SELECT concat(currentUser(), '/', currentDatabase(), '/', toString(getSetting('max_threads')))",
                    String.class))
                .isEqualTo(ClickHouseServer.SECRET_USER + "/system/3");
            assertThat(context.getBean(ClickHouseTcpProperties.class).toString())
                .doesNotContain(ClickHouseServer.SECRET_PASSWORD)
                .contains("clickhouse://" + ClickHouseServer.SECRET_USER + ":***@");
            assertThat(details.toString()).doesNotContain(ClickHouseServer.SECRET_PASSWORD);
        });
    }

    @Test
    void explicitPropertiesOverrideTheUrlsParts() {
        String url = "clickhouse://nobody:wrong@192.0.2.1:1,192.0.2.2/nodb?max_threads=2&client_name=from-url"
                + "&compression=lz4";
        this.runner
            .withPropertyValues("clickhouse.tcp.url=" + url, "clickhouse.tcp.host=" + server.host(),
                    "clickhouse.tcp.port=" + server.tcpPort(), "clickhouse.tcp.username=" + ClickHouseServer.SECRET_USER,
                    "clickhouse.tcp.password=" + ClickHouseServer.SECRET_PASSWORD, "clickhouse.tcp.database=system",
                    "clickhouse.tcp.client-name=from-properties", "clickhouse.tcp.compression=none",
                    "clickhouse.tcp.settings.max_threads=5")
            .run((context) -> {
                ClickHouseTcpConnectionDetails details = context.getBean(ClickHouseTcpConnectionDetails.class);
                assertThat(details.getNodes()).containsExactly(new Node(server.host(), server.tcpPort()));
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(client.config().clientName()).isEqualTo("from-properties");
                assertThat(client.config().compression()).isEqualTo(dev.clickhousetcp.client.Compression.NONE);
                assertThat(client.config().settings()).containsEntry("max_threads", "5");
                assertThat(context.getBean(ClickHouseTcpTemplate.class)
                    .queryForObject("SELECT concat(currentUser(), '/', currentDatabase())", String.class))
                    .isEqualTo(ClickHouseServer.SECRET_USER + "/system");
            });
    }

    @Test
    void portOverridesThePortsOfTheUrlsHosts() {
        this.runner.withPropertyValues("clickhouse.tcp.url=clickhouse://a:1,b/db", "clickhouse.tcp.port=9123")
            .run((context) -> assertThat(context.getBean(ClickHouseTcpConnectionDetails.class).getNodes())
                .containsExactly(new Node("a", 9123), new Node("b", 9123)));
    }

    @Test
    void endpointsReplaceHostPortAndTheUrlsHosts() {
        this.runner
            .withPropertyValues("clickhouse.tcp.url=clickhouse://a:1/db", "clickhouse.tcp.host=h",
                    "clickhouse.tcp.endpoints=e1,e2:9001,[::1]:9002")
            .run((context) -> {
                assertThat(context.getBean(ClickHouseTcpConnectionDetails.class).getNodes())
                    .containsExactly(new Node("e1", 9000), new Node("e2", 9001), new Node("::1", 9002));
                assertThat(context.getBean(ClickHouseTcpClient.class).poolConfig().endpoints())
                    .containsExactly(new Endpoint("e1", 9000), new Endpoint("e2", 9001), new Endpoint("::1", 9002));
            });
    }

    @Test
    void portDefaultsTo9440WithTls() {
        this.runner.withPropertyValues("clickhouse.tcp.host=ch.example.org", "clickhouse.tcp.ssl.enabled=true")
            .run((context) -> {
                ClickHouseTcpConnectionDetails details = context.getBean(ClickHouseTcpConnectionDetails.class);
                assertThat(details.getNodes()).containsExactly(new Node("ch.example.org", 9440));
                assertThat(details.getSslBundle()).isNotNull();
                assertThat(context.getBean(ClickHouseTcpClient.class).config().tls()).isNotNull();
            });
        this.runner.withPropertyValues("clickhouse.tcp.url=clickhouse://a,b:9441?secure=true").run((context) -> {
            assertThat(context.getBean(ClickHouseTcpConnectionDetails.class).getNodes())
                .containsExactly(new Node("a", 9440), new Node("b", 9441));
            assertThat(context.getBean(ClickHouseTcpClient.class).config().tls()).isNotNull();
        });
        // an explicit ssl.enabled=false wins over the URL
        this.runner.withPropertyValues("clickhouse.tcp.url=clickhouse://a?secure=true", "clickhouse.tcp.ssl.enabled=false")
            .run((context) -> {
                assertThat(context.getBean(ClickHouseTcpConnectionDetails.class).getNodes())
                    .containsExactly(new Node("a", 9000));
                assertThat(context.getBean(ClickHouseTcpClient.class).config().tls()).isNull();
            });
    }

    @Test
    void connectionDetailsBeanWinsOverEveryConnectionProperty() {
        // every connection property points nowhere; the bean points at the server
        this.runner
            .withPropertyValues("clickhouse.tcp.url=clickhouse://u:p@192.0.2.1:1/nodb", "clickhouse.tcp.host=127.0.0.1",
                    "clickhouse.tcp.port=1", "clickhouse.tcp.endpoints=127.0.0.1:1,127.0.0.1:2",
                    "clickhouse.tcp.username=nobody", "clickhouse.tcp.database=nodb")
            .withBean(ClickHouseTcpConnectionDetails.class, () -> new ClickHouseTcpConnectionDetails() {
                @Override
                public List<Node> getNodes() {
                    return List.of(new Node(server.host(), server.tcpPort()));
                }

                @Override
                public String getUsername() {
                    return ClickHouseServer.SECRET_USER;
                }

                @Override
                public String getPassword() {
                    return ClickHouseServer.SECRET_PASSWORD;
                }

                @Override
                public String getDatabase() {
                    return "system";
                }
            })
            .run((context) -> {
                assertThat(context).doesNotHaveBean(PropertiesClickHouseTcpConnectionDetails.class);
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(client.poolConfig().endpoints())
                    .containsExactly(new Endpoint(server.host(), server.tcpPort()));
                assertThat(context.getBean(ClickHouseTcpTemplate.class)
                    .queryForObject("SELECT concat(currentUser(), '/', currentDatabase())", String.class))
                    .isEqualTo(ClickHouseServer.SECRET_USER + "/system");
            });
    }

    @Test
    void withAConnectionDetailsBeanTheUrlStillGivesSettingsAndClientOptions() {
        // as with a @ServiceConnection in tests and the application's url in application.yml
        this.runner
            .withPropertyValues("clickhouse.tcp.url=clickhouse://u:p@192.0.2.1:1/nodb?secure=true&compression=zstd"
                    + "&client_name=from-url&max_threads=3")
            .withBean(ClickHouseTcpConnectionDetails.class,
                    () -> () -> List.of(new Node(server.host(), server.tcpPort())))
            .run((context) -> {
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(client.poolConfig().endpoints())
                    .containsExactly(new Endpoint(server.host(), server.tcpPort()));
                assertThat(client.config().tls()).as("TLS comes from the bean's getSslBundle()").isNull();
                assertThat(client.config().user()).isEqualTo("default");
                assertThat(client.config().database()).isEqualTo("default");
                assertThat(client.config().compression()).isEqualTo(dev.clickhousetcp.client.Compression.ZSTD);
                assertThat(client.config().clientName()).isEqualTo("from-url");
                assertThat(context.getBean(ClickHouseTcpTemplate.class)
                    .queryForObject("SELECT getSetting('max_threads')", Long.class)).isEqualTo(3L);
            });
    }

    @Test
    void connectionDetailsWithSeveralNodesBecomeEndpoints() {
        this.runner
            .withBean(ClickHouseTcpConnectionDetails.class,
                    () -> () -> List.of(new Node("127.0.0.1", 1), new Node(server.host(), server.tcpPort())))
            .run((context) -> {
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(client.poolConfig().endpoints()).containsExactly(new Endpoint("127.0.0.1", 1),
                        new Endpoint(server.host(), server.tcpPort()));
                client.ping();
            });
    }

    @Test
    void connectionDetailsWithoutNodesFailClearly() {
        this.runner.withBean(ClickHouseTcpConnectionDetails.class, () -> List::of).run((context) -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                .isInstanceOf(ClickHouseTcpConfigurationException.class)
                .hasMessageContaining("name no server");
        });
    }

}
