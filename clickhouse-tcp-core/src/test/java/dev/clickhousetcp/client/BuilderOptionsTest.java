package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** {@link ClickHouseTcpClient.Builder#url(String)} and {@link ClickHouseTcpClient.Builder#defaultQueryTimeout} against the 26.7 server. */
@ClickHouseTest
class BuilderOptionsTest {
    private static final String SLOW = "SELECT sleepEachRow(0.1) FROM numbers(30) SETTINGS max_block_size = 1";

    @Test
    void urlConfiguresTheClient() {
        ClickHouseServer server = ClickHouseServers.modern();
        String url = "clickhouse://" + ClickHouseServer.SECRET_USER + ":" + ClickHouseServer.SECRET_PASSWORD + "@"
                + server.host() + ":" + server.tcpPort() + "/system?max_threads=3&compression=zstd&client_name=url-test";
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().url(url).build()) {
            assertThat(client.queryRows("SELECT currentUser(), currentDatabase(), toString(getSetting('max_threads'))").get(0))
                    .containsExactly(ClickHouseServer.SECRET_USER, "system", "3");
            assertThat(client.config().compression()).isEqualTo(Compression.ZSTD);
            assertThat(client.queryRows("SELECT number FROM numbers(100000)")).hasSize(100000);
            assertThat(client.config().clientName()).isEqualTo("url-test");
            assertThat(client.toString()).doesNotContain(ClickHouseServer.SECRET_PASSWORD);
        }
    }

    @Test
    void urlWithSeveralHostsFailsOverToTheLiveOne() {
        ClickHouseServer server = ClickHouseServers.modern();
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .url("clickhouse://127.0.0.1:1," + server.host() + ":" + server.tcpPort()).build()) {
            assertThat(client.poolConfig().endpoints()).hasSize(2);
            assertThat(client.withConnection(ClickHouseConnection::endpoint))
                    .isEqualTo(new Endpoint(server.host(), server.tcpPort()));
        }
    }

    @Test
    void defaultQueryTimeoutAppliesToCallsWithoutTheirOwn() {
        Duration timeout = Duration.ofMillis(400);
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern()).defaultQueryTimeout(timeout)
                .build()) {
            ClickHouseTimeoutException e = catchThrowableOfType(() -> client.execute(SLOW),
                    ClickHouseTimeoutException.class);
            assertThat(e).isNotNull();
            assertThat(e.deadline()).isEqualTo(ClickHouseTimeoutException.Deadline.QUERY);
            assertThat(e.timeout()).isEqualTo(timeout);
            // a call's own timeout wins
            assertThat(client.queryRows(SLOW, QueryOptions.builder().timeout(Duration.ofSeconds(30)).build()))
                    .hasSize(30);
            // sessions opened from the client too
            try (ClickHouseSession session = client.openSession()) {
                assertThat(catchThrowableOfType(() -> session.execute(SLOW), ClickHouseTimeoutException.class))
                        .isNotNull();
            }
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
    }

    @Test
    void defaultQueryTimeoutMustBePositive() {
        assertThatIllegalArgumentException().isThrownBy(() -> ClickHouseTcpClient.builder()
                .defaultQueryTimeout(Duration.ZERO)).withMessageContaining("defaultQueryTimeout");
        ClickHouseTcpClient.builder().defaultQueryTimeout(null).build().close();
    }

    @Test
    void poolConfigShowsTheEndpoints() {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().endpoints(List.of("a:1", "b"))
                .loadBalancing(LoadBalancing.ROUND_ROBIN).build()) {
            assertThat(client.poolConfig().endpoints()).containsExactly(new Endpoint("a", 1), new Endpoint("b", 9000));
            assertThat(client.poolConfig().loadBalancing()).isEqualTo(LoadBalancing.ROUND_ROBIN);
        }
    }
}
