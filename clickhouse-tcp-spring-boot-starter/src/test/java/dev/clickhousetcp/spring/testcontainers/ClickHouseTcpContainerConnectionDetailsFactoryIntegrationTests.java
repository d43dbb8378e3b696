package dev.clickhousetcp.spring.testcontainers;

import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import org.junit.jupiter.api.Test;
import org.testcontainers.clickhouse.ClickHouseContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.junit.jupiter.SpringJUnitConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @ServiceConnection} with a started {@link ClickHouseContainer}. Needs a Docker engine: without
 * one, Testcontainers disables the class ("Docker is not available") and it is reported as skipped.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringJUnitConfig
class ClickHouseTcpContainerConnectionDetailsFactoryIntegrationTests {

    @Container
    @ServiceConnection
    static final ClickHouseContainer clickhouse = new ClickHouseContainer("clickhouse/clickhouse-server:25.8")
        .withDatabaseName("analytics");

    @Autowired
    ClickHouseTcpConnectionDetails connectionDetails;

    @Autowired
    ClickHouseTcpTemplate template;

    @Test
    void connectsToTheContainersNativePort() {
        assertThat(this.connectionDetails.getNodes()).singleElement()
            .satisfies((node) -> assertThat(node.port()).isEqualTo(clickhouse.getMappedPort(9000)));
        assertThat(this.template.queryForObject("SELECT currentDatabase()", String.class)).isEqualTo("analytics");
        assertThat(this.template.queryForObject("SELECT currentUser()", String.class))
            .isEqualTo(clickhouse.getUsername());
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(ClickHouseTcpAutoConfiguration.class)
    static class Config {

    }

}
