package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chunked packet framing against the 26.7 server, whose setup leaves framing to the client
 * ({@code proto_caps} = {@code chunked_optional} both ways).
 */
@ClickHouseTest
class ChunkedFramingTest {

    @Test
    void queriesInsertsAndErrorsWorkChunked() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("chunked");
        try (ClickHouseTcpClient client = TestClients.builder(server).preferChunked(true).build()) {
            client.withConnection(c -> {
                assertThat(c.sendsChunked()).isTrue();
                assertThat(c.receivesChunked()).isTrue();
                return null;
            });
            client.ping();
            long sum = 0;
            try (QueryResult r = client.query("SELECT number, toString(number) FROM numbers(1000000)")) {
                for (Block b : r) {
                    for (int i = 0; i < b.rowCount(); i++) {
                        sum += b.column(0).getLong(i);
                    }
                }
            }
            assertThat(sum).isEqualTo(999_999L * 1_000_000L / 2);
            client.execute("CREATE TABLE " + t + " (id UInt64, s String) ENGINE = Memory");
            try {
                List<Object[]> rows = new ArrayList<>();
                for (int i = 0; i < 200_000; i++) {
                    rows.add(new Object[] {(long) i, "v" + i});
                }
                assertThat(client.insert(t, List.of(), rows)).isEqualTo(200_000);
                assertThat(server.httpQuery("SELECT count(), sum(id), uniqExact(s) FROM " + t).trim())
                        .isEqualTo("200000\t19999900000\t200000");
                try {
                    client.execute("SELECT * FROM no_such_table_chunked");
                } catch (dev.clickhousetcp.ClickHouseServerException e) {
                    assertThat(e.code()).isEqualTo(60);
                }
                assertThat(client.queryRows("SELECT 1")).hasSize(1);
                assertThat(client.poolStats().destroyed()).isZero();
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.withConnection(c -> {
                assertThat(c.sendsChunked()).isFalse();
                assertThat(c.receivesChunked()).isFalse();
                return null;
            });
        }
    }
}
