package dev.clickhousetcp.client;

import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Query ids the client makes up: random version-4 UUIDs (RFC 4122 variant), distinct, accepted by the server. */
@ClickHouseTest
class QueryIdTest {
    @Test
    void generatedIdsAreDistinctVersionFourUuids() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            String id = ClickHouseConnection.randomQueryId();
            UUID u = UUID.fromString(id);
            assertThat(u.version()).isEqualTo(4);
            assertThat(u.variant()).isEqualTo(2);
            assertThat(u.toString()).isEqualTo(id);
            assertThat(seen.add(id)).as("id %s repeated", id).isTrue();
        }
    }

    @Test
    void theServerSeesTheGeneratedId() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            List<Object[]> rows = client.queryRows("SELECT queryID(), initialQueryID()");
            String id = (String) rows.get(0)[0];
            assertThat(UUID.fromString(id).version()).isEqualTo(4);
            assertThat(rows.get(0)[1]).isEqualTo(id);
        }
    }
}
