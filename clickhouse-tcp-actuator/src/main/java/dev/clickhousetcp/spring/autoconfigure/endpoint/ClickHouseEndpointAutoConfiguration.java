package dev.clickhousetcp.spring.autoconfigure.endpoint;

import java.util.Map;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseEndpoint;
import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseEndpointWebExtension;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.SimpleAutowireCandidateResolver;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for the {@code clickhouse} actuator endpoint ({@link ClickHouseEndpoint}).
 *
 * <p>Active when Spring Boot's actuator ({@code spring-boot-actuator-autoconfigure}, part of
 * {@code spring-boot-starter-actuator}) is on the classpath, the endpoint is available (access not
 * {@code none} and exposed, e.g. {@code management.endpoints.web.exposure.include=clickhouse}) and at least
 * one {@link ClickHouseTcpClient} bean exists. Every client bean is described, keyed by bean name. Values
 * that may be sensitive are masked unless {@code management.endpoint.clickhouse.show-values} allows them;
 * {@link SanitizingFunction} beans then apply. Define a {@link ClickHouseEndpoint} bean to replace it.
 */
@AutoConfiguration(after = ClickHouseTcpAutoConfiguration.class)
@ConditionalOnClass({ ClickHouseTcpClient.class, Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnAvailableEndpoint(ClickHouseEndpoint.class)
@EnableConfigurationProperties(ClickHouseEndpointProperties.class)
public final class ClickHouseEndpointAutoConfiguration {

    ClickHouseEndpointAutoConfiguration() {
    }

    @Bean
    @ConditionalOnBean(ClickHouseTcpClient.class)
    @ConditionalOnMissingBean
    ClickHouseEndpoint clickHouseEndpoint(ConfigurableListableBeanFactory beanFactory,
            ClickHouseEndpointProperties properties, ObjectProvider<SanitizingFunction> sanitizingFunctions) {
        Map<String, ClickHouseTcpClient> clients = SimpleAutowireCandidateResolver
            .resolveAutowireCandidates(beanFactory, ClickHouseTcpClient.class, false, true);
        return new ClickHouseEndpoint(clients, sanitizingFunctions.orderedStream().toList(),
                properties.getShowValues());
    }

    @Bean
    @ConditionalOnBean(ClickHouseEndpoint.class)
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
    ClickHouseEndpointWebExtension clickHouseEndpointWebExtension(ClickHouseEndpoint endpoint,
            ClickHouseEndpointProperties properties) {
        return new ClickHouseEndpointWebExtension(endpoint, properties.getShowValues(), properties.getRoles());
    }

}
