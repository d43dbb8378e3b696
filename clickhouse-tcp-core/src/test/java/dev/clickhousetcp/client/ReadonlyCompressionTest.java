package dev.clickhousetcp.client;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A readonly user (readonly = 1 or 2, from its profile or from {@code SET readonly} in a session) queries
 * and inserts with every compression on both servers.
 */
@ClickHouseTest
class ReadonlyCompressionTest {

    static List<Arguments> cases() {
        return CompressedSessionErrorTest.serversAndCompressions(Compression.ZSTD, Compression.zstd(3), Compression.LZ4,
                Compression.NONE);
    }

    private static ClickHouseServer server(String kind) {
        return CompressedSessionErrorTest.server(kind);
    }

    private static void queries(QueryOperations ops) {
        for (int i = 0; i < 3; i++) {
            assertThat(((Number) ops.queryRows("SELECT 1").get(0)[0]).intValue()).isEqualTo(1);
            assertThat(ops.query("SELECT number FROM system.numbers LIMIT 100000", (row, n) -> row.getLong(0)))
                    .hasSize(100_000).endsWith(99_999L);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void aSessionThatSetsReadonlyOneQueriesWithEveryCompression(String kind, Compression compression) {
        try (ClickHouseTcpClient client = TestClients.builder(server(kind)).compression(compression).build();
             ClickHouseSession session = client.openSession()) {
            session.execute("CREATE TEMPORARY TABLE tmp_readonly_compression (x UInt64)");
            session.execute("INSERT INTO tmp_readonly_compression SELECT number FROM numbers(1000)");
            session.execute("SET readonly = 1");
            queries(session);
            assertThat(((Number) session.queryRows("SELECT sum(x) FROM tmp_readonly_compression").get(0)[0]).longValue())
                    .isEqualTo(499_500L);
            assertThat(session.isOpen()).isTrue();
        }
    }

    /**
     * 26.7 refuses network_compression_method for readonly = 1 (code 164): the client sends the statement
     * again without it, reads the server's own method, no longer sends it on that connection and says so
     * once. (18.16 ignores every query setting of a readonly = 1 user, so it never refuses.)
     */
    @Test
    void theRefusedCompressionSettingIsDroppedAndLoggedOnce() {
        ClickHouseConnection.forgetLoggedCompressionRefusals();
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern())
                .user(ClickHouseServer.READONLY_USER).maxPoolSize(2).compression(Compression.ZSTD).build()) {
            try (QueryResult a = client.query("SELECT number FROM numbers(10)");
                 QueryResult b = client.query("SELECT number FROM numbers(20)")) { // two connections at once
                assertThat(a.drain()).isEqualTo(10);
                assertThat(b.drain()).isEqualTo(20);
            }
            queries(client);
            long frames = client.withConnection(ClickHouseConnection::framesRead);
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
            assertThat(client.withConnection(ClickHouseConnection::framesRead)).as("responses still compressed")
                    .isGreaterThan(frames);
            assertThat(client.poolStats().destroyed()).isZero();
        } finally {
            System.setErr(err);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        assertThat(log.split("may not set network_compression_method", -1)).as(log).hasSize(2);
        assertThat(log).contains("user '" + ClickHouseServer.READONLY_USER + "'").contains("ZSTD(1)");
    }

    /**
     * readonly = 1 reached through a {@code SET profile} of the session: the client cannot see the profile's
     * settings without asking, so after a profile change it asks for no compression setting (26.7 would refuse
     * it with 164 and close the connection), reads the server's own method and keeps the session; a profile
     * without readonly queries the same way.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"readonly_queries", "default"})
    void aSessionThatSetsAProfileQueriesWithZstd(String profile) {
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern()).compression(Compression.ZSTD)
                .build();
             ClickHouseSession session = client.openSession()) {
            session.execute("CREATE TEMPORARY TABLE tmp_profile_compression (x UInt64)");
            session.execute("INSERT INTO tmp_profile_compression SELECT number FROM numbers(1000)");
            session.execute("SET profile = '" + profile + "'");
            queries(session);
            assertThat(((Number) session.queryRows("SELECT sum(x) FROM tmp_profile_compression").get(0)[0]).longValue())
                    .isEqualTo(499_500L);
            assertThat(session.isOpen()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void readonlyUsersQueryWithEveryCompression(String kind, Compression compression) {
        for (String user : List.of(ClickHouseServer.READONLY_USER, ClickHouseServer.READONLY_SETTINGS_USER)) {
            try (ClickHouseTcpClient client = TestClients.builder(server(kind)).user(user).maxPoolSize(1)
                    .compression(compression).build()) {
                queries(client);
                try (ClickHouseSession session = client.openSession()) {
                    queries(session);
                }
                assertThat(client.poolStats().destroyed()).as(user + ": connections lost").isEqualTo(1); // the session's
            }
        }
    }
}
