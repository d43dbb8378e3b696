package dev.clickhousetcp.spring.autoconfigure.metrics;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.actuate.metrics.ClickHouseTcpQueryMetrics;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for the query metrics of the ClickHouse native TCP client
 * ({@link ClickHouseTcpQueryMetrics}): an observation handler bean, which Spring Boot's observation
 * auto-configuration registers with the {@link ObservationRegistry} beside the meter and tracing
 * handlers. The clients' observations themselves are switched on by the starter's
 * {@code ClickHouseTcpObservationAutoConfiguration}; the per-call timer
 * {@code clickhouse.tcp.client.operation} comes from Micrometer's {@code DefaultMeterObservationHandler},
 * which Spring Boot's metrics auto-configuration provides.
 *
 * <p>Active when Micrometer and the Observation API are on the classpath and a {@link MeterRegistry}
 * bean exists (as with {@code spring-boot-starter-actuator}). Define a bean named
 * {@code clickHouseTcpQueryMetrics} to replace it.
 */
@AutoConfiguration(after = ClickHouseTcpAutoConfiguration.class,
        afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass({ ClickHouseTcpClient.class, MeterRegistry.class, ObservationRegistry.class })
@ConditionalOnBean(MeterRegistry.class)
public final class ClickHouseTcpQueryMetricsAutoConfiguration {

    ClickHouseTcpQueryMetricsAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(name = "clickHouseTcpQueryMetrics")
    ClickHouseTcpQueryMetrics clickHouseTcpQueryMetrics(ObjectProvider<MeterRegistry> meterRegistry) {
        return new ClickHouseTcpQueryMetrics(meterRegistry.getObject());
    }

}
