package dev.clickhousetcp.spring.docker.compose;

import java.nio.file.Path;

import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.testcontainers.DockerClientFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code clickhouse/clickhouse-server} service started by Spring Boot's docker compose support. Needs
 * a Docker engine with the compose plugin: without one the class is disabled with that reason and
 * reported as skipped.
 */
@EnabledIf(value = "dockerAvailable", disabledReason = "needs a Docker engine with docker compose")
class ClickHouseTcpDockerComposeConnectionDetailsFactoryIntegrationTests {

    static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    @Test
    void connectsToTheComposeService() {
        Path compose = Path.of("src/test/resources/dev/clickhousetcp/spring/docker/compose/clickhouse-compose.yaml");
        SpringApplication application = new SpringApplication(Config.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        try (ConfigurableApplicationContext context = application.run(
                "--spring.docker.compose.file=" + compose.toAbsolutePath(), "--spring.docker.compose.skip.in-tests=false",
                "--spring.docker.compose.lifecycle-management=start-and-stop")) {
            ClickHouseTcpConnectionDetails details = context.getBean(ClickHouseTcpConnectionDetails.class);
            assertThat(details.getUsername()).isEqualTo("app");
            assertThat(details.getDatabase()).isEqualTo("analytics");
            ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
            assertThat(template.queryForObject("SELECT currentDatabase()", String.class)).isEqualTo("analytics");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(ClickHouseTcpAutoConfiguration.class)
    static class Config {

    }

}
