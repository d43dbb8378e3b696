package dev.clickhousetcp.spring.autoconfigure.jdbc;

import dev.clickhousetcp.jdbc.ClickHouseDriver;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.core.Ordered;
import org.springframework.util.StringUtils;

/**
 * Names {@link ClickHouseDriver} as the driver class of every {@link DataSourceProperties} bean whose URL is one of
 * the driver's ({@code jdbc:clickhouse:tcp://}, {@code jdbc:ch:tcp://}, {@code tcps}) and whose driver class is not
 * set. Without it, Spring Boot derives the class from the URL's prefix ({@code DatabaseDriver.CLICKHOUSE}, for
 * every {@code jdbc:clickhouse:} and {@code jdbc:ch:} URL) and names ClickHouse's HTTP driver
 * {@code com.clickhouse.jdbc.ClickHouseDriver}. A driver class set in the properties always wins.
 *
 * <p>Runs after the properties are bound (after {@code ConfigurationPropertiesBindingPostProcessor}), so it sees
 * every property source, test and dynamic ones included, and leaves the {@code Environment} as it is; it covers
 * the application's own {@code DataSourceProperties} beans and {@code initializeDataSourceBuilder()} too.
 */
final class ClickHouseTcpDataSourcePropertiesPostProcessor implements BeanPostProcessor, Ordered {

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof DataSourceProperties properties && !StringUtils.hasText(properties.getDriverClassName())
                && ClickHouseTcpJdbcUrls.isNative(properties.getUrl())) {
            properties.setDriverClassName(ClickHouseDriver.class.getName());
        }
        return bean;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

}
