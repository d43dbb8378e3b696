package dev.clickhousetcp.spring.actuate;

import java.time.Duration;
import java.util.Map;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.actuate.health.ClickHouseTcpHealthIndicator;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.LegacyServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseTcpHealthIndicator} against the real servers.
 */
@ClickHouseTest
class ClickHouseTcpHealthIndicatorTests {

    @Test
    void upWithServerDetails(ClickHouseServer server) {
        try (ClickHouseTcpClient client = client(server.host(), server.tcpPort())) {
            Health health = new ClickHouseTcpHealthIndicator(client).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            Map<String, Object> details = health.getDetails();
            assertThat(details.get("version")).asString().startsWith("26.7.");
            assertThat(details).containsKeys("displayName", "revision", "timezone")
                .containsEntry("endpoint", server.host() + ":" + server.tcpPort())
                .containsEntry("database", "default");
            assertThat((Long) details.get("revision")).isGreaterThan(54400L);
            assertThat(client.poolStats().idle()).isEqualTo(1);
        }
    }

    @Test
    void upOnTheLegacyServer(@LegacyServer ClickHouseServer legacy) {
        try (ClickHouseTcpClient client = client(legacy.host(), legacy.tcpPort())) {
            Health health = new ClickHouseTcpHealthIndicator(client).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails().get("version")).asString().startsWith("18.16.");
        }
    }

    @Test
    void downWhenUnreachable() {
        try (ClickHouseTcpClient client = client("127.0.0.1", 1)) {
            Health health = new ClickHouseTcpHealthIndicator(client).health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("endpoint", "127.0.0.1:1");
            assertThat(health.getDetails().get("error")).asString()
                .startsWith(ClickHouseConnectionException.class.getName() + ": ")
                .contains("127.0.0.1:1");
        }
    }

    @Test
    void downErrorNeverShowsThePassword() {
        String password = "health-secret-pw-987";
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host("127.0.0.1").port(1).user("someone")
            .password(password).connectTimeout(Duration.ofSeconds(2)).build()) {
            Health health = new ClickHouseTcpHealthIndicator(client).health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.toString()).doesNotContain(password);
        }
    }

    static ClickHouseTcpClient client(String host, int port) {
        return ClickHouseTcpClient.builder().host(host).port(port).connectTimeout(Duration.ofSeconds(2)).build();
    }
}
