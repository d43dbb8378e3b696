package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The client sends no setting the user did not set (unless the protocol needs one), so users whose
 * profile is {@code readonly = 1} (no setting may change) or {@code readonly = 2} run queries with the
 * client's defaults, and keep their connection.
 */
@ClickHouseTest
class ReadonlyUserTest {

    private static ClickHouseTcpClient.Builder as(ClickHouseServer server, String user) {
        return TestClients.builder(server).user(user).maxPoolSize(1);
    }

    private static void readsWithDefaults(ClickHouseServer server, String user) {
        try (ClickHouseTcpClient client = as(server, user).build()) {
            for (int i = 0; i < 3; i++) {
                assertThat(((Number) client.queryRows("SELECT 1").get(0)[0]).intValue()).isEqualTo(1);
                assertThat(client.query("SELECT number FROM system.numbers LIMIT 100000", (row, n) -> row.getLong(0)))
                        .hasSize(100_000);
            }
            try (ClickHouseSession session = client.openSession()) {
                assertThat(session.queryRows("SELECT 2")).hasSize(1);
                assertThat(session.queryRows("SELECT 3")).hasSize(1);
                assertThat(session.isOpen()).isTrue();
            }
            assertThat(client.poolStats().destroyed()).as("connections lost").isEqualTo(1); // the session's
        }
    }

    @Test
    void aReadonlyUserQueriesWithTheDefaultsOnTheModernServer() {
        readsWithDefaults(ClickHouseServers.modern(), ClickHouseServer.READONLY_USER);
    }

    @Test
    void aReadonlyUserQueriesWithTheDefaultsOnTheLegacyServer() {
        readsWithDefaults(ClickHouseServers.legacy(), ClickHouseServer.READONLY_USER);
    }

    @Test
    void aReadonlyTwoUserQueriesWithTheDefaultsAndItsOwnSettings() {
        for (ClickHouseServer server : List.of(ClickHouseServers.modern(), ClickHouseServers.legacy())) {
            readsWithDefaults(server, ClickHouseServer.READONLY_SETTINGS_USER);
            try (ClickHouseTcpClient client = as(server, ClickHouseServer.READONLY_SETTINGS_USER).build()) {
                assertThat(client.queryRows("SELECT 1", QueryOptions.builder().setting("max_block_size", 1000).build()))
                        .hasSize(1);
            }
        }
    }

    @Test
    void aSessionThatSetsReadonlyKeepsQuerying() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern());
             ClickHouseSession session = client.openSession()) {
            session.execute("SET readonly = 1");
            assertThat(session.queryRows("SELECT 1")).hasSize(1);
            assertThat(session.queryRows("SELECT 2")).hasSize(1);
            assertThat(session.isOpen()).isTrue();
        }
    }

    @Test
    void zstdForAReadonlyUserFallsBackToTheServersCompression() {
        try (ClickHouseTcpClient client = as(ClickHouseServers.modern(), ClickHouseServer.READONLY_USER)
                .compression(Compression.ZSTD).build()) {
            for (int i = 0; i < 3; i++) {
                assertThat(((Number) client.queryRows("SELECT 1").get(0)[0]).intValue()).isEqualTo(1);
            }
            assertThat(client.poolStats().active()).isZero();
            assertThat(client.poolStats().destroyed()).isZero();
        }
    }

    @Test
    void aReadonlyUsersOwnCompressionSettingIsTheServersError() {
        // the user's own network_compression_method is theirs: the server's refusal reaches them
        try (ClickHouseTcpClient client = as(ClickHouseServers.modern(), ClickHouseServer.READONLY_USER)
                .compression(Compression.ZSTD).build()) {
            ClickHouseServerException e = catchThrowableOfType(() -> client.queryRows("SELECT 1",
                    QueryOptions.builder().setting("network_compression_method", "zstd").build()),
                    ClickHouseServerException.class);
            assertThat(e.code()).isEqualTo(164);
            assertThat(e.getMessage()).contains("network_compression_method");
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
    }

    @Test
    void aReadonlyUsersOwnSettingIsTheServersErrorAndThePoolHeals() {
        try (ClickHouseTcpClient client = as(ClickHouseServers.modern(), ClickHouseServer.READONLY_USER).build()) {
            ClickHouseServerException e = catchThrowableOfType(() -> client.queryRows("SELECT 1",
                    QueryOptions.builder().setting("max_block_size", 1000).build()), ClickHouseServerException.class);
            assertThat(e.code()).isEqualTo(164);
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
            assertThat(client.poolStats().active()).isZero();
        }
    }
}
