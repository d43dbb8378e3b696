package dev.clickhousetcp.spring.actuate;

import java.time.Duration;
import java.util.List;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.spring.actuate.metrics.ClickHouseTcpPoolMetrics;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseTcpPoolMetrics} against the real ClickHouse 26.7 server.
 */
@ClickHouseTest
class ClickHouseTcpPoolMetricsTests {

    @Test
    void metersFollowThePool(ClickHouseServer server) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort())
            .maxPoolSize(4).build()) {
            new ClickHouseTcpPoolMetrics(client, "main", List.of(Tag.of("app", "test"))).bindTo(registry);
            assertThat(gauge(registry, "clickhouse.tcp.pool.max")).isEqualTo(4);
            assertThat(gauge(registry, "clickhouse.tcp.pool.total")).isZero();

            client.ping();
            try (QueryResult open = client.query("SELECT number FROM numbers(10)")) {
                assertThat(gauge(registry, "clickhouse.tcp.pool.active")).isEqualTo(1);
                assertThat(gauge(registry, "clickhouse.tcp.pool.idle")).isZero();
                open.drain();
            }
            client.ping();
            assertThat(gauge(registry, "clickhouse.tcp.pool.active")).isZero();
            assertThat(gauge(registry, "clickhouse.tcp.pool.idle")).isEqualTo(1);
            assertThat(gauge(registry, "clickhouse.tcp.pool.total")).isEqualTo(1);
            assertThat(gauge(registry, "clickhouse.tcp.pool.pending")).isZero();
            assertThat(counter(registry, "clickhouse.tcp.pool.created")).isEqualTo(1);
            assertThat(counter(registry, "clickhouse.tcp.pool.destroyed")).isZero();
            assertThat(counter(registry, "clickhouse.tcp.pool.acquire.timeouts")).isZero();
            FunctionTimer acquire = registry.get("clickhouse.tcp.pool.acquire").tag("name", "main").functionTimer();
            assertThat(acquire.count()).isEqualTo(3);
            assertThat(acquire.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
            assertThat(registry.get("clickhouse.tcp.pool.active").tag("app", "test").gauge()).isNotNull();
        }
    }

    @Test
    void acquireTimeoutsAreCounted(ClickHouseServer server) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort())
            .maxPoolSize(1).acquireTimeout(Duration.ofMillis(100)).build()) {
            new ClickHouseTcpPoolMetrics(client, "tiny", List.of()).bindTo(registry);
            try (QueryResult busy = client.query("SELECT number FROM numbers(10)")) {
                try {
                    client.ping();
                }
                catch (RuntimeException expected) {
                    // the only connection is busy
                }
                assertThat(counter(registry, "clickhouse.tcp.pool.acquire.timeouts")).isEqualTo(1);
                busy.drain();
            }
        }
    }

    private static double gauge(SimpleMeterRegistry registry, String name) {
        Gauge gauge = registry.get(name).gauge();
        return gauge.value();
    }

    private static double counter(SimpleMeterRegistry registry, String name) {
        FunctionCounter counter = registry.get(name).functionCounter();
        return counter.count();
    }
}
