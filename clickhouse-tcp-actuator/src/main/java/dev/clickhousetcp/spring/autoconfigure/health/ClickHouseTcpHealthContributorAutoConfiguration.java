package dev.clickhousetcp.spring.autoconfigure.health;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.Endpoint;
import dev.clickhousetcp.spring.actuate.health.ClickHouseTcpEndpointHealthIndicator;
import dev.clickhousetcp.spring.actuate.health.ClickHouseTcpHealthIndicator;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.SimpleAutowireCandidateResolver;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
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
 * {@code clickHouseTcpHealthContributor}, shown as {@code clickHouseTcp} in the health endpoint. For a
 * client with one endpoint it is a {@link ClickHouseTcpHealthIndicator}; for a client with several, a
 * composite of {@code pool} (that indicator: a ping on a connection had without waiting for the pool, and
 * the pool's state) and one {@link ClickHouseTcpEndpointHealthIndicator} per endpoint, named
 * {@code host:port}. Several clients make a composite keyed by bean name. Each check, opening a connection
 * included, ends within {@code management.health.clickhousetcp.timeout} (1 s by default).
 * Define a bean named {@code clickHouseTcpHealthIndicator} or {@code clickHouseTcpHealthContributor} to
 * replace it.
 */
@AutoConfiguration(after = ClickHouseTcpAutoConfiguration.class)
@ConditionalOnClass({ ClickHouseTcpClient.class, HealthContributor.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(ClickHouseTcpClient.class)
@ConditionalOnEnabledHealthIndicator("clickhousetcp")
@EnableConfigurationProperties(ClickHouseTcpHealthIndicatorProperties.class)
public final class ClickHouseTcpHealthContributorAutoConfiguration {

    ClickHouseTcpHealthContributorAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(name = { "clickHouseTcpHealthIndicator", "clickHouseTcpHealthContributor" })
    HealthContributor clickHouseTcpHealthContributor(ConfigurableListableBeanFactory beanFactory,
            ClickHouseTcpHealthIndicatorProperties properties) {
        Map<String, ClickHouseTcpClient> clients = SimpleAutowireCandidateResolver
            .resolveAutowireCandidates(beanFactory, ClickHouseTcpClient.class, false, true);
        Duration timeout = properties.getTimeout();
        if (clients.size() == 1) {
            return contributor(clients.values().iterator().next(), timeout);
        }
        return CompositeHealthContributor.fromMap(clients, (client) -> contributor(client, timeout));
    }

    private static HealthContributor contributor(ClickHouseTcpClient client, Duration timeout) {
        List<Endpoint> endpoints = client.poolConfig().endpoints();
        ClickHouseTcpHealthIndicator pool = new ClickHouseTcpHealthIndicator(client, timeout);
        if (endpoints.size() == 1) {
            return pool;
        }
        Map<String, HealthContributor> contributors = new LinkedHashMap<>();
        contributors.put("pool", pool);
        for (Endpoint endpoint : endpoints) {
            contributors.put(endpoint.toString(), new ClickHouseTcpEndpointHealthIndicator(client, endpoint, timeout));
        }
        return CompositeHealthContributor.fromMap(contributors);
    }

}
