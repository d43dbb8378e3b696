package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sessions: one query at a time on the session's own connection. */
@ClickHouseTest
class SessionTest {

    @Test
    void concurrentUseOfASessionIsATypedError() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern());
             ClickHouseSession session = client.openSession();
             QueryResult open = session.query("SELECT 1")) {
            assertThatThrownBy(() -> session.queryRows("SELECT 2")).isInstanceOf(ClickHouseException.class)
                    .hasMessageContaining("one query at a time");
            open.drain();
        }
    }
}
