package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseFeatureNotSupportedException;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Query parameters ({@code {name:Type}}): a server too old for them is told so before anything is sent. */
@ClickHouseTest
class QueryParametersTest {

    @Test
    void parametersOnAServerWithoutThemFailBeforeSending() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.legacy())) {
            assertThatThrownBy(() -> client.queryRows("SELECT {x:UInt8}", QueryOptions.builder().parameter("x", 1).build()))
                    .isInstanceOfSatisfying(ClickHouseFeatureNotSupportedException.class, (ex) -> {
                        assertThat(ex.requiredRevision()).isEqualTo(54459L);
                        assertThat(ex.serverRevision()).isEqualTo(client.withConnection((c) -> c.revision()));
                    })
                    .hasMessageContaining("parameters need protocol revision");
            assertThat(client.poolStats().destroyed()).isZero();
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
    }
}
