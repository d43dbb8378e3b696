package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Per-query settings: the server judges them, and its rejection leaves the connection usable. */
@ClickHouseTest
class QuerySettingsTest {

    @Test
    void unknownSettingsAreRejectedByTheServer() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            assertThatThrownBy(() -> client.queryRows("SELECT 1", QueryOptions.builder().setting("no_such_setting_xyz", 1)
                    .build())).isInstanceOfSatisfying(ClickHouseServerException.class,
                        e -> assertThat(e.code()).isEqualTo(115));
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
    }
}
