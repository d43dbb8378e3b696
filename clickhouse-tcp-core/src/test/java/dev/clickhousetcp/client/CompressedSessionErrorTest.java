package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A server error in a session keeps the session's connection, and with it its temporary tables, with
 * every compression on both servers: errors raised before the server reads the query's external
 * tables (a syntax error: 18.16 leaves them unread, see
 * {@link dev.clickhousetcp.protocol.ProtocolFeature#EXTERNAL_TABLES_READ_AFTER_FAILURE}) and after
 * (an unknown table, {@code throwIf}, a type mismatch).
 */
@ClickHouseTest
class CompressedSessionErrorTest {

    static List<Arguments> cases() {
        return serversAndCompressions(Compression.LZ4, Compression.ZSTD, Compression.NONE);
    }

    /** ("legacy" or "modern", compression) for each server and each of {@code compressions}. */
    static List<Arguments> serversAndCompressions(Compression... compressions) {
        List<Arguments> a = new ArrayList<>();
        for (String server : List.of("legacy", "modern")) {
            for (Compression c : compressions) {
                a.add(Arguments.of(server, c));
            }
        }
        return a;
    }

    /** The server a case names: "legacy" (18.16) or "modern" (26.7). */
    static ClickHouseServer server(String kind) {
        return kind.equals("legacy") ? ClickHouseServers.legacy() : ClickHouseServers.modern();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void serverErrorsKeepTheSessionAndItsTemporaryTable(String kind, Compression compression) {
        try (ClickHouseTcpClient client = TestClients.builder(server(kind)).compression(compression).build();
             ClickHouseSession session = client.openSession()) {
            session.execute("CREATE TEMPORARY TABLE tmp_session_errors (x UInt8)");
            session.execute("INSERT INTO tmp_session_errors SELECT 7");
            String[] failing = {"SELEC 1", "SELECT * FROM no_such_table_session_errors",
                "SELECT throwIf(x = 7) FROM tmp_session_errors", "SELECT 1 + 'a'", "SELECT 1 FROM"};
            int[] codes = {62, 60, 395, 43, 62};
            for (int i = 0; i < failing.length; i++) {
                String sql = failing[i];
                ClickHouseServerException e = catchThrowableOfType(() -> session.queryRows(sql),
                        ClickHouseServerException.class);
                assertThat(e).as(sql).isNotNull();
                assertThat(e.code()).as(sql).isEqualTo(codes[i]);
                assertThat(session.isOpen()).as("after " + sql).isTrue();
                assertThat(((Number) session.queryRows("SELECT sum(x) FROM tmp_session_errors").get(0)[0]).intValue())
                        .as("the temporary table after " + sql).isEqualTo(7);
            }
        }
    }
}
