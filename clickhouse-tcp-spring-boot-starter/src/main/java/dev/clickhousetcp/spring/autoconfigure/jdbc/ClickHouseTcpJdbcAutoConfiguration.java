package dev.clickhousetcp.spring.autoconfigure.jdbc;

import javax.sql.DataSource;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.jdbc.ClickHouseClientDataSource;
import dev.clickhousetcp.jdbc.ClickHouseDriver;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Auto-configuration of JDBC over the native protocol, when {@code clickhouse-tcp-jdbc} and Spring Boot's
 * {@code spring-boot-jdbc} are on the class path. Runs before Spring Boot's {@code DataSourceAutoConfiguration}.
 *
 * <ul>
 * <li>{@code spring.datasource.url=jdbc:clickhouse:tcp://host:9000/db} (or {@code jdbc:ch:tcp://},
 * {@code jdbc:clickhouse:tcps://}) without {@code spring.datasource.driver-class-name} gets
 * {@link ClickHouseDriver} instead of the class Spring Boot derives from the prefix
 * ({@link ClickHouseTcpDataSourcePropertiesPostProcessor}); a driver class that is set always wins;</li>
 * <li>{@code JdbcConnectionDetails} from a service connection to a {@code clickhouse/clickhouse-server} container
 * (Spring Boot's {@code jdbc:clickhouse://host:8123} HTTP ones) are replaced by the native-port ones of the same
 * service connection ({@link ClickHouseTcpJdbcConnectionDetailsPostProcessor});</li>
 * <li>without {@code spring.datasource.url} (and without {@code clickhouse.tcp.jdbc.enabled}), native
 * {@code JdbcConnectionDetails} from the client's {@link ClickHouseTcpConnectionDetails}, so Spring Boot's pooled
 * DataSource (HikariCP) reaches the client's servers with this driver;</li>
 * <li>with {@code clickhouse.tcp.jdbc.enabled=true}, a {@link ClickHouseClientDataSource} named
 * {@code dataSource} over the {@code clickhouse.tcp} client and its pool, so {@code JdbcTemplate},
 * {@code JdbcClient} and Flyway use the pool that {@code ClickHouseTcpTemplate} uses (one pool, one limit). It
 * backs off when the application defines a {@code DataSource}, sets {@code spring.datasource.url}, or has several
 * clients and none primary.</li>
 * </ul>
 */
@AutoConfiguration(after = ClickHouseTcpAutoConfiguration.class,
        beforeName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass({ ClickHouseDriver.class, DataSourceProperties.class })
@EnableConfigurationProperties(ClickHouseTcpJdbcProperties.class)
public final class ClickHouseTcpJdbcAutoConfiguration {

    ClickHouseTcpJdbcAutoConfiguration() {
    }

    @Bean
    static ClickHouseTcpDataSourcePropertiesPostProcessor clickHouseTcpDataSourcePropertiesPostProcessor() {
        return new ClickHouseTcpDataSourcePropertiesPostProcessor();
    }

    @Bean
    static ClickHouseTcpJdbcConnectionDetailsPostProcessor clickHouseTcpJdbcConnectionDetailsPostProcessor(
            ObjectProvider<ClickHouseTcpConnectionDetails> nativeDetails) {
        return new ClickHouseTcpJdbcConnectionDetailsPostProcessor(nativeDetails);
    }

    /**
     * {@code JdbcConnectionDetails} from the client's connection details, when the application gives no JDBC URL
     * and does not want the DataSource over the client: Spring Boot's pooled DataSource then reaches the same
     * servers as the client, with this driver, instead of failing to find a driver class without a URL.
     */
    @Bean
    @ConditionalOnMissingBean(JdbcConnectionDetails.class)
    @Conditional(NoDataSourceUrlCondition.class)
    @ConditionalOnBooleanProperty(name = "clickhouse.tcp.jdbc.enabled", havingValue = false, matchIfMissing = true)
    @ConditionalOnSingleCandidate(ClickHouseTcpConnectionDetails.class)
    JdbcConnectionDetails clickHouseTcpJdbcConnectionDetails(ClickHouseTcpConnectionDetails connectionDetails) {
        return ClickHouseTcpJdbcConnectionDetailsPostProcessor.nativeDetails(connectionDetails, null);
    }

    /**
     * The {@code DataSource} over the client's pool.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty("clickhouse.tcp.jdbc.enabled")
    @ConditionalOnMissingBean(DataSource.class)
    @Conditional(NoDataSourceUrlCondition.class)
    @ConditionalOnSingleCandidate(ClickHouseTcpClient.class)
    static class ClientDataSourceConfiguration {

        @Bean
        ClickHouseClientDataSource dataSource(ClickHouseTcpClient clickHouseTcpClient,
                ClickHouseTcpJdbcProperties properties) {
            ClickHouseClientDataSource dataSource = new ClickHouseClientDataSource(clickHouseTcpClient);
            properties.getProperties().forEach(dataSource::setProperty);
            return dataSource;
        }

    }

    /**
     * Matches when {@code spring.datasource.url} is not set: the application's own JDBC URL means a
     * {@code DataSource} of its own (Spring Boot's pooled one).
     */
    static class NoDataSourceUrlCondition extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return context.getEnvironment().containsProperty("spring.datasource.url")
                    ? ConditionOutcome.noMatch("spring.datasource.url is set")
                    : ConditionOutcome.match("spring.datasource.url is not set");
        }

    }

}
