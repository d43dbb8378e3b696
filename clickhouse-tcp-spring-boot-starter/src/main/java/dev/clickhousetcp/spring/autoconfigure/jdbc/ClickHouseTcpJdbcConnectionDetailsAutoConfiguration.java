package dev.clickhousetcp.spring.autoconfigure.jdbc;

import java.util.List;

import dev.clickhousetcp.jdbc.ClickHouseDriver;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpProperties;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The client's {@link ClickHouseTcpConnectionDetails} from {@code spring.datasource.*}, for an application that
 * configures only its DataSource: with {@code spring.datasource.url} one of clickhouse-tcp-jdbc's URLs
 * ({@code jdbc:clickhouse:tcp://host:port/db}, {@code jdbc:ch:tcp://}, {@code tcps}), no server named under
 * {@code clickhouse.tcp} ({@code url}, {@code host}, {@code port}, {@code endpoints}) and no other
 * {@code ClickHouseTcpConnectionDetails} bean (the application's, {@code @ServiceConnection}, docker compose), the
 * {@code ClickHouseTcpTemplate}, the {@code clickHouseTcp} health indicator and the rest of the client reach the
 * data source's server with its credentials instead of {@code localhost:9000}. Runs before
 * {@link ClickHouseTcpAutoConfiguration}, whose {@code clickhouse.tcp.*} details back off when this defines its
 * bean, as Spring Boot's properties-based {@code ConnectionDetails} back off for a service connection's.
 * {@code clickhouse.tcp.username}, {@code password}, {@code database} and {@code ssl.*} still win
 * ({@link DataSourceUrlClickHouseTcpConnectionDetails}).
 */
@AutoConfiguration(before = ClickHouseTcpAutoConfiguration.class)
@ConditionalOnClass(ClickHouseDriver.class)
@EnableConfigurationProperties(ClickHouseTcpProperties.class)
public final class ClickHouseTcpJdbcConnectionDetailsAutoConfiguration {

    ClickHouseTcpJdbcConnectionDetailsAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(ClickHouseTcpConnectionDetails.class)
    @Conditional(NativeDataSourceUrlCondition.class)
    DataSourceUrlClickHouseTcpConnectionDetails clickHouseTcpConnectionDetails(Environment environment,
            ClickHouseTcpProperties properties, ObjectProvider<SslBundles> sslBundles) {
        Binder binder = Binder.get(environment);
        return DataSourceUrlClickHouseTcpConnectionDetails.of(
                binder.bind("spring.datasource.url", String.class).get(),
                binder.bind("spring.datasource.username", String.class).orElse(null),
                binder.bind("spring.datasource.password", String.class).orElse(null), properties,
                sslBundles.getIfAvailable());
    }

    /**
     * Matches when {@code spring.datasource.url} is one of the driver's URLs and {@code clickhouse.tcp} names no
     * server.
     */
    static class NativeDataSourceUrlCondition extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Binder binder = Binder.get(context.getEnvironment());
            String url = binder.bind("spring.datasource.url", String.class).orElse(null);
            if (!ClickHouseTcpJdbcUrls.isNative(url)) {
                return ConditionOutcome.noMatch("spring.datasource.url is not a clickhouse-tcp-jdbc URL");
            }
            for (String name : List.of("url", "host", "port")) {
                if (binder.bind("clickhouse.tcp." + name, String.class).isBound()) {
                    return ConditionOutcome.noMatch("clickhouse.tcp." + name + " is set");
                }
            }
            if (binder.bind("clickhouse.tcp.endpoints", Bindable.listOf(String.class)).isBound()) {
                return ConditionOutcome.noMatch("clickhouse.tcp.endpoints is set");
            }
            return ConditionOutcome.match("spring.datasource.url is a clickhouse-tcp-jdbc URL and clickhouse.tcp "
                    + "names no server");
        }

    }

}
