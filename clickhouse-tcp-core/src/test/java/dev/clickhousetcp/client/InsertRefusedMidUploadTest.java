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

    static List<Arguments> otherKinds() {
        return CompressedSessionErrorTest.serversAndCompressions(Compression.NONE, Compression.LZ4);
    }

    /**
     * Errors of other kinds while the upload goes on: a value the server's own expression refuses in a
     * later block (throwIf in a MATERIALIZED column, code 395; a division by zero, code 153), and a block
     * with more partitions than max_partitions_per_insert_block (code 252, 26.7); blocks of 20 rows of
     * 1 MiB, 200 rows in one INSERT.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("otherKinds")
    void aBlockTheServerRefusesWhileLaterBlocksAreSentGetsTheServersError(String kind, Compression compression) {
        ClickHouseServer server = CompressedSessionErrorTest.server(kind);
        String t = TestClients.table("refused_later");
        String p = TestClients.table("refused_parts");
        server.httpQuery("CREATE TABLE " + t + " (id UInt32, s String, c UInt8 MATERIALIZED throwIf(id = 150)) "
                + "ENGINE = Memory");
        String d = TestClients.table("refused_div");
        server.httpQuery("CREATE TABLE " + d + " (id UInt32, s String, c Int64 MATERIALIZED intDiv(1, toInt64(id) - 170)) "
                + "ENGINE = Memory");
        server.httpQuery("CREATE TABLE " + p + " (id UInt32, s String) ENGINE = MergeTree() PARTITION BY id ORDER BY id");
        try (ClickHouseTcpClient client = builder(kind).compression(compression).maxPoolSize(1).build()) {
            String big = incompressible(1 << 20);
            List<Object[]> rows = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                rows.add(new Object[] {i, big});
            }
            InsertOptions blocks = InsertOptions.builder().maxRowsPerBlock(20).build();
            Throwable e = catchThrowable(() -> client.insert(t, List.of("id", "s"), rows, blocks));
            assertThat(e).isInstanceOf(ClickHouseServerException.class);
            assertThat(((ClickHouseServerException) e).code()).as(String.valueOf(e)).isEqualTo(395);
            e = catchThrowable(() -> client.insert(d, List.of("id", "s"), rows, blocks));
            assertThat(e).isInstanceOf(ClickHouseServerException.class);
            assertThat(((ClickHouseServerException) e).code()).as(String.valueOf(e)).isEqualTo(153);
            if (kind.equals("legacy")) {
                return; // 18.16 has no max_partitions_per_insert_block
            }
            InsertOptions partitions = InsertOptions.builder().maxRowsPerBlock(20)
                    .queryOptions(QueryOptions.builder().setting("max_partitions_per_insert_block", 10).build()).build();
            e = catchThrowable(() -> client.insert(p, List.of("id", "s"), rows, partitions));
            assertThat(e).isInstanceOf(ClickHouseServerException.class);
            assertThat(((ClickHouseServerException) e).code()).as(String.valueOf(e)).isEqualTo(252);
            assertThat(((Number) client.queryRows("SELECT count() FROM " + p).get(0)[0]).intValue()).isZero();
        } finally {
            server.httpQuery("DROP TABLE IF EXISTS " + t);
            server.httpQuery("DROP TABLE IF EXISTS " + p);
            server.httpQuery("DROP TABLE IF EXISTS " + d);
        }
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
