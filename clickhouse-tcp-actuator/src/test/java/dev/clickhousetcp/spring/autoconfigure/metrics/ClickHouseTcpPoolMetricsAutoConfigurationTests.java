package dev.clickhousetcp.spring.autoconfigure.metrics;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseTcpPoolMetricsAutoConfiguration} with Spring Boot's own metrics auto-configuration.
 */
@ClickHouseTest
class ClickHouseTcpPoolMetricsAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
                    CompositeMeterRegistryAutoConfiguration.class, ClickHouseTcpAutoConfiguration.class,
                    ClickHouseTcpPoolMetricsAutoConfiguration.class));

    @Test
    void poolMetersAreRegistered(ClickHouseServer server) {
        this.runner.withPropertyValues("clickhouse.tcp.host=" + server.host(), "clickhouse.tcp.port=" + server.tcpPort(),
                "clickhouse.tcp.pool.max-size=5")
            .run((context) -> {
                assertThat(context).hasBean("clickHouseTcpPoolMeterBinder");
                context.getBean(ClickHouseTcpClient.class).ping();
                MeterRegistry registry = context.getBean(MeterRegistry.class);
                assertThat(registry.get("clickhouse.tcp.pool.max").tag("name", "clickHouseTcpClient").gauge().value())
                    .isEqualTo(5);
                assertThat(registry.get("clickhouse.tcp.pool.idle").gauge().value()).isEqualTo(1);
                assertThat(registry.get("clickhouse.tcp.pool.created").functionCounter().count()).isEqualTo(1);
            });
    }

    @Test
    void backsOffWithoutMeterRegistry() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class,
                    ClickHouseTcpPoolMetricsAutoConfiguration.class))
            .run((context) -> assertThat(context).doesNotHaveBean("clickHouseTcpPoolMeterBinder"));
    }

    @Test
    void clientNameStripsSuffix() {
        assertThat(ClickHouseTcpPoolMetricsAutoConfiguration.clientName("clickHouseTcpClient"))
            .isEqualTo("clickHouseTcpClient");
        assertThat(ClickHouseTcpPoolMetricsAutoConfiguration.clientName("analyticsClickHouseTcpClient"))
            .isEqualTo("analytics");
        assertThat(ClickHouseTcpPoolMetricsAutoConfiguration.clientName("other")).isEqualTo("other");
    }
}
