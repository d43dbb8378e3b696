package dev.clickhousetcp.spring.autoconfigure.health;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.actuate.health.ClickHouseTcpHealthIndicator;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.LegacyServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseTcpHealthContributorAutoConfiguration}.
 */
@ClickHouseTest
class ClickHouseTcpHealthContributorAutoConfigurationTests {

    private static ClickHouseServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class,
                    ClickHouseTcpHealthContributorAutoConfiguration.class));

    @BeforeAll
    static void server(ClickHouseServer modern) {
        server = modern;
    }

    @Test
    void registersIndicatorThatIsUp() {
        this.runner.withPropertyValues("clickhouse.tcp.host=" + server.host(), "clickhouse.tcp.port=" + server.tcpPort())
            .run((context) -> {
                assertThat(context).hasSingleBean(ClickHouseTcpHealthIndicator.class)
                    .hasBean("clickHouseTcpHealthContributor");
                Health health = context.getBean(ClickHouseTcpHealthIndicator.class).health();
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                assertThat(health.getDetails()).containsKey("version");
            });
    }

    @Test
    void downWhenServerUnreachable() {
        this.runner.withPropertyValues("clickhouse.tcp.host=127.0.0.1", "clickhouse.tcp.port=1")
            .run((context) -> assertThat(context.getBean(ClickHouseTcpHealthIndicator.class).health().getStatus())
                .isEqualTo(Status.DOWN));
    }

    @Test
    void severalEndpointsMakeOneComponentEach() {
        this.runner
            .withPropertyValues("clickhouse.tcp.endpoints=" + server.host() + ":" + server.tcpPort() + ",127.0.0.1:1",
                    "management.health.clickhousetcp.timeout=2s")
            .run((context) -> {
                CompositeHealthContributor composite = context.getBean("clickHouseTcpHealthContributor",
                        CompositeHealthContributor.class);
                assertThat(composite.stream().map(CompositeHealthContributor.Entry::name)).containsExactly("pool",
                        server.host() + ":" + server.tcpPort(), "127.0.0.1:1");
                assertThat(((HealthIndicator) composite.getContributor("pool")).health().getStatus())
                    .isEqualTo(Status.UP);
                assertThat(((HealthIndicator) composite.getContributor(server.host() + ":" + server.tcpPort()))
                    .health()
                    .getStatus()).isEqualTo(Status.UP);
                assertThat(((HealthIndicator) composite.getContributor("127.0.0.1:1")).health().getStatus())
                    .isEqualTo(Status.DOWN);
                assertThat(context.getBean(ClickHouseTcpHealthIndicatorProperties.class).getTimeout())
                    .isEqualTo(java.time.Duration.ofSeconds(2));
            });
    }

    @Test
    void modernAndLegacyEndpointsEachReportTheirOwnServer(@LegacyServer ClickHouseServer legacy) {
        String modern = server.host() + ":" + server.tcpPort();
        String old = legacy.host() + ":" + legacy.tcpPort();
        this.runner.withPropertyValues("clickhouse.tcp.endpoints=" + modern + "," + old).run((context) -> {
            CompositeHealthContributor composite = context.getBean("clickHouseTcpHealthContributor",
                    CompositeHealthContributor.class);
            assertThat(composite.stream().map(CompositeHealthContributor.Entry::name)).containsExactly("pool", modern,
                    old);
            Health modernHealth = ((HealthIndicator) composite.getContributor(modern)).health();
            Health legacyHealth = ((HealthIndicator) composite.getContributor(old)).health();
            assertThat(modernHealth.getStatus()).isEqualTo(Status.UP);
            assertThat(legacyHealth.getStatus()).isEqualTo(Status.UP);
            assertThat(modernHealth.getDetails()).containsEntry("endpoint", modern);
            assertThat(legacyHealth.getDetails()).containsEntry("endpoint", old);
            assertThat((String) legacyHealth.getDetails().get("version")).startsWith("18.16.");
            assertThat((String) modernHealth.getDetails().get("version")).doesNotStartWith("18.");
            assertThat((Long) legacyHealth.getDetails().get("revision"))
                .isLessThan((Long) modernHealth.getDetails().get("revision"));
        });
    }

    @Test
    void timeoutMustBePositive() {
        this.runner.withPropertyValues("management.health.clickhousetcp.timeout=0s").run((context) -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("management.health.clickhousetcp")
                .hasStackTraceContaining("timeout");
        });
    }

    @Test
    void canBeDisabled() {
        this.runner.withPropertyValues("management.health.clickhousetcp.enabled=false")
            .run((context) -> assertThat(context).doesNotHaveBean("clickHouseTcpHealthContributor"));
    }

    @Test
    void backsOffForUserIndicator() {
        HealthIndicator mine = () -> Health.up().withDetail("mine", true).build();
        this.runner.withBean("clickHouseTcpHealthIndicator", HealthIndicator.class, () -> mine)
            .run((context) -> assertThat(context).doesNotHaveBean("clickHouseTcpHealthContributor")
                .hasSingleBean(HealthIndicator.class));
    }

    @Test
    void backsOffWithoutClient() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ClickHouseTcpHealthContributorAutoConfiguration.class))
            .run((context) -> assertThat(context).doesNotHaveBean("clickHouseTcpHealthContributor"));
    }

    @Test
    void compositeForSeveralClients() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ClickHouseTcpHealthContributorAutoConfiguration.class))
            .withBean("firstClient", ClickHouseTcpClient.class,
                    () -> ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort()).build())
            .withBean("secondClient", ClickHouseTcpClient.class,
                    () -> ClickHouseTcpClient.builder().host("127.0.0.1").port(1).build())
            .run((context) -> {
                CompositeHealthContributor composite = context.getBean("clickHouseTcpHealthContributor",
                        CompositeHealthContributor.class);
                assertThat(((HealthIndicator) composite.getContributor("firstClient")).health().getStatus())
                    .isEqualTo(Status.UP);
                assertThat(((HealthIndicator) composite.getContributor("secondClient")).health().getStatus())
                    .isEqualTo(Status.DOWN);
            });
    }
}
