package dev.clickhousetcp.client;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseSession#release()}: a session whose server state stayed as a new connection's gives its
 * connection back for reuse; one that ran a session statement closes it, as {@link ClickHouseSession#close()}.
 */
@ClickHouseTest
class SessionReleaseTest {

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void aCleanSessionGivesItsConnectionBackAndADirtyOneClosesIt(ClickHouseServer.Kind kind) {
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.get(kind)).maxPoolSize(1).build()) {
            ClickHouseSession clean = client.openSession();
            clean.queryRows("SELECT 1");
            clean.setSocketTimeout(Duration.ofMillis(1234));
            clean.release();
            clean.release(); // idempotent
            assertThat(client.poolStats().idle()).isOne();
            try (ClickHouseSession next = client.openSession()) {
                assertThat(next.socketTimeout()).isEqualTo(client.config().socketTimeout());
                assertThat(next.queryRows("SELECT 2").get(0)[0].toString()).isEqualTo("2");
            }
            assertThat(client.poolStats().created()).isOne();
            assertThat(client.poolStats().idle()).isZero(); // close() never gives back

            for (String change : new String[] {"SET max_threads = 1", "USE system",
                "CREATE TEMPORARY TABLE release_tmp (x UInt8)"}) {
                long created = client.poolStats().created();
                ClickHouseSession dirty = client.openSession();
                dirty.queryRows(change);
                dirty.release();
                assertThat(client.poolStats().idle()).as(change).isZero();
                try (ClickHouseSession next = client.openSession()) {
                    assertThat(next.queryRows("SELECT currentDatabase()").get(0)[0]).as(change).isEqualTo("default");
                }
                assertThat(client.poolStats().created()).as(change).isEqualTo(created + 2);
            }
        }
    }
}
