package dev.clickhousetcp.spring.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.Endpoint;
import dev.clickhousetcp.spring.actuate.health.ClickHouseTcpEndpointHealthIndicator;
import dev.clickhousetcp.spring.actuate.health.ClickHouseTcpHealthIndicator;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.FaultProxy;
import dev.clickhousetcp.testsupport.LegacyServer;
import dev.clickhousetcp.testsupport.StalledListener;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseTcpHealthIndicator} and {@link ClickHouseTcpEndpointHealthIndicator} against the real
 * servers.
 */
@ClickHouseTest
class ClickHouseTcpHealthIndicatorTests {

    @Test
    void upWithServerPoolAndLatencyDetails(ClickHouseServer server) {
        try (ClickHouseTcpClient client = client(server.host(), server.tcpPort())) {
            Health health = new ClickHouseTcpHealthIndicator(client).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            Map<String, Object> details = health.getDetails();
            assertThat(details.get("version")).asString().startsWith("26.7.");
            assertThat(details).containsKeys("displayName", "revision", "timezone")
                .containsEntry("endpoint", server.host() + ":" + server.tcpPort())
                .containsEntry("database", "default");
            assertThat((Long) details.get("revision")).isGreaterThan(54400L);
            assertThat((Double) details.get("pingLatencyMs")).isGreaterThanOrEqualTo(0.0).isLessThan(5000.0);
            assertThat(details.get("pool")).isEqualTo(Map.of("active", 0, "idle", 1, "pending", 0, "total", 1,
                    "max", 20, "saturated", false));
            assertThat(client.poolStats().idle()).isEqualTo(1);
        }
    }

    @Test
    void endpointIsTheOneTheConnectionReached(ClickHouseServer server) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
            .endpoints(List.of("127.0.0.1:1", server.host() + ":" + server.tcpPort()))
            .connectTimeout(Duration.ofSeconds(2))
            .build()) {
            Health health = new ClickHouseTcpHealthIndicator(client).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("endpoint", server.host() + ":" + server.tcpPort())
                .containsEntry("endpoints", List.of("127.0.0.1:1", server.host() + ":" + server.tcpPort()));
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
            assertThat(health.getDetails()).containsEntry("endpoint", "127.0.0.1:1").containsKey("pool");
            assertThat(health.getDetails().get("error")).asString()
                .startsWith(ClickHouseConnectionException.class.getName() + ": ")
                .contains("127.0.0.1:1");
        }
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().endpoints(List.of("127.0.0.1:1", "127.0.0.1:2"))
            .build()) {
            Health health = new ClickHouseTcpHealthIndicator(client).health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("endpoints", List.of("127.0.0.1:1", "127.0.0.1:2"));
        }
    }

    /** A server that stops answering: the ping gives up after the indicator's timeout. */
    @Test
    void pingIsBoundedByTheTimeout(ClickHouseServer server) throws Exception {
        try (FaultProxy proxy = FaultProxy.forNativePort(server);
                ClickHouseTcpClient client = client(proxy.host(), proxy.port())) {
            client.ping(); // one pooled connection through the proxy
            proxy.stallAll(FaultProxy.Direction.SERVER_TO_CLIENT);
            long start = System.nanoTime();
            Health health = new ClickHouseTcpHealthIndicator(client, Duration.ofMillis(300)).health();
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            proxy.releaseStalls();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails().get("error")).asString()
                .startsWith(ClickHouseTimeoutException.class.getName());
            assertThat(took).isLessThan(Duration.ofSeconds(3));
        }
    }

    /**
     * Every pooled connection busy (and an acquire timeout shorter than the queries): health does not wait for
     * one, it checks the server on a connection of its own and answers UP while the queries still run.
     */
    @Test
    void busyPoolIsUp(ClickHouseServer server) throws Exception {
        busyPoolIsUpOn(server);
    }

    @Test
    void busyPoolIsUpOnTheLegacyServer(@LegacyServer ClickHouseServer legacy) throws Exception {
        busyPoolIsUpOn(legacy);
    }

    private static void busyPoolIsUpOn(ClickHouseServer server) throws Exception {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort())
            .maxPoolSize(2).acquireTimeout(Duration.ofMillis(500)).build()) {
            ExecutorService callers = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> sleeps = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    sleeps.add(callers.submit(() -> client.execute("SELECT sleep(3)")));
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (client.poolStats().active() < 2 && System.nanoTime() < deadline) {
                    Thread.sleep(10); // polling interval
                }
                assertThat(client.poolStats().active()).isEqualTo(2);
                Health health = new ClickHouseTcpHealthIndicator(client, Duration.ofSeconds(1)).health();
                assertThat(sleeps).noneMatch(Future::isDone); // it did not wait for them
                assertThat(health.getStatus()).as("%s", health).isEqualTo(Status.UP);
                assertThat(health.getDetails()).containsKeys("version", "pingLatencyMs")
                    .containsEntry("endpoint", server.host() + ":" + server.tcpPort());
                assertThat(health.getDetails().get("pool")).asInstanceOf(InstanceOfAssertFactories.MAP)
                    .containsEntry("saturated", true)
                    .containsEntry("active", 2)
                    .containsEntry("max", 2);
                for (Future<?> sleep : sleeps) {
                    sleep.get(30, TimeUnit.SECONDS);
                }
                // its connection was its own: the pool holds the two the queries used
                assertThat(client.poolStats().created()).isEqualTo(2);
                Health idle = new ClickHouseTcpHealthIndicator(client, Duration.ofSeconds(1)).health();
                assertThat(idle.getStatus()).isEqualTo(Status.UP);
                assertThat(idle.getDetails().get("pool")).asInstanceOf(InstanceOfAssertFactories.MAP)
                    .containsEntry("saturated", false);
                assertThat(client.poolStats().created()).isEqualTo(2);
            }
            finally {
                callers.shutdownNow();
            }
        }
    }

    /**
     * A server that accepts connections and never answers, with the client's default timeouts (a 30 s
     * handshake): the whole check ends at the indicator's timeout, DOWN, and says which timeout expired.
     */
    @Test
    void stalledServerIsDownAtTheIndicatorsTimeout() throws Exception {
        try (StalledListener stalled = new StalledListener();
                ClickHouseTcpClient client = ClickHouseTcpClient.builder().host(stalled.host()).port(stalled.port())
                    .build()) {
            ExecutorService checker = Executors.newSingleThreadExecutor();
            try {
                Health health = checker.submit(() -> new ClickHouseTcpHealthIndicator(client, Duration.ofMillis(300))
                    .health()).get(15, TimeUnit.SECONDS);
                assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                assertThat(health.getDetails().get("error")).asString()
                    .startsWith(ClickHouseTimeoutException.class.getName())
                    .contains("PT0.3S")
                    .doesNotContain("PT30S");
                assertThat(stalled.accepted()).isPositive();
            }
            finally {
                checker.shutdownNow();
            }
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

    @Test
    void endpointIndicatorChecksItsOwnEndpoint(ClickHouseServer server) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
            .endpoints(List.of(server.host() + ":" + server.tcpPort(), "127.0.0.1:1"))
            .build()) {
            Health up = new ClickHouseTcpEndpointHealthIndicator(client, new Endpoint(server.host(), server.tcpPort()),
                    Duration.ofSeconds(5)).health();
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsEntry("endpoint", server.host() + ":" + server.tcpPort())
                .containsKeys("version", "pingLatencyMs");
            Health down = new ClickHouseTcpEndpointHealthIndicator(client, new Endpoint("127.0.0.1", 1),
                    Duration.ofSeconds(5)).health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("endpoint", "127.0.0.1:1").containsKey("error");
            // its connections are its own: the pool is untouched
            assertThat(client.poolStats().created()).isZero();
        }
    }

    static ClickHouseTcpClient client(String host, int port) {
        return ClickHouseTcpClient.builder().host(host).port(port).connectTimeout(Duration.ofSeconds(2)).build();
    }

}
