package dev.clickhousetcp.spring.autoconfigure.metrics;

import java.util.List;
import java.util.Map;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.actuate.metrics.ClickHouseTcpPoolMetrics;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.SimpleAutowireCandidateResolver;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for connection pool metrics ({@link ClickHouseTcpPoolMetrics}) of every
 * {@link ClickHouseTcpClient} bean.
 *
 * <p>Active when Micrometer is on the classpath and both a {@link ClickHouseTcpClient} and a
 * {@link MeterRegistry} bean exist (as with {@code spring-boot-starter-actuator}). Registers the
 * {@link MeterBinder} bean {@code clickHouseTcpPoolMeterBinder}, which Spring Boot binds to every
 * registry; each client's meters carry the tag {@code name}: its bean name, without a trailing
 * {@code ClickHouseTcpClient} when something precedes it. Define a bean of that name to replace it.
 */
@AutoConfiguration(after = ClickHouseTcpAutoConfiguration.class,
        afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass({ ClickHouseTcpClient.class, MeterRegistry.class })
@ConditionalOnBean({ ClickHouseTcpClient.class, MeterRegistry.class })
public final class ClickHouseTcpPoolMetricsAutoConfiguration {

    private static final String CLIENT_SUFFIX = "ClickHouseTcpClient";

    ClickHouseTcpPoolMetricsAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(name = "clickHouseTcpPoolMeterBinder")
    MeterBinder clickHouseTcpPoolMeterBinder(ConfigurableListableBeanFactory beanFactory) {
        Map<String, ClickHouseTcpClient> clients = SimpleAutowireCandidateResolver
            .resolveAutowireCandidates(beanFactory, ClickHouseTcpClient.class, false, true);
        return (registry) -> clients.forEach((beanName, client) ->
                new ClickHouseTcpPoolMetrics(client, clientName(beanName), List.of()).bindTo(registry));
    }

    static String clientName(String beanName) {
        if (beanName.length() > CLIENT_SUFFIX.length() && beanName.endsWith(CLIENT_SUFFIX)) {
            return beanName.substring(0, beanName.length() - CLIENT_SUFFIX.length());
        }
        return beanName;
    }
}
