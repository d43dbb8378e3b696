package dev.clickhousetcp.spring.actuate.endpoint;

import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.LegacyServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * The {@code clickhouse} endpoint over HTTP ({@code GET /actuator/clickhouse}) in a fully auto-configured
 * web application against the real servers: the JSON, masking, {@code show-values}, several clients.
 */
@ClickHouseTest
@ExtendWith(OutputCaptureExtension.class)
class ClickHouseEndpointWebIntegrationTests {

    private static ClickHouseServer modern;

    private static ClickHouseServer legacy;

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
        .withUserConfiguration(App.class)
        .withPropertyValues("management.endpoints.web.exposure.include=clickhouse,health");

    @BeforeAll
    static void servers(ClickHouseServer modernServer, @LegacyServer ClickHouseServer legacyServer) {
        modern = modernServer;
        legacy = legacyServer;
    }

    @Test
    void describesServersPoolConfigurationAndMemory(CapturedOutput output) {
        String first = modern.host() + ":" + modern.tcpPort();
        String second = legacy.host() + ":" + legacy.tcpPort();
        this.runner
            .withPropertyValues("clickhouse.tcp.endpoints=" + first + "," + second,
                    "clickhouse.tcp.load-balancing=round-robin", "clickhouse.tcp.pool.max-size=4",
                    "clickhouse.tcp.username=" + ClickHouseServer.SECRET_USER,
                    "clickhouse.tcp.password=" + ClickHouseServer.SECRET_PASSWORD,
                    "clickhouse.tcp.settings.max_threads=2")
            .run((context) -> {
                String before = getJson(context, "/actuator/clickhouse");
                String client = "$.clients.clickHouseTcpClient";
                assertThat(JsonPath.<List<String>>read(before, client + ".endpoints[*].status"))
                    .containsExactly("unknown", "unknown");
                assertThat(JsonPath.<List<Object>>read(before, client + ".endpoints[*].server")).isEmpty();

                ClickHouseTcpClient tcp = context.getBean(ClickHouseTcpClient.class);
                try (QueryResult a = tcp.query("SELECT 1"); QueryResult b = tcp.query("SELECT 2")) {
                    String json = getJson(context, "/actuator/clickhouse");
                    assertThat(JsonPath.<List<String>>read(json, client + ".endpoints[*].endpoint"))
                        .containsExactly(first, second);
                    assertThat(JsonPath.<List<String>>read(json, client + ".endpoints[*].status"))
                        .containsExactly("known", "known");
                    assertThat(JsonPath.<String>read(json, client + ".endpoints[1].server.version")).startsWith("18.16.");
                    assertThat(JsonPath.<String>read(json, client + ".endpoints[0].server.name")).isEqualTo("ClickHouse");
                    assertThat(JsonPath.<String>read(json, client + ".endpoints[0].server.timezone")).isNotEmpty();
                    assertThat(JsonPath.<String>read(json, client + ".endpoints[0].server.displayName")).isNotEmpty();
                    long legacyRevision = ((Number) JsonPath.read(json, client + ".endpoints[1].server.serverRevision"))
                        .longValue();
                    assertThat(((Number) JsonPath.read(json, client + ".endpoints[1].server.negotiatedRevision"))
                        .longValue()).isEqualTo(legacyRevision);
                    assertThat(JsonPath.<Integer>read(json, client + ".pool.active")).isEqualTo(2);
                    assertThat(JsonPath.<Integer>read(json, client + ".pool.idle")).isZero();
                    assertThat(JsonPath.<Integer>read(json, client + ".pool.max")).isEqualTo(4);
                    assertThat(JsonPath.<Integer>read(json, client + ".pool.created")).isEqualTo(2);
                    assertThat(JsonPath.<Integer>read(json, client + ".pool.leakWarnings")).isZero();
                    assertThat(JsonPath.<Integer>read(json, client + ".pool.acquireTimeouts")).isZero();
                    assertThat(JsonPath.<String>read(json, client + ".configuration.username")).isEqualTo("******");
                    assertThat(JsonPath.<String>read(json, client + ".configuration.password")).isEqualTo("******");
                    assertThat(JsonPath.<String>read(json, client + ".configuration.settings.max_threads"))
                        .isEqualTo("******");
                    assertThat(JsonPath.<String>read(json, client + ".configuration.load-balancing"))
                        .isEqualTo("ROUND_ROBIN");
                    assertThat(JsonPath.<Integer>read(json, client + ".configuration.connection.buffer-size"))
                        .isEqualTo(65536);
                    assertThat(JsonPath.<String>read(json, client + ".configuration.pool.shutdown-grace"))
                        .isEqualTo("PT10S");
                    assertThat(JsonPath.<Integer>read(json, client + ".memory.maxConnections")).isEqualTo(4);
                    assertThat(JsonPath.<List<String>>read(json, client + ".memory.perConnection[*].name")).startsWith(
                            "socketReadBuffer", "socketWriteBuffer", "decompressedReader", "compressedFrameIn",
                            "decompressedFrameIn", "insertFrameBuffer", "compressedFrameOut", "connectionObjects");
                    assertThat(JsonPath.<List<String>>read(json, client + ".memory.perClient[*].name"))
                        .startsWith("blockBufferPool");
                    assertThat(((Number) JsonPath.read(json, client + ".memory.perClient[0].bytes")).longValue())
                        .isEqualTo(32L << 20);
                    long perConnection = ((Number) JsonPath.read(json, client + ".memory.perConnectionBytes")).longValue();
                    long perClient = ((Number) JsonPath.read(json, client + ".memory.perClientBytes")).longValue();
                    assertThat(((Number) JsonPath.read(json, client + ".memory.retainedBytes")).longValue())
                        .isEqualTo(perClient + 4 * perConnection);
                    assertThat(JsonPath.<List<String>>read(json, client + ".memory.notCovered")).isNotEmpty();
                    assertThat(json).doesNotContain(ClickHouseServer.SECRET_PASSWORD);
                }
            });
        assertThat(output).doesNotContain(ClickHouseServer.SECRET_PASSWORD);
    }

    @Test
    void showValuesAlwaysShowsValuesButNotThePassword(CapturedOutput output) {
        this.runner
            .withPropertyValues("clickhouse.tcp.host=" + modern.host(), "clickhouse.tcp.port=" + modern.tcpPort(),
                    "management.endpoint.clickhouse.show-values=always",
                    "clickhouse.tcp.username=" + ClickHouseServer.SECRET_USER,
                    "clickhouse.tcp.password=" + ClickHouseServer.SECRET_PASSWORD,
                    "clickhouse.tcp.settings.max_threads=2")
            .run((context) -> {
                String json = getJson(context, "/actuator/clickhouse/clickHouseTcpClient");
                assertThat(JsonPath.<String>read(json, "$.configuration.username"))
                    .isEqualTo(ClickHouseServer.SECRET_USER);
                assertThat(JsonPath.<String>read(json, "$.configuration.settings.max_threads")).isEqualTo("2");
                assertThat(JsonPath.<String>read(json, "$.configuration.password")).isEqualTo("******");
                assertThat(json).doesNotContain(ClickHouseServer.SECRET_PASSWORD);
            });
        assertThat(output).doesNotContain(ClickHouseServer.SECRET_PASSWORD);
    }

    @Test
    void whenAuthorizedHidesValuesFromAnonymousRequests() {
        this.runner
            .withPropertyValues("clickhouse.tcp.host=" + modern.host(), "clickhouse.tcp.port=" + modern.tcpPort(),
                    "management.endpoint.clickhouse.show-values=when-authorized")
            .run((context) -> {
                String json = getJson(context, "/actuator/clickhouse");
                assertThat(JsonPath.<String>read(json, "$.clients.clickHouseTcpClient.configuration.username"))
                    .isEqualTo("******");
            });
    }

    @Test
    void unknownClientIsNotFound() throws Exception {
        this.runner.withPropertyValues("clickhouse.tcp.host=" + modern.host(), "clickhouse.tcp.port=" + modern.tcpPort())
            .run((context) -> assertThat(mockMvc(context).perform(get("/actuator/clickhouse/nope"))
                .andReturn()
                .getResponse()
                .getStatus()).isEqualTo(404));
    }

    @Test
    void severalClientsByBeanName() {
        this.runner.withPropertyValues("management.endpoint.clickhouse.show-values=always")
            .withBean("ordersClient", ClickHouseTcpClient.class,
                    () -> ClickHouseTcpClient.builder().host(modern.host()).port(modern.tcpPort()).database("system")
                        .build(),
                    (definition) -> definition.setPrimary(true))
            .withBean("archiveClient", ClickHouseTcpClient.class,
                    () -> ClickHouseTcpClient.builder().host(legacy.host()).port(legacy.tcpPort()).maxPoolSize(3)
                        .build())
            .run((context) -> {
                String json = getJson(context, "/actuator/clickhouse");
                assertThat(JsonPath.<Map<String, Object>>read(json, "$.clients")).containsOnlyKeys("ordersClient",
                        "archiveClient");
                assertThat(JsonPath.<String>read(json, "$.clients.ordersClient.configuration.database"))
                    .isEqualTo("system");
                assertThat(JsonPath.<Integer>read(json, "$.clients.archiveClient.pool.max")).isEqualTo(3);
            });
    }

    /** Every pooled connection lent, an acquire timeout of 500 ms: {@code /actuator/health} is UP, not DOWN. */
    @Test
    void healthIsUpWhileEveryPooledConnectionIsInUse() {
        this.runner
            .withPropertyValues("clickhouse.tcp.host=" + modern.host(), "clickhouse.tcp.port=" + modern.tcpPort(),
                    "clickhouse.tcp.pool.max-size=2", "clickhouse.tcp.pool.acquire-timeout=500ms",
                    "management.endpoint.health.show-details=always")
            .run((context) -> {
                ClickHouseTcpClient tcp = context.getBean(ClickHouseTcpClient.class);
                try (QueryResult a = tcp.query("SELECT 1"); QueryResult b = tcp.query("SELECT 2")) {
                    assertThat(tcp.poolStats().active()).isEqualTo(2);
                    // the component alone: the runner's context publishes no availability state, so the whole is DOWN
                    String json = getJson(context, "/actuator/health/clickHouseTcp");
                    assertThat(JsonPath.<String>read(json, "$.status")).isEqualTo("UP");
                    assertThat(JsonPath.<Boolean>read(json, "$.details.pool.saturated")).isTrue();
                    assertThat(JsonPath.<Integer>read(json, "$.details.pool.active")).isEqualTo(2);
                }
            });
    }

    @Test
    void noClientNoEndpoint() throws Exception {
        new WebApplicationContextRunner().withUserConfiguration(App.class)
            .withPropertyValues("management.endpoints.web.exposure.include=clickhouse,health",
                    // HikariCP is on the test class path (for the JDBC tests): without the client's connection
                    // details to take a JDBC URL from, Spring Boot's DataSource would fail to find a driver class
                    "spring.autoconfigure.exclude="
                            + dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration.class.getName()
                            + ",org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
            .run((context) -> assertThat(mockMvc(context).perform(get("/actuator/clickhouse"))
                .andReturn()
                .getResponse()
                .getStatus()).isEqualTo(404));
    }

    private static MockMvc mockMvc(AssertableWebApplicationContext context) {
        assertThat(context).hasNotFailed();
        return MockMvcBuilders.webAppContextSetup(context).build();
    }

    private static String getJson(AssertableWebApplicationContext context, String path) throws Exception {
        MvcResult result = mockMvc(context).perform(get(path)).andReturn();
        assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(200);
        return result.getResponse().getContentAsString();
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {

    }

}
