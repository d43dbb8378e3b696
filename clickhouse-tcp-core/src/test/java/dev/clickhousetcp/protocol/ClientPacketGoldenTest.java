package dev.clickhousetcp.protocol;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client's packets as ClickHouse 26.7 and 18.16 accepted them (golden bytes, captured by
 * {@code client/GoldenBytesCapture}): read back as a server reads them ({@link ClientPacketDecoder}), then
 * written again from what was read, which must give the same bytes; and write → read at other revisions.
 */
class ClientPacketGoldenTest {

    static List<String> versions() {
        return Golden.VERSIONS;
    }

    /** Revisions where the Query, ClientInfo and Addendum layouts change, oldest to newest. */
    static final long[] REVISIONS = {54412, 54429, 54441, 54442, 54448, 54449, 54453, 54458, 54459, 54470, 54471,
        54472, 54475, 54476, 54485, 54486, 54488};

    private interface Write {
        void to(BinaryWriter w) throws IOException;
    }

    private static byte[] bytes(Write write) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryWriter w = new BinaryWriter(out, 256);
        write.to(w);
        w.flush();
        return out.toByteArray();
    }

    private static void assertConsumed(BinaryReader r, byte[] bytes) {
        assertThat(r.bytesRead()).as("read to the end").isEqualTo(bytes.length);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void hello(String version) throws IOException {
        byte[] golden = Golden.bytes(version, "client/hello");
        Properties p = Golden.properties(version, "client/hello");
        BinaryReader r = Golden.reader(golden);
        ClientPacketDecoder.Hello h = ClientPacketDecoder.hello(r);
        assertConsumed(r, golden);
        assertThat(h.clientName()).isEqualTo(p.getProperty("client.name"));
        assertThat(h.revision()).isEqualTo(ProtocolRevision.CLIENT); // always announced, whatever the server
        assertThat(h.user()).isEqualTo(p.getProperty("user"));
        assertThat(h.database()).isEmpty();
        assertThat(h.password()).isEmpty();
        assertThat(bytes(w -> Handshake.writeHello(w, h.clientName(), (int) h.major(), (int) h.minor(), h.database(),
                h.user(), h.password()))).isEqualTo(golden);
    }

    @Test
    void helloWritesWhatAServerReads() throws IOException {
        byte[] b = bytes(w -> Handshake.writeHello(w, "app ✓", 3, 14, "db", "üser", "pä$$"));
        BinaryReader r = Golden.reader(b);
        assertThat(ClientPacketDecoder.hello(r)).isEqualTo(new ClientPacketDecoder.Hello("app ✓", 3, 14,
                ProtocolRevision.CLIENT, "db", "üser", "pä$$"));
        assertConsumed(r, b);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void addendum(String version) throws IOException {
        long rev = Golden.revision(version);
        if (!ProtocolFeature.ADDENDUM.in(rev)) {
            // below 54458 the client sends nothing after its Hello
            assertThat(Golden.has(version, "client/addendum")).isFalse();
            assertThat(bytes(w -> Handshake.writeAddendum(w, rev, "", false, false))).isEmpty();
            return;
        }
        byte[] golden = Golden.bytes(version, "client/addendum");
        BinaryReader r = Golden.reader(golden);
        ClientPacketDecoder.Addendum a = ClientPacketDecoder.addendum(r, rev);
        assertConsumed(r, golden);
        assertThat(a).isEqualTo(new ClientPacketDecoder.Addendum("", "notchunked", "notchunked",
                ProtocolRevision.PARALLEL_REPLICAS_PROTOCOL_VERSION));
        assertThat(bytes(w -> Handshake.writeAddendum(w, rev, a.quotaKey(), a.sendChunked().equals("chunked"),
                a.receiveChunked().equals("chunked")))).isEqualTo(golden);
    }

    @ParameterizedTest
    @ValueSource(longs = {54458, 54469, 54470, 54471, 54488})
    void addendumWritesWhatAServerReads(long rev) throws IOException {
        byte[] b = bytes(w -> Handshake.writeAddendum(w, rev, "quota", true, false));
        BinaryReader r = Golden.reader(b);
        ClientPacketDecoder.Addendum a = ClientPacketDecoder.addendum(r, rev);
        assertConsumed(r, b);
        boolean chunks = ProtocolFeature.CHUNKED_PACKETS.in(rev);
        assertThat(a).isEqualTo(new ClientPacketDecoder.Addendum("quota", chunks ? "chunked" : "notchunked",
                "notchunked", ProtocolFeature.VERSIONED_PARALLEL_REPLICAS_PROTOCOL.in(rev)
                ? ProtocolRevision.PARALLEL_REPLICAS_PROTOCOL_VERSION : 0));
    }

    /** The settings of a provenance file: {@code name = value, ...}. */
    private static Map<String, String> settings(Properties p) {
        Map<String, String> m = new LinkedHashMap<>();
        String s = p.getProperty("settings");
        if (!s.isEmpty()) {
            for (String kv : s.split(", ")) {
                String[] parts = kv.split(" = ", 2);
                m.put(parts[0], parts[1]);
            }
        }
        return m;
    }

    private static ClientInfo clientInfo(ClientPacketDecoder.Info i) {
        return new ClientInfo(i.initialUser(), i.initialQueryId(), i.initialAddress(), i.osUser(), i.hostname(),
                i.clientName(), (int) i.major(), (int) i.minor(), (int) i.patch(), i.quotaKey(), i.trace());
    }

    @ParameterizedTest
    @MethodSource("versions")
    void query(String version) throws IOException {
        for (String name : List.of("client/query", "client/query-insert")) {
            byte[] golden = Golden.bytes(version, name);
            Properties p = Golden.properties(version, name);
            long rev = Golden.revision(version);
            BinaryReader r = Golden.reader(golden);
            ClientPacketDecoder.Query q = ClientPacketDecoder.query(r, rev);
            assertConsumed(r, golden);
            assertThat(q.queryId()).isEqualTo(p.getProperty("query.id"));
            assertThat(q.sql()).isEqualTo(p.getProperty("query"));
            assertThat(q.settings()).isEqualTo(settings(p));
            assertThat(q.stage()).isEqualTo(QueryStage.COMPLETE.code());
            assertThat(q.compression()).isZero();
            assertThat(q.parameters()).isEmpty();
            ClientPacketDecoder.Info i = q.info();
            assertThat(i.queryKind()).isEqualTo(ClientInfo.QUERY_KIND_INITIAL);
            assertThat(i.initialQueryId()).isEqualTo(q.queryId());
            assertThat(i.osUser()).isEqualTo("golden");
            assertThat(i.hostname()).isEqualTo("golden-host");
            assertThat(i.clientName()).isEqualTo("clickhouse-tcp");
            assertThat(i.revision()).isEqualTo(ProtocolRevision.CLIENT);
            assertThat(i.trace()).isNull();
            long start = Long.parseLong(p.getProperty("start.micros"));
            assertThat(i.startMicros()).isEqualTo(ProtocolFeature.INITIAL_QUERY_START_TIME.in(rev) ? start : 0);
            byte[] again = bytes(w -> QueryPacket.write(w, rev, q.queryId(), clientInfo(i), start, q.settings(),
                    QueryStage.COMPLETE, q.compression() == 1, q.sql(), q.parameters()));
            assertThat(again).as(name).isEqualTo(golden);
        }
    }

    @Test
    void queryWritesWhatAServerReadsAtEveryRevision() throws IOException {
        TraceContext trace = TraceContext.fromTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                "k=v");
        ClientInfo info = new ClientInfo("", "", "0.0.0.0:0", "os", "host", "app", 1, 2, 3, "qk", trace);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("max_block_size", "100");
        settings.put("send_logs_level", "debug");
        Map<String, String> params = Map.of("p", "it's");
        for (long rev : REVISIONS) {
            byte[] b = bytes(w -> QueryPacket.write(w, rev, "qid", info.forQuery("qid", trace, null), 1234567L,
                    settings, QueryStage.COMPLETE, true, "SELECT {p:String}", params));
            BinaryReader r = Golden.reader(b);
            ClientPacketDecoder.Query q = ClientPacketDecoder.query(r, rev);
            assertConsumed(r, b);
            assertThat(q.queryId()).isEqualTo("qid");
            assertThat(q.settings()).as("revision %d", rev).isEqualTo(settings);
            assertThat(q.compression()).isEqualTo(1);
            assertThat(q.sql()).isEqualTo("SELECT {p:String}");
            assertThat(q.parameters()).isEqualTo(ProtocolFeature.PARAMETERS.in(rev) ? params : Map.of());
            ClientPacketDecoder.Info i = q.info();
            assertThat(i.initialQueryId()).isEqualTo("qid");
            assertThat(i.osUser()).isEqualTo("os");
            assertThat(i.hostname()).isEqualTo("host");
            assertThat(i.clientName()).isEqualTo("app");
            assertThat(i.major()).isEqualTo(1);
            assertThat(i.minor()).isEqualTo(2);
            assertThat(i.patch()).isEqualTo(ProtocolFeature.VERSION_PATCH.in(rev) ? 3 : 0);
            assertThat(i.quotaKey()).isEqualTo("qk");
            assertThat(i.startMicros()).isEqualTo(ProtocolFeature.INITIAL_QUERY_START_TIME.in(rev) ? 1234567L : 0);
            assertThat(i.trace()).as("revision %d", rev).isEqualTo(ProtocolFeature.OPENTELEMETRY.in(rev) ? trace : null);
        }
    }

    /**
     * An unsampled trace context is not sent: ClientInfo says "no OpenTelemetry header" (per ClickHouse
     * src/Interpreters/ClientInfo.cpp, a zero trace id), as the server records spans for any trace id it is
     * given whatever the flags say.
     */
    @Test
    void anUnsampledTraceContextIsNotWritten() throws IOException {
        long rev = REVISIONS[REVISIONS.length - 1];
        for (String flags : List.of("00", "02", "fe", "01", "03", "ff")) {
            TraceContext trace = TraceContext.fromTraceparent(
                    "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-" + flags, "k=v");
            boolean sampled = (Integer.parseInt(flags, 16) & 1) == 1;
            assertThat(trace.sampled()).isEqualTo(sampled);
            ClientInfo info = new ClientInfo("", "", "0.0.0.0:0", "os", "host", "app", 1, 2, 3, "qk", trace);
            byte[] b = bytes(w -> QueryPacket.write(w, rev, "qid", info, 1L, Map.of(), QueryStage.COMPLETE, false,
                    "SELECT 1", Map.of()));
            BinaryReader r = Golden.reader(b);
            ClientPacketDecoder.Query q = ClientPacketDecoder.query(r, rev);
            assertConsumed(r, b);
            assertThat(q.info().trace()).as("flags %s", flags).isEqualTo(sampled ? trace : null);
        }
    }

    @ParameterizedTest
    @MethodSource("versions")
    void insertDataBlock(String version) throws IOException {
        byte[] golden = Golden.bytes(version, "client/data");
        BinaryReader r = Golden.reader(golden);
        assertThat(r.readVarUInt()).isEqualTo(ClientPacket.DATA);
        assertThat(r.readString()).isEmpty();
        Block b = BlockCodec.read(r, Golden.readContext(version), Lifetime.FOREVER);
        assertConsumed(r, golden);
        // the rows of the provenance: id=1, s='a', a=['x',NULL]; id=2, s='', a=[]
        assertThat(b.names()).containsExactly("id", "s", "a");
        assertThat(b.rowCount()).isEqualTo(2);
        assertThat(List.of(b.column(0).getString(0), b.column(1).getString(0), b.column(2).getString(0)))
                .containsExactly("1", "a", "['x',NULL]");
        assertThat(List.of(b.column(0).getString(1), b.column(1).getString(1), b.column(2).getString(1)))
                .containsExactly("2", "", "[]");
        // read -> write gives the same bytes
        String[] names = b.names().toArray(String[]::new);
        ColumnWriter[] writers = new ColumnWriter[names.length];
        for (int c = 0; c < names.length; c++) {
            writers[c] = b.column(c).type().newWriter();
            writers[c].appendColumn(b.column(c));
        }
        byte[] again = bytes(w -> {
            w.writeVarUInt(ClientPacket.DATA);
            w.writeString("");
            BlockCodec.write(w, Golden.revision(version), names, writers, b.rowCount());
        });
        assertThat(again).isEqualTo(golden);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void emptyDataBlock(String version) throws IOException {
        byte[] golden = Golden.bytes(version, "client/data-empty");
        assertThat(bytes(BlockCodec::writeEmptyDataPacket)).isEqualTo(golden);
        BinaryReader r = Golden.reader(golden);
        assertThat(r.readVarUInt()).isEqualTo(ClientPacket.DATA);
        assertThat(r.readString()).isEmpty();
        Block b = BlockCodec.read(r, Golden.readContext(version), Lifetime.FOREVER);
        assertThat(b.columnCount()).isZero();
        assertThat(b.rowCount()).isZero();
        assertConsumed(r, golden);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void pingAndCancelAreTheirCodeAlone(String version) throws IOException {
        for (Map.Entry<String, Integer> e : Map.of("client/ping", ClientPacket.PING, "client/cancel",
                ClientPacket.CANCEL).entrySet()) {
            byte[] golden = Golden.bytes(version, e.getKey());
            BinaryReader r = Golden.reader(golden);
            assertThat(ClientPacketDecoder.code(r)).isEqualTo(e.getValue().longValue());
            assertConsumed(r, golden);
            assertThat(bytes(w -> w.writeVarUInt(e.getValue()))).isEqualTo(golden);
        }
    }
}
