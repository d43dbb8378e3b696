package dev.clickhousetcp.spring.testcontainers;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.clickhousetcp.jdbc.ClickHouseDriver;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.autoconfigure.jdbc.ClickHouseTcpJdbcAutoConfiguration;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import org.junit.jupiter.api.Test;
import org.testcontainers.clickhouse.ClickHouseContainer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.junit.jupiter.SpringJUnitConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * AT-02's service connection: {@code @ServiceConnection} on a {@link ClickHouseContainer} (never started, backed by
 * the modern test server, see {@link ServerBackedClickHouseContainer}; this machine has no Docker engine) with
 * clickhouse-tcp-jdbc and Spring Boot's DataSource auto-configuration. Spring Boot's own JDBC factory gives the
 * container's HTTP URL ({@code jdbc:clickhouse://host:<8123 mapped>/db}, ClickHouse's HTTP driver, absent here); the
 * DataSource gets the native-port details of the same service connection instead.
 */
@SpringJUnitConfig
class ClickHouseTcpJdbcServiceConnectionTests {

    static final ClickHouseServer server = ClickHouseServers.modern();

    @ServiceConnection
    static final ClickHouseContainer container = ServerBackedClickHouseContainer.ofSecretUser(server);

    @Autowired
    ApplicationContext context;

    @Test
    void theDataSourceGetsTheNativePortNotSpringBootsHttpUrl() {
        assertThat(container.getJdbcUrl()).startsWith("jdbc:clickhouse://").contains(":" + server.httpPort() + "/");
        JdbcConnectionDetails details = this.context.getBean(JdbcConnectionDetails.class);
        assertThat(details.getJdbcUrl())
            .isEqualTo("jdbc:clickhouse:tcp://" + server.host() + ":" + server.tcpPort() + "/system");
        assertThat(details.getDriverClassName()).isEqualTo(ClickHouseDriver.class.getName());
        assertThat(details.getUsername()).isEqualTo(ClickHouseServer.SECRET_USER);
        assertThat(details.getPassword()).isEqualTo(ClickHouseServer.SECRET_PASSWORD);
        assertThat(details.toString()).doesNotContain(ClickHouseServer.SECRET_PASSWORD);
        assertThat(Origin.from(details)).isNotNull();

        HikariDataSource dataSource = (HikariDataSource) this.context.getBean(DataSource.class);
        assertThat(dataSource.getJdbcUrl()).isEqualTo(details.getJdbcUrl());
        assertThat(this.context.getBean(JdbcTemplate.class)
            .queryForObject("SELECT concat(currentUser(), '/', currentDatabase())", String.class))
            .isEqualTo(ClickHouseServer.SECRET_USER + "/system");
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ ClickHouseTcpAutoConfiguration.class, ClickHouseTcpJdbcAutoConfiguration.class,
            DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class })
    static class Config {

    }

}
