package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.protocol.ClientPacket;
import dev.clickhousetcp.protocol.Golden;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.protocol.ProtocolFeature;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Responses assembled from the golden packets of 26.7 and 18.16 (no server needed), played to a real
 * connection over an {@link InMemoryTransport}: the response reader's handling of Data, Progress,
 * ProfileInfo, Log, ProfileEvents, TableColumns, Exception, Pong and EndOfStream.
 */
class GoldenResponseTest {

    static List<String> versions() {
        return Golden.VERSIONS;
    }

    private static byte[] stream(String version, String... names) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (String n : names) {
            if (Golden.has(version, n)) {
                b.writeBytes(Golden.bytes(version, n));
            }
        }
        return b.toByteArray();
    }

    private static ClickHouseConnection connect(InMemoryTransport t) {
        ConnectionConfig config = ConnectionConfig.builder().host("golden").port(9000).compression(Compression.NONE)
                .build();
        return ConnectionOpener.handshake(config, t, new ConnectionGuard(Budget.NONE));
    }

    @ParameterizedTest
    @MethodSource("versions")
    void queryResponseWithEverySidePacket(String version) {
        InMemoryTransport t = new InMemoryTransport(stream(version, "server/hello", "server/progress",
                "data/Int8", "server/profile-info", "server/log", "server/profile-events", "server/end-of-stream"),
                1 << 16);
        ClickHouseConnection conn = connect(t);
        assertThat(conn.revision()).isEqualTo(Golden.revision(version));
        List<Block> logs = new ArrayList<>();
        List<Block> events = new ArrayList<>();
        QueryListener listener = new QueryListener() {
            @Override
            public void onLog(Block b) {
                logs.add(b.copy());
            }

            @Override
            public void onProfileEvents(Block b) {
                events.add(b.copy());
            }
        };
        Properties p = Golden.properties(version, "data/Int8");
        List<String> values = new ArrayList<>();
        try (QueryResult r = conn.query("SELECT 1", QueryOptions.builder().listener(listener).build())) {
            for (Block b : r) {
                for (int row = 0; row < b.rowCount(); row++) {
                    values.add(b.column("v").getString(row));
                }
            }
            Progress progress = r.progress();
            assertThat(progress.readRows()).isEqualTo(1000);
            assertThat(progress.readBytes()).isEqualTo(8000);
            ProfileInfo info = r.profileInfo();
            assertThat(info.rows()).isEqualTo(3);
            assertThat(info.appliedLimit()).isTrue();
            assertThat(r.isFinished()).isTrue();
        }
        List<String> expected = new ArrayList<>();
        for (int row = 0; row < Integer.parseInt(p.getProperty("rows")); row++) {
            expected.add(p.getProperty("value." + row + ".v"));
        }
        assertThat(values).isEqualTo(expected);
        assertThat(logs).hasSize(1);
        assertThat(logs.get(0).column("query_id").getString(0)).isEqualTo("golden-log");
        assertThat(events).hasSize(Golden.has(version, "server/profile-events") ? 1 : 0);
        assertThat(conn.isUsable()).isTrue();
        conn.close();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void insertResponseWithTableColumns(String version) {
        InMemoryTransport t = new InMemoryTransport(stream(version, "server/hello", "server/table-columns",
                "server/insert-header", "server/end-of-stream"), 1 << 16);
        ClickHouseConnection conn = connect(t);
        try (InsertStream in = conn.insert("INSERT INTO golden_insert VALUES", QueryOptions.DEFAULT)) {
            assertThat(in.columnNames()).containsExactly("id", "s", "a");
            if (Golden.has(version, "server/table-columns")) {
                assertThat(in.tableColumnsDescription()).contains("`s` String\tDEFAULT\t\\'d\\'");
            } else {
                assertThat(in.tableColumnsDescription()).isNull();
            }
            ColumnWriter[] w = in.newWriters();
            w[0].append(1L);
            w[0].append(2L);
            w[1].append("a");
            w[1].append("");
            w[2].append(Arrays.asList("x", null));
            w[2].append(List.of());
            in.sendBlock(w, 2);
            in.finish();
        }
        // the Data packet the client sent is the one the server accepted at capture time
        byte[] data = Golden.bytes(version, "client/data");
        assertThat(indexOf(t.sent(), data)).as("the golden Data packet among the bytes sent").isNotNegative();
        assertThat(conn.isUsable()).isTrue();
        conn.close();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void exceptionThenPong(String version) {
        // after an Exception the connection pings to consume stale answers; the Pong makes it ready again
        InMemoryTransport t = new InMemoryTransport(stream(version, "server/hello", "server/exception",
                "server/pong", "server/pong"), 1 << 16);
        ClickHouseConnection conn = connect(t);
        assertThatThrownBy(() -> {
            try (QueryResult r = conn.query("SELEC 1", QueryOptions.DEFAULT)) {
                r.drain();
            }
        }).isInstanceOfSatisfying(ClickHouseServerException.class, e -> assertThat(e.code()).isEqualTo(62));
        assertThat(conn.isUsable()).isTrue();
        conn.ping();
        assertThat(conn.isUsable()).isTrue();
        conn.close();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void compressedExceptionThenPong(String version) {
        // the Exception of a compressed query arrives uncompressed; the client ends the external tables the
        // way that server reads them after an early failure (Cancel below 20.1), and its resync Ping gets the Pong
        InMemoryTransport t = new InMemoryTransport(stream(version, "server/hello",
                "server/compressed-exception-pong", "server/pong"), 1 << 16);
        ClickHouseConnection conn = connect(t);
        QueryOptions lz4 = QueryOptions.builder().compression(Compression.LZ4).build();
        assertThatThrownBy(() -> {
            try (QueryResult r = conn.query("SELEC 1", lz4)) {
                r.drain();
            }
        }).isInstanceOfSatisfying(ClickHouseServerException.class, e -> assertThat(e.code()).isEqualTo(62));
        assertThat(conn.isUsable()).isTrue();
        byte[] sent = t.sent();
        byte[] tail = Arrays.copyOfRange(sent, sent.length - 2, sent.length);
        boolean legacy = !ProtocolFeature.EXTERNAL_TABLES_READ_AFTER_FAILURE.in(conn.revision());
        assertThat(Golden.properties(version, "server/compressed-exception-pong").getProperty("note"))
                .contains(legacy ? "Cancel" : "compressed empty Data block");
        if (legacy) {
            assertThat(tail).containsExactly(ClientPacket.CANCEL, ClientPacket.PING);
        } else {
            assertThat(tail[1]).isEqualTo((byte) ClientPacket.PING);
            assertThat(tail[0]).as("the end of the compressed empty block, not Cancel").isNotEqualTo((byte) ClientPacket.CANCEL);
        }
        conn.ping();
        conn.close();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void compressedEmptyBlockLeftUnreadByTheLegacyServer(String version) {
        // what 18.16 answers when the compressed empty block ends the external tables of a query that failed
        // before reading them: the error, code 101 for the Data and Hello it sees in the block's place, then
        // the end of the connection (the frame's checksum is an unknown packet to it)
        Assumptions.assumeTrue(Golden.has(version, "server/compressed-exception-unread-block"));
        InMemoryTransport t = new InMemoryTransport(stream(version, "server/hello",
                "server/compressed-exception-unread-block"), 1 << 16);
        ClickHouseConnection conn = connect(t);
        assertThatThrownBy(() -> {
            try (QueryResult r = conn.query("SELEC 1", QueryOptions.builder().compression(Compression.LZ4).build())) {
                r.drain();
            }
        }).isInstanceOfSatisfying(ClickHouseServerException.class, e -> {
            assertThat(e.code()).isEqualTo(62);
            assertThat(e.getSuppressed()).hasSize(1);
        });
        assertThat(conn.isUsable()).isFalse();
        conn.close();
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
