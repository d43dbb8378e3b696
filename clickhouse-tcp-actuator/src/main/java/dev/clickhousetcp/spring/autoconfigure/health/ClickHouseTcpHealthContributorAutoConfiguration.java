package dev.clickhousetcp.spring.autoconfigure.health;

import java.util.Map;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.actuate.health.ClickHouseTcpHealthIndicator;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.SimpleAutowireCandidateResolver;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for {@link ClickHouseTcpHealthIndicator}.
 *
 * <p>Active when Spring Boot's health support ({@code spring-boot-health}, part of
 * {@code spring-boot-starter-actuator}) is on the classpath, a {@link ClickHouseTcpClient} bean exists
 * and {@code management.health.clickhousetcp.enabled} is not {@code false}. Registers the bean
 * {@code clickHouseTcpHealthContributor}, shown as {@code clickHouseTcp} in the health endpoint: one
 * indicator for a single client, a composite keyed by bean name for several. Define a bean named
 * {@code clickHouseTcpHealthIndicator} or {@code clickHouseTcpHealthContributor} to replace it.
 */
@AutoConfiguration(after = ClickHouseTcpAutoConfiguration.class)
@ConditionalOnClass({ ClickHouseTcpClient.class, HealthContributor.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(ClickHouseTcpClient.class)
@ConditionalOnEnabledHealthIndicator("clickhousetcp")
public final class ClickHouseTcpHealthContributorAutoConfiguration {

    ClickHouseTcpHealthContributorAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(name = { "clickHouseTcpHealthIndicator", "clickHouseTcpHealthContributor" })
    HealthContributor clickHouseTcpHealthContributor(ConfigurableListableBeanFactory beanFactory) {
        Map<String, ClickHouseTcpClient> clients = SimpleAutowireCandidateResolver
            .resolveAutowireCandidates(beanFactory, ClickHouseTcpClient.class, false, true);
        if (clients.size() == 1) {
            return new ClickHouseTcpHealthIndicator(clients.values().iterator().next());
        }
        return CompositeHealthContributor.fromMap(clients, ClickHouseTcpHealthIndicator::new);
    }
}
