package dev.clickhousetcp.client;

import dev.clickhousetcp.protocol.ProtocolRevision;
import dev.clickhousetcp.protocol.ServerHello;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.LegacyServer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ClickHouseTcpClient#serverHellos()}: what the pool saw per endpoint, without connecting. */
@ClickHouseTest
class ServerHellosTest {

    @Test
    void emptyUntilThePoolConnectsThenTheHelloOfEachEndpoint(ClickHouseServer modern,
                                                              @LegacyServer ClickHouseServer legacy) {
        String first = modern.host() + ":" + modern.tcpPort();
        String second = legacy.host() + ":" + legacy.tcpPort();
        try (ClickHouseTcpClient client = TestClients.builder(modern).endpoints(List.of(first, second))
                .loadBalancing(LoadBalancing.IN_ORDER).build()) {
            assertThat(client.serverHellos()).isEmpty();
            assertThat(client.poolStats().created()).isZero();

            ServerHello seen = client.serverInfo();
            Map<Endpoint, ServerHello> hellos = client.serverHellos();
            assertThat(hellos).containsOnlyKeys(new Endpoint(modern.host(), modern.tcpPort()));
            assertThat(hellos.get(new Endpoint(modern.host(), modern.tcpPort()))).isEqualTo(seen);

            // two connections at once: in order, the second goes to the first endpoint too
            try (QueryResult a = client.query("SELECT 1"); QueryResult b = client.query("SELECT 2")) {
                assertThat(client.serverHellos()).hasSize(1);
            }
        }
        try (ClickHouseTcpClient client = TestClients.builder(modern).endpoints(List.of(first, second))
                .loadBalancing(LoadBalancing.ROUND_ROBIN).build()) {
            try (QueryResult a = client.query("SELECT 1"); QueryResult b = client.query("SELECT 2")) {
                Map<Endpoint, ServerHello> hellos = client.serverHellos();
                assertThat(hellos.keySet()).containsExactly(new Endpoint(modern.host(), modern.tcpPort()),
                        new Endpoint(legacy.host(), legacy.tcpPort()));
                ServerHello old = hellos.get(new Endpoint(legacy.host(), legacy.tcpPort()));
                assertThat(old.version()).startsWith("18.16.");
                assertThat(old.revision()).isLessThan(ProtocolRevision.CLIENT);
                assertThat(hellos.get(new Endpoint(modern.host(), modern.tcpPort())).versionMajor()).isGreaterThan(18);
            }
        }
    }
}
