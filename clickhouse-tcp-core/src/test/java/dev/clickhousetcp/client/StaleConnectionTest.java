package dev.clickhousetcp.client;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connections that the server closed while they sat idle in the pool are recognised before reuse
 * (the socket already holds the server's FIN) and replaced, so no caller sees their failure.
 */
@ClickHouseTest
class StaleConnectionTest {

    private static long serverConnections(ClickHouseServer server) {
        return Long.parseLong(server.httpQuery("SELECT value FROM system.metrics WHERE metric = 'TCPConnection'").trim());
    }

    @Test
    void connectionsTheServerClosedWhileIdleAreReplacedWithoutAFailure() throws Exception {
        ClickHouseServer server = ClickHouseServers.modern();
        long before = serverConnections(server);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try (ClickHouseTcpClient client = TestClients.builder(server).maxPoolSize(4)
                .validateAfterIdle(Duration.ofHours(1)).build()) {
            // four connections at once, each told by its last query to close itself after 1 s idle
            CountDownLatch allBusy = new CountDownLatch(4);
            List<Future<Object>> warm = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                warm.add(threads.submit(() -> {
                    try (QueryResult r = client.query("SELECT 1", QueryOptions.builder()
                            .setting("idle_connection_timeout", 1).build())) {
                        allBusy.countDown();
                        allBusy.await(30, TimeUnit.SECONDS);
                        r.drain();
                    }
                    return null;
                }));
            }
            for (Future<Object> f : warm) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertThat(client.poolStats().idle()).isEqualTo(4);
            LifecycleTest.await("the server to close the idle connections", Duration.ofSeconds(30),
                    () -> serverConnections(server) <= before);

            List<CompletableFuture<Object>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                int n = i;
                results.add(CompletableFuture.supplyAsync(() -> client.queryRows("SELECT toUInt64(" + n + ")").get(0)[0],
                        threads));
            }
            for (int i = 0; i < 8; i++) {
                assertThat(results.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(BigInteger.valueOf(i));
            }
            PoolStats stats = client.poolStats();
            assertThat(stats.destroyed()).as("the four stale connections were replaced").isEqualTo(4);
            assertThat(stats.active()).isZero();
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void housekeepingDropsIdleConnectionsTheServerClosed() {
        ClickHouseServer server = ClickHouseServers.modern();
        try (ClickHouseTcpClient client = TestClients.builder(server).maxPoolSize(1)
                .validateAfterIdle(Duration.ofHours(1)).housekeepingPeriod(Duration.ofMillis(50)).build()) {
            for (int i = 0; i < 3; i++) {
                long destroyed = client.poolStats().destroyed();
                client.queryRows("SELECT 1", QueryOptions.builder().setting("idle_connection_timeout", 1).build());
                // the housekeeper sees the server's FIN on the idle connection (no round trip) and drops it
                LifecycleTest.await("the idle connection the server closed to be dropped", Duration.ofSeconds(30),
                        () -> client.poolStats().destroyed() == destroyed + 1);
                assertThat(client.poolStats().idle()).isZero();
                assertThat(client.queryRows("SELECT toUInt64(" + i + ")").get(0)[0]).isEqualTo(BigInteger.valueOf(i));
            }
            assertThat(client.poolStats().destroyed()).isEqualTo(3);
            assertThat(client.poolStats().created()).isEqualTo(4);
        }
    }
}
