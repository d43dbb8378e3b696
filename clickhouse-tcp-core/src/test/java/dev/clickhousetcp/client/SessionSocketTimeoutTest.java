package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.FaultProxy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link ClickHouseSession#setSocketTimeout}: one session's socket timeout changes while the client's configured one
 * (60 s here) stays for the others; a stalled server (a proxy in front of the legacy server stops forwarding) ends
 * the session's wait at the new value, long before the configured one.
 */
@ClickHouseTest
class SessionSocketTimeoutTest {

    @Test
    void aSessionsOwnSocketTimeoutEndsAStalledWaitAndOthersKeepTheConfiguredOne() throws Exception {
        try (FaultProxy proxy = FaultProxy.forNativePort(ClickHouseServers.legacy());
             ClickHouseTcpClient client = ClickHouseTcpClient.builder().host(proxy.host()).port(proxy.port())
                     .socketTimeout(Duration.ofSeconds(60)).compression(Compression.NONE).maxPoolSize(2).build();
             ClickHouseSession timed = client.openSession();
             ClickHouseSession other = client.openSession()) {
            assertThatThrownBy(() -> timed.setSocketTimeout(Duration.ofMillis(-1)))
                    .isInstanceOf(IllegalArgumentException.class);
            timed.setSocketTimeout(Duration.ofMillis(300));
            timed.setSocketTimeout(Duration.ZERO); // back to the configured one
            assertThat(timed.socketTimeout()).isEqualTo(Duration.ofSeconds(60));
            timed.setSocketTimeout(Duration.ofMillis(400));
            assertThat(timed.socketTimeout()).isEqualTo(Duration.ofMillis(400));
            assertThat(other.socketTimeout()).isEqualTo(Duration.ofSeconds(60));
            assertThat(timed.queryRows("SELECT 1")).hasSize(1); // sends nothing by itself: the session still works

            proxy.stallAll(FaultProxy.Direction.SERVER_TO_CLIENT);
            CompletableFuture<List<Object[]>> waiting = CompletableFuture.supplyAsync(() -> other.queryRows("SELECT 2"));
            CompletableFuture<List<Object[]>> stalled = CompletableFuture.supplyAsync(() -> timed.queryRows("SELECT 1"));
            Throwable e = null;
            try {
                stalled.get(20, TimeUnit.SECONDS); // far below the configured 60 s
            } catch (ExecutionException x) {
                e = x.getCause();
            }
            assertThat(e).isInstanceOf(ClickHouseTimeoutException.class);
            assertThat(((ClickHouseTimeoutException) e).deadline()).isEqualTo(Deadline.SOCKET);
            assertThat(e.getMessage()).contains("PT0.4S");
            assertThat(timed.isOpen()).isFalse();
            assertThat(waiting).isNotDone();
            proxy.releaseStalls();
            assertThat(waiting.get(20, TimeUnit.SECONDS)).hasSize(1);
            assertThat(other.isOpen()).isTrue();
        }
    }
}
