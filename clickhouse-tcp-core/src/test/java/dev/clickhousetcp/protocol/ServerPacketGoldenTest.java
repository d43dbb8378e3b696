package dev.clickhousetcp.protocol;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.io.BinaryReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server packets as ClickHouse 26.7 and 18.16 sent them (golden bytes, no server needed), decoded by
 * the protocol readers at the revision they were captured at; every file is consumed to its last byte.
 */
class ServerPacketGoldenTest {
    static List<String> versions() {
        return Golden.VERSIONS;
    }

    private static BinaryReader packet(String version, String name, int type) throws IOException {
        byte[] bytes = Golden.bytes(version, name);
        BinaryReader r = Golden.reader(bytes);
        assertThat(r.readVarUInt()).as("packet type of " + name).isEqualTo(type);
        return r;
    }

    private static void assertConsumed(BinaryReader r, String version, String name) {
        assertThat(r.bytesRead()).as(version + "/" + name + " read to its end")
                .isEqualTo(Golden.bytes(version, name).length);
    }

    private static boolean modern(String version) {
        return version.startsWith("26.");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void hello(String version) throws IOException {
        BinaryReader r = packet(version, "server/hello", ServerPacket.HELLO);
        ServerHello h = ServerHello.read(r, ProtocolRevision.CLIENT);
        Properties p = Golden.properties(version, "server/hello");
        assertThat(h.name()).isEqualTo("ClickHouse");
        assertThat(h.version()).isEqualTo(p.getProperty("server.version")).isEqualTo(version);
        assertThat(h.revision()).isEqualTo(Long.parseLong(p.getProperty("server.revision")));
        assertThat(Math.min(h.revision(), ProtocolRevision.CLIENT)).isEqualTo(Golden.revision(version));
        assertThat(h.timezone()).isNotEmpty();
        assertThat(h.displayName()).isNotEmpty();
        if (modern(version)) {
            assertThat(h.parallelReplicasProtocol()).isPositive();
            assertThat(h.chunkedSend()).isIn("chunked", "notchunked", "chunked_optional", "notchunked_optional");
            assertThat(h.chunkedReceive()).isIn("chunked", "notchunked", "chunked_optional", "notchunked_optional");
        } else {
            assertThat(h.chunkedSend()).isEqualTo("notchunked");
            assertThat(h.serverSettings()).isEmpty();
        }
        assertConsumed(r, version, "server/hello");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void progressOfReadingOneThousandUInt64s(String version) throws IOException {
        byte[] bytes = Golden.bytes(version, "server/progress");
        BinaryReader r = Golden.reader(bytes);
        long rev = Golden.revision(version);
        Progress sum = Progress.ZERO;
        int packets = 0;
        while (r.bytesRead() < bytes.length) {
            assertThat(r.readVarUInt()).isEqualTo(ServerPacket.PROGRESS);
            sum = sum.plus(Progress.read(r, rev));
            packets++;
        }
        // SELECT sum(number) FROM numbers(1000): 1000 rows of 8 bytes read, 1000 expected, nothing written
        assertThat(packets).isPositive();
        assertThat(sum.readRows()).isEqualTo(1000);
        assertThat(sum.readBytes()).isEqualTo(8000);
        // 18.16 gives no estimate for numbers()
        assertThat(sum.totalRowsToRead()).isEqualTo(modern(version) ? 1000 : 0);
        assertThat(sum.writtenRows()).isZero();
        assertThat(sum.writtenBytes()).isZero();
        if (ProtocolFeature.SERVER_QUERY_TIME_IN_PROGRESS.in(rev)) {
            assertThat(sum.elapsedNanos()).isPositive();
        } else {
            assertThat(sum.elapsedNanos()).isZero();
            assertThat(sum.totalBytesToRead()).isZero();
        }
        assertConsumed(r, version, "server/progress");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void profileInfoOfALimitedQuery(String version) throws IOException {
        BinaryReader r = packet(version, "server/profile-info", ServerPacket.PROFILE_INFO);
        ProfileInfo p = ProfileInfo.read(r, Golden.revision(version));
        // SELECT number FROM numbers(10) LIMIT 3
        assertThat(p.rows()).isEqualTo(3);
        assertThat(p.blocks()).isEqualTo(1);
        assertThat(p.appliedLimit()).isTrue();
        assertThat(p.calculatedRowsBeforeLimit()).isTrue();
        // both servers stop reading numbers(10) at the limit: 3 rows before it (26.7 with exact_rows_before_limit)
        assertThat(p.rowsBeforeLimit()).isEqualTo(3);
        if (modern(version)) {
            assertThat(p.bytes()).isGreaterThanOrEqualTo(24); // the allocated size of the result block
        } else {
            assertThat(p.bytes()).isEqualTo(24); // 3 UInt64
        }
        assertThat(p.appliedAggregation()).isFalse();
        assertConsumed(r, version, "server/profile-info");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void syntaxErrorException(String version) throws IOException {
        BinaryReader r = packet(version, "server/exception", ServerPacket.EXCEPTION);
        ClickHouseServerException e = ServerExceptionCodec.read(r);
        assertThat(e.code()).isEqualTo(62); // SYNTAX_ERROR
        assertThat(e.serverMessage()).startsWith("Syntax error: failed at position ");
        assertThat(e.getCause()).isNull();
        assertConsumed(r, version, "server/exception");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void log(String version) throws IOException {
        BinaryReader r = packet(version, "server/log", ServerPacket.LOG);
        assertThat(r.readString()).isEmpty();
        Block b = BlockCodec.read(r, Golden.readContext(version), Lifetime.FOREVER);
        assertThat(b.names()).contains("event_time", "event_time_microseconds", "host_name", "query_id", "priority",
                "source", "text");
        assertThat(b.rowCount()).isPositive();
        Column queryId = b.column("query_id");
        Column priority = b.column("priority");
        for (int i = 0; i < b.rowCount(); i++) {
            assertThat(queryId.getString(i)).isEqualTo("golden-log");
            // send_logs_level = 'debug': Fatal (1) .. Debug (7)
            assertThat(((Number) priority.getObject(i)).intValue()).isBetween(1, 7);
            assertThat(b.column("text").getString(i)).isNotEmpty();
        }
        assertConsumed(r, version, "server/log");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void profileEvents(String version) throws IOException {
        if (!ProtocolFeature.INCREMENTAL_PROFILE_EVENTS.in(Golden.revision(version))) {
            // ProfileEvents packets exist from revision 54451: 18.16 sent none
            assertThat(Golden.has(version, "server/profile-events")).isFalse();
            return;
        }
        BinaryReader r = packet(version, "server/profile-events", ServerPacket.PROFILE_EVENTS);
        assertThat(r.readString()).isEmpty();
        Block b = BlockCodec.read(r, Golden.readContext(version), Lifetime.FOREVER);
        assertThat(b.names()).containsExactly("host_name", "current_time", "thread_id", "type", "name", "value");
        assertThat(b.column("type").type().name()).isEqualTo("Enum8('increment' = 1, 'gauge' = 2)");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < b.rowCount(); i++) {
            names.add(b.column("name").getString(i));
            assertThat(b.column("type").getString(i)).isIn("increment", "gauge");
        }
        // SELECT count() FROM numbers(1000): the query ran and read rows
        assertThat(names).contains("Query", "SelectQuery", "SelectedRows");
        int row = names.indexOf("SelectedRows");
        assertThat(b.column("value").getString(row)).isEqualTo("1000");
        assertConsumed(r, version, "server/profile-events");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void tableColumnsOfAnInsert(String version) throws IOException {
        if (!modern(version)) {
            // 18.16 answered the INSERT with its header block alone
            assertThat(Golden.has(version, "server/table-columns")).isFalse();
            return;
        }
        BinaryReader r = packet(version, "server/table-columns", ServerPacket.TABLE_COLUMNS);
        assertThat(r.readString()).isEmpty(); // external table name
        // the target table golden_insert (id UInt64, s String DEFAULT 'd', a Array(Nullable(String))),
        // described per ClickHouse ColumnsDescription::toString
        assertThat(r.readString()).isEqualTo("columns format version: 1\n3 columns:\n`id` UInt64\n"
                + "`s` String\tDEFAULT\t\\'d\\'\n`a` Array(Nullable(String))\n");
        assertConsumed(r, version, "server/table-columns");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void insertHeaderBlock(String version) throws IOException {
        BinaryReader r = packet(version, "server/insert-header", ServerPacket.DATA);
        assertThat(r.readString()).isEmpty();
        Block b = BlockCodec.read(r, Golden.readContext(version), Lifetime.FOREVER);
        assertThat(b.rowCount()).isZero();
        assertThat(b.names()).containsExactly("id", "s", "a");
        assertThat(List.of(b.column(0).type().name(), b.column(1).type().name(), b.column(2).type().name()))
                .containsExactly("UInt64", "String", "Array(Nullable(String))");
        assertConsumed(r, version, "server/insert-header");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void pongAndEndOfStreamAreTheirTypeAlone(String version) throws IOException {
        BinaryReader pong = packet(version, "server/pong", ServerPacket.PONG);
        assertConsumed(pong, version, "server/pong");
        BinaryReader end = packet(version, "server/end-of-stream", ServerPacket.END_OF_STREAM);
        assertConsumed(end, version, "server/end-of-stream");
    }
}
