package dev.clickhousetcp.spring.autoconfigure;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.core.ClickHouseTcpExceptionTranslator;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.LegacyServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.PermissionDeniedDataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link ClickHouseTcpAutoConfiguration} against the real ClickHouse 26.7 server.
 */
@ClickHouseTest
class ClickHouseTcpAutoConfigurationTests {

    private static final String SECRET = "not-the-real-pw-1234";

    private static ClickHouseServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class));

    @BeforeAll
    static void server(ClickHouseServer modern) {
        server = modern;
    }

    private ApplicationContextRunner connected() {
        return this.runner.withPropertyValues("clickhouse.tcp.host=" + server.host(),
                "clickhouse.tcp.port=" + server.tcpPort());
    }

    @Test
    void contextLoadsAndClientPings() {
        connected().run((context) -> {
            assertThat(context).hasSingleBean(ClickHouseTcpClient.class)
                .hasSingleBean(ClickHouseTcpTemplate.class)
                .hasSingleBean(ClickHouseTcpProperties.class)
                .hasSingleBean(PropertiesClickHouseTcpConnectionDetails.class);
            ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
            client.ping();
            assertThat(client.serverInfo().versionMajor()).isEqualTo(26);
            assertThat(context.getBean(ClickHouseTcpTemplate.class).getClient()).isSameAs(client);
        });
    }

    @Test
    void contextStartsWithoutServerBecausePoolIsLazy() {
        this.runner.withPropertyValues("clickhouse.tcp.host=127.0.0.1", "clickhouse.tcp.port=1").run((context) -> {
            assertThat(context).hasNotFailed().hasSingleBean(ClickHouseTcpClient.class);
            ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
            assertThatExceptionOfType(DataAccessResourceFailureException.class)
                .isThrownBy(() -> template.execute("SELECT 1"));
        });
    }

    @Test
    void propertiesConfigureTheClient() {
        connected()
            .withPropertyValues("clickhouse.tcp.database=system", "clickhouse.tcp.client-name=starter-test",
                    "clickhouse.tcp.connection.connect-timeout=3s", "clickhouse.tcp.connection.handshake-timeout=4s",
                    "clickhouse.tcp.connection.socket-timeout=5s", "clickhouse.tcp.pool.max-size=7",
                    "clickhouse.tcp.pool.acquire-timeout=2s", "clickhouse.tcp.insert.block-rows=1000",
                    "clickhouse.tcp.connection.block-buffer-pool-size=8MB")
            .run((context) -> {
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(client.config().database()).isEqualTo("system");
                assertThat(client.config().clientName()).isEqualTo("starter-test");
                assertThat(client.config().connectTimeout()).isEqualTo(Duration.ofSeconds(3));
                assertThat(client.config().handshakeTimeout()).isEqualTo(Duration.ofSeconds(4));
                assertThat(client.config().socketTimeout()).isEqualTo(Duration.ofSeconds(5));
                assertThat(client.poolStats().maxSize()).isEqualTo(7);
                assertThat(client.config().blockBufferPoolSize()).isEqualTo(8L << 20);
                ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
                assertThat(template.queryForObject("SELECT currentDatabase()", String.class)).isEqualTo("system");
            });
    }

    @Test
    void settingsFromPropertiesReachTheServer() {
        connected().withPropertyValues("clickhouse.tcp.settings.max_threads=3").run((context) -> {
            ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
            assertThat(template.queryForObject("SELECT getSetting('max_threads')", Long.class)).isEqualTo(3L);
            assertThat(template.queryForObject("SELECT value FROM system.settings WHERE name = 'max_threads'",
                    String.class)).isEqualTo("3");
        });
    }

    @Test
    void userDefinedClientReplacesAutoConfiguredOne() {
        connected().withUserConfiguration(UserClientConfiguration.class).run((context) -> {
            assertThat(context).hasSingleBean(ClickHouseTcpClient.class);
            ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
            assertThat(client).isSameAs(context.getBean("userClient"));
            assertThat(client.config().clientName()).isEqualTo("user-client");
            assertThat(context.getBean(ClickHouseTcpTemplate.class).getClient()).isSameAs(client);
        });
    }

    @Test
    void twoClientsWithoutPrimaryStartWithoutTemplateAndTranslateForBoth() {
        connected().withUserConfiguration(TwoClientsConfiguration.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeansOfType(ClickHouseTcpClient.class)).hasSize(2);
            assertThat(context).doesNotHaveBean(ClickHouseTcpTemplate.class);
            assertThat(context).hasSingleBean(ClickHouseTcpExceptionTranslator.class);
            assertThat(context.getBean(ClickHouseTcpExceptionTranslator.class)
                .translateExceptionIfPossible(new ClickHouseServerException(60, "DB::Exception", "no table",
                        "", null)))
                .isNotNull();
        });
    }

    @Test
    void twoClientsWithPrimaryGetTemplateOnThePrimary() {
        connected().withUserConfiguration(TwoClientsConfiguration.class, PrimaryClientConfiguration.class)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(ClickHouseTcpTemplate.class).getClient())
                    .isSameAs(context.getBean("primaryClient"));
            });
    }

    @Test
    void userDefinedTemplateReplacesAutoConfiguredOne() {
        connected().withUserConfiguration(UserTemplateConfiguration.class).run((context) -> {
            assertThat(context).hasSingleBean(ClickHouseTcpTemplate.class);
            assertThat(context.getBean(ClickHouseTcpTemplate.class)).isSameAs(context.getBean("userTemplate"));
        });
    }

    @Test
    void userDefinedConnectionDetailsWinOverProperties() {
        // The properties point at a closed port; the details bean at the real server.
        this.runner.withPropertyValues("clickhouse.tcp.host=127.0.0.1", "clickhouse.tcp.port=1")
            .withBean(ClickHouseTcpConnectionDetails.class, () -> new TestConnectionDetails(server.host(),
                    server.tcpPort(), ClickHouseServer.SECRET_USER, ClickHouseServer.SECRET_PASSWORD))
            .run((context) -> {
                assertThat(context).hasSingleBean(ClickHouseTcpConnectionDetails.class)
                    .doesNotHaveBean(PropertiesClickHouseTcpConnectionDetails.class);
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(client.config().port()).isEqualTo(server.tcpPort());
                ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
                assertThat(template.queryForObject("SELECT currentUser()", String.class))
                    .isEqualTo(ClickHouseServer.SECRET_USER);
            });
    }

    @Test
    void passwordFromPropertiesAuthenticates() {
        connected()
            .withPropertyValues("clickhouse.tcp.username=" + ClickHouseServer.SECRET_USER,
                    "clickhouse.tcp.password=" + ClickHouseServer.SECRET_PASSWORD)
            .run((context) -> assertThat(
                    context.getBean(ClickHouseTcpTemplate.class).queryForObject("SELECT currentUser()", String.class))
                .isEqualTo(ClickHouseServer.SECRET_USER));
    }

    /** Against the legacy server: the embedded 26.7 server aborts on a failed authentication. */
    @Test
    void wrongPasswordIsPermissionDeniedWithoutThePassword(@LegacyServer ClickHouseServer legacy) {
        this.runner
            .withPropertyValues("clickhouse.tcp.host=" + legacy.host(), "clickhouse.tcp.port=" + legacy.tcpPort(),
                    "clickhouse.tcp.username=" + ClickHouseServer.SECRET_USER,
                    "clickhouse.tcp.password=" + SECRET)
            .run((context) -> {
                ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
                assertThatExceptionOfType(PermissionDeniedDataAccessException.class)
                    .isThrownBy(() -> template.execute("SELECT 1"))
                    .satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain(SECRET));
            });
    }

    @Test
    void customizersRunInOrderAfterProperties() {
        connected().withPropertyValues("clickhouse.tcp.client-name=from-properties")
            .withUserConfiguration(CustomizerConfiguration.class)
            .run((context) -> assertThat(context.getBean(ClickHouseTcpClient.class).config().clientName())
                .isEqualTo("second"));
    }

    @Test
    void passwordNeverAppearsInToString() {
        connected().withPropertyValues("clickhouse.tcp.password=" + SECRET).run((context) -> {
            ClickHouseTcpProperties properties = context.getBean(ClickHouseTcpProperties.class);
            assertThat(properties.getPassword()).isEqualTo(SECRET);
            assertThat(properties.toString()).doesNotContain(SECRET).contains("password=<hidden>");
            ClickHouseTcpConnectionDetails details = context.getBean(ClickHouseTcpConnectionDetails.class);
            assertThat(details.getPassword()).isEqualTo(SECRET);
            assertThat(details.toString()).doesNotContain(SECRET).contains("password=<hidden>");
            assertThat(context.getBean(ClickHouseTcpClient.class).toString()).doesNotContain(SECRET);
        });
    }

    @Test
    void configurationMetadataIsGenerated() throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(json).contains("\"clickhouse.tcp.host\"", "\"clickhouse.tcp.connection.socket-timeout\"",
                    "\"clickhouse.tcp.pool.max-size\"", "\"clickhouse.tcp.insert.block-rows\"",
                    "\"clickhouse.tcp.settings\"", "\"defaultValue\": \"300s\"");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserClientConfiguration {

        @Bean(destroyMethod = "close")
        ClickHouseTcpClient userClient() {
            return ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort())
                .clientName("user-client").build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoClientsConfiguration {

        @Bean(destroyMethod = "close")
        ClickHouseTcpClient firstClient() {
            return ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort()).build();
        }

        @Bean(destroyMethod = "close")
        ClickHouseTcpClient secondClient() {
            return ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort()).build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PrimaryClientConfiguration {

        @Bean(destroyMethod = "close")
        @Primary
        ClickHouseTcpClient primaryClient() {
            return ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort()).build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserTemplateConfiguration {

        @Bean
        ClickHouseTcpTemplate userTemplate(ClickHouseTcpClient client) {
            return new ClickHouseTcpTemplate(client);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CustomizerConfiguration {

        @Bean
        @Order(2)
        ClickHouseTcpClientBuilderCustomizer second() {
            return (builder) -> builder.clientName("second");
        }

        @Bean
        @Order(1)
        ClickHouseTcpClientBuilderCustomizer first() {
            return (builder) -> builder.clientName("first");
        }
    }

    record TestConnectionDetails(String host, int port, String getUsername, String getPassword)
            implements ClickHouseTcpConnectionDetails {

        @Override
        public java.util.List<Node> getNodes() {
            return java.util.List.of(new Node(this.host, this.port));
        }

        @Override
        public String toString() {
            return "TestConnectionDetails[" + this.host + ":" + this.port + "]";
        }
    }

    @Test
    void poolCompressionAndEndpointPropertiesReachTheClient() {
        this.runner.withPropertyValues("clickhouse.tcp.endpoints=127.0.0.1:1," + server.host() + ":" + server.tcpPort(),
                "clickhouse.tcp.compression=none", "clickhouse.tcp.pool.min-idle=1",
                "clickhouse.tcp.pool.max-lifetime=5m", "clickhouse.tcp.load-balancing=in_order",
                "clickhouse.tcp.failover-backoff=1m").run((context) -> {
                    dev.clickhousetcp.client.ClickHouseTcpClient client =
                            context.getBean(dev.clickhousetcp.client.ClickHouseTcpClient.class);
                    assertThat(client.config().compression()).isEqualTo(dev.clickhousetcp.client.Compression.NONE);
                    client.ping(); // fails over from the closed port to the server
                    assertThat(client.poolStats().total()).isGreaterThanOrEqualTo(1);
                    assertThat(client.poolConfig().endpoints()).hasSize(2);
                    assertThat(client.poolConfig().failoverBackoff()).isEqualTo(Duration.ofMinutes(1));
                });
    }
}
