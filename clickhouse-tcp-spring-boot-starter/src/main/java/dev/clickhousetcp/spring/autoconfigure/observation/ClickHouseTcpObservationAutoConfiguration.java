package dev.clickhousetcp.spring.autoconfigure.observation;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.observe.ClickHouseTcpObservationConvention;
import dev.clickhousetcp.observe.DefaultClickHouseTcpObservationConvention;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpClientBuilderCustomizer;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;

/**
 * Auto-configuration for the observations of the auto-configured {@link ClickHouseTcpClient}, as
 * Spring Boot configures its own instrumented clients (Lettuce, R2DBC): active after Spring Boot's
 * {@code ObservationAutoConfiguration} when an {@link ObservationRegistry} bean exists, it registers a
 * {@link ClickHouseTcpClientBuilderCustomizer} that hands the registry to the client's builder, so
 * every call makes an observation (a timer through Micrometer's meter handler, a client span through
 * Micrometer Tracing, whose propagating handler also carries the span's W3C trace context to the
 * server).
 *
 * <p>The convention is a {@link ClickHouseTcpObservationConvention} bean when there is one, else the
 * {@link DefaultClickHouseTcpObservationConvention} with {@code db.query.text} as
 * {@code management.observations.clickhousetcp.include-query-text} says. Without an
 * {@link ObservationRegistry} bean nothing changes: the client makes no observations.
 */
@AutoConfiguration(before = ClickHouseTcpAutoConfiguration.class,
        afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass({ ClickHouseTcpClient.class, ObservationRegistry.class })
@ConditionalOnBean(ObservationRegistry.class)
@EnableConfigurationProperties(ClickHouseTcpObservationProperties.class)
public final class ClickHouseTcpObservationAutoConfiguration {

    /**
     * {@code @Order} of the observation customizer: early, so a later customizer can still replace the
     * registry or the convention.
     */
    public static final int OBSERVATION_CUSTOMIZER_ORDER = 0;

    ClickHouseTcpObservationAutoConfiguration() {
    }

    @Bean
    @Order(OBSERVATION_CUSTOMIZER_ORDER)
    ClickHouseTcpClientBuilderCustomizer clickHouseTcpObservationCustomizer(ObservationRegistry observationRegistry,
            ClickHouseTcpObservationProperties properties,
            ObjectProvider<ClickHouseTcpObservationConvention> conventions) {
        ClickHouseTcpObservationConvention convention = conventions.getIfAvailable(
                () -> new DefaultClickHouseTcpObservationConvention(properties.isIncludeQueryText()));
        return (builder) -> builder.observationRegistry(observationRegistry).observationConvention(convention);
    }

}
