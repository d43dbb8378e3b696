package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Random;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A server that refuses an INSERT while the client is still uploading it sends its Exception and closes
 * the connection; the client's write then fails (connection reset, broken pipe), and the server's error
 * is what the caller gets, with the write failure suppressed, and the connection is discarded.
 */
@ClickHouseTest
class InsertRefusedMidUploadTest {

    static List<Arguments> cases() {
        List<Arguments> a = new ArrayList<>();
        for (String server : List.of("modern", "legacy", "legacy-tls")) {
            for (Compression c : List.of(Compression.NONE, Compression.LZ4, Compression.ZSTD)) {
                a.add(Arguments.of(server, c));
            }
        }
        return a;
    }

    private static ClickHouseTcpClient.Builder builder(String kind) {
        if (kind.equals("modern")) {
            return TestClients.builder(ClickHouseServers.modern());
        }
        ClickHouseServer legacy = ClickHouseServers.legacy();
        ClickHouseTcpClient.Builder b = TestClients.builder(legacy);
        if (!kind.equals("legacy-tls")) {
            return b;
        }
        TlsConfig tls = TlsConfig.builder().trustedCertificates(legacy.serverCertificatePem().orElseThrow().getParent()
                .resolve("ca.crt")).build();
        return b.host("localhost").port(legacy.tlsPort()).tls(tls);
    }

    private static String incompressible(int length) {
        Random r = new Random(42);
        char[] c = new char[length];
        for (int i = 0; i < length; i++) {
            c[i] = (char) ('!' + r.nextInt(94));
        }
        return new String(c);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void aBlockOverTheMemoryLimitGetsTheServersError(String kind, Compression compression) {
        ClickHouseServer server = kind.equals("modern") ? ClickHouseServers.modern() : ClickHouseServers.legacy();
        String t = TestClients.table("refused_upload");
        server.httpQuery("CREATE TABLE " + t + " (id UInt32, s String) ENGINE = Memory");
        try (ClickHouseTcpClient client = builder(kind).compression(compression).maxPoolSize(1).build()) {
            String big = incompressible(1 << 20); // so that compressed blocks are as big
            List<Object[]> rows = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                rows.add(new Object[] {i, big});
            }
            InsertOptions options = InsertOptions.builder().maxRowsPerBlock(1000)
                    .queryOptions(QueryOptions.builder().setting("max_memory_usage", 50_000_000).build()).build();
            Throwable e = catchThrowable(() -> client.insert(t, List.of("id", "s"), rows, options));
            assertThat(e).isInstanceOf(ClickHouseServerException.class);
            assertThat(((ClickHouseServerException) e).code()).as(String.valueOf(e)).isEqualTo(241);
            assertThat(e.getSuppressed()).as("the write failure").isNotEmpty();
            assertThat(client.poolStats().destroyed()).isEqualTo(1);
            assertThat(client.queryRows("SELECT count() FROM " + t)).hasSize(1);
        } finally {
            server.httpQuery("DROP TABLE IF EXISTS " + t);
        }
    }
}
