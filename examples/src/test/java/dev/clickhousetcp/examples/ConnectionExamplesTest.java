package dev.clickhousetcp.examples;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** TLS (on the 18.16 server's secure port), failover and observations. */
@ClickHouseTest
class ConnectionExamplesTest {

    @Test
    void tls() {
        ClickHouseServer legacy = ClickHouseServers.legacy();
        Path ca = legacy.serverCertificatePem().orElseThrow().getParent().resolve("ca.crt");
        assertThat(Tls.run("localhost", legacy.tlsPort(), ca)).isEqualTo(Http.value(legacy, "SELECT version()"));
    }

    @Test
    void failover() {
        ClickHouseServer server = ClickHouseServers.modern();
        Failover.Answered answered = Failover.run(server.host(), server.tcpPort());
        assertThat(answered.serverPort()).isEqualTo(Integer.parseInt(Http.value(server, "SELECT tcpPort()")));
        assertThat(answered.connectedTo()).containsExactly(server.host() + ":" + server.tcpPort())
                .doesNotContain(answered.deadEndpoint());
    }

    @Test
    void tracing() {
        ClickHouseServer server = ClickHouseServers.modern();
        String queryId = "example-traced-" + UUID.randomUUID();
        List<Tracing.Observed> observed = Tracing.run(server.host(), server.tcpPort(), queryId);
        assertThat(observed).extracting(Tracing.Observed::name).containsExactly("PING", "SELECT default");
        Tracing.Observed query = observed.get(1);
        assertThat(query.queryId()).isEqualTo(queryId);
        assertThat(query.keys()).contains("db.system.name=clickhouse", "db.operation.name=SELECT",
                "clickhouse.client.name=example", "outcome=SUCCESS", "server.port=" + server.tcpPort());
        server.httpQuery("SYSTEM FLUSH LOGS");
        String[] logged = Http.rows(server, "SELECT result_rows, read_rows FROM system.query_log WHERE query_id = '"
                + queryId + "' AND type = 'QueryFinish'").get(0);
        assertThat(query.returnedRows()).isEqualTo(Long.parseLong(logged[0]));
        assertThat(query.readRows()).isEqualTo(Long.parseLong(logged[1]));
    }
}
