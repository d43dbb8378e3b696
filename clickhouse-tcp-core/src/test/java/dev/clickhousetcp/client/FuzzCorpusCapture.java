package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import dev.clickhousetcp.io.CityHash128;
import dev.clickhousetcp.io.CompressedInputStream;
import dev.clickhousetcp.protocol.BlockCodec;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.protocol.ProtocolFeature;
import dev.clickhousetcp.protocol.ProtocolRevision;
import dev.clickhousetcp.protocol.ServerExceptionCodec;
import dev.clickhousetcp.protocol.ServerHello;
import dev.clickhousetcp.protocol.ServerPacket;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.TypeFamilies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Captures the fuzzing seed corpus from the real servers: the exact bytes the client receives (through
 * a recording {@link Transport} under the real connection) for queries over every type family and
 * every packet kind, on ClickHouse 26.7 (revision 54488) and 18.16 (54412), plain, LZ4, ZSTD and
 * chunked. Writes, under {@code src/test/resources} (or {@code -Dfuzz.capture.dir}):
 *
 * <ul>
 *   <li>whole server streams for {@code ServerPacketFuzzTest} (a scenario byte, then the stream);</li>
 *   <li>each block body of the plain streams for {@code BlockCodecFuzzTest} (a revision byte, then the body);</li>
 *   <li>single-column JSON / Dynamic / Variant column bodies for {@code SemiStructuredFuzzTest};</li>
 *   <li>compressed frames of the LZ4 and ZSTD streams for {@code CompressedFrameFuzzTest};</li>
 *   <li>chunked streams for {@code ChunkedFramingFuzzTest}.</li>
 * </ul>
 *
 * <p>Run on demand only: {@code mvn -pl clickhouse-tcp-core -am test -Dtest=FuzzCorpusCapture
 * -Dfuzz.capture=true -Dsurefire.failIfNoSpecifiedTests=false}. Sends only well-formed requests.
 */
@EnabledIfSystemProperty(named = "fuzz.capture", matches = "true")
class FuzzCorpusCapture {
    private static final Path ROOT = Path.of(System.getProperty("fuzz.capture.dir", "src/test/resources"));
    private static final Path PACKETS = ROOT.resolve("dev/clickhousetcp/client/ServerPacketFuzzTestInputs/serverStream");
    private static final Path BLOCKS = ROOT.resolve("dev/clickhousetcp/protocol/BlockCodecFuzzTestInputs/block");
    private static final Path COLUMNS = ROOT.resolve("dev/clickhousetcp/data/SemiStructuredFuzzTestInputs/column");
    private static final Path FRAMES = ROOT.resolve("dev/clickhousetcp/io/CompressedFrameFuzzTestInputs/frames");
    private static final Path CHUNKS = ROOT.resolve("dev/clickhousetcp/io/ChunkedFramingFuzzTestInputs/chunked");

    private static final QueryOptions OPTS = QueryOptions.builder().queryId("capture").setting("flatten_nested", 0)
            .setting("allow_suspicious_low_cardinality_types", 1).build();
    private static final QueryOptions LEGACY_OPTS = QueryOptions.builder().queryId("capture").build();

    /** A transport that keeps a copy of every byte received. */
    static final class RecordingTransport extends Transport {
        final ByteArrayOutputStream received = new ByteArrayOutputStream();

        RecordingTransport(Transport connected) {
            super(connected);
        }

        @Override
        int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                received.write(b, off, n);
            }
            return n;
        }
    }

    /** One connection: handshake, {@code action}, graceful close; returns the bytes the client received. */
    static byte[] capture(ClickHouseServer server, Compression compression, boolean chunked,
                          Consumer<ClickHouseConnection> action) {
        ConnectionConfig config = ConnectionConfig.builder().host(server.host()).port(server.tcpPort())
                .compression(compression).preferChunked(chunked).build();
        Transport t;
        try {
            t = Transport.connect(server.host(), server.tcpPort(), Budget.NONE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        RecordingTransport rt = new RecordingTransport(t);
        ConnectionGuard guard = new ConnectionGuard(Budget.of(Duration.ofSeconds(30),
                Deadline.HANDSHAKE));
        rt.guard(guard);
        t.guard(guard);
        ClickHouseConnection conn = ConnectionOpener.handshake(config, rt, guard);
        try {
            action.accept(conn);
        } catch (ClickHouseException expected) {
            // server errors are part of the corpus
        } finally {
            conn.close();
        }
        return rt.received.toByteArray();
    }

    /** The options for {@code server}: the settings the type families need, which 18.16 does not know. */
    static QueryOptions options(ClickHouseServer server) {
        return server == ClickHouseServers.legacy() ? LEGACY_OPTS : OPTS;
    }

    static Consumer<ClickHouseConnection> query(String sql, QueryOptions options) {
        return c -> {
            try (QueryResult r = c.query(sql, options)) {
                r.drain();
            }
        };
    }

    static int scenario(Compression c, boolean chunked, int op) {
        return new ServerPacketFuzzTest.Scenario(c, chunked, op).toByte();
    }

    @Test
    void capture() throws IOException {
        for (Path p : List.of(PACKETS, BLOCKS, COLUMNS, FRAMES, CHUNKS)) {
            Files.createDirectories(p);
        }
        ClickHouseServer modern = ClickHouseServers.modern();
        ClickHouseServer legacy = ClickHouseServers.legacy();

        // every type family on 26.7, plain: one query per family with the value, nested and wrapped
        Map<String, String> modernQueries = new LinkedHashMap<>();
        for (Map.Entry<String, TypeFamilies.Family> e : TypeFamilyConformanceTest.families().entrySet()) {
            modernQueries.put("family-" + e.getKey(), familyQuery(e.getValue()));
        }
        Map<String, String> sideQueries = new LinkedHashMap<>();
        sideQueries.put("totals-extremes", "SELECT number % 3 AS k, count() AS c, toString(k) AS s FROM numbers(20) "
                + "GROUP BY k WITH TOTALS ORDER BY k SETTINGS extremes = 1");
        sideQueries.put("logs", "SELECT 1 AS x SETTINGS send_logs_level = 'trace'");
        sideQueries.put("exception", "SELECT throwIf(1, 'capture') AS x");
        sideQueries.put("many-blocks", "SELECT number, toString(number) FROM numbers(30) SETTINGS max_block_size = 7");
        sideQueries.put("progress", "SELECT sum(number) FROM numbers(200000) SETTINGS max_block_size = 10000");
        sideQueries.put("strings", "SELECT toString(number) AS s, arrayStringConcat(arrayMap(i -> 'x', range(number % 50))) AS r FROM numbers(300)");
        Map<String, String> modernSide = new LinkedHashMap<>(sideQueries);
        modernSide.put("session-timezone", "SELECT now() AS t, toDateTime('2020-01-01 00:00:00') AS d "
                + "SETTINGS session_timezone = 'Asia/Tokyo'");
        modernSide.put("sparse", "SELECT number, if(number % 10 = 0, number, 0) AS s FROM numbers(100)");

        int modernRev = ProtocolRevision.CLIENT;
        int legacyRev = 54412;
        for (Map.Entry<String, String> q : modernQueries.entrySet()) {
            record(modern, "m", q.getKey(), q.getValue(), Compression.NONE, false, modernRev);
        }
        for (Map.Entry<String, String> q : modernSide.entrySet()) {
            for (Compression c : List.of(Compression.NONE, Compression.LZ4, Compression.ZSTD)) {
                record(modern, "m", q.getKey(), q.getValue(), c, false, modernRev);
            }
            record(modern, "m", q.getKey(), q.getValue(), Compression.NONE, true, modernRev);
        }
        for (String family : List.of("family-JSON", "family-Dynamic", "family-Variant", "family-Map", "family-String",
                "family-LowCardinality", "family-Array", "family-Tuple", "family-Nullable")) {
            String sql = modernQueries.get(family);
            if (sql != null) {
                record(modern, "m", family, sql, Compression.LZ4, false, modernRev);
                record(modern, "m", family, sql, Compression.ZSTD, true, modernRev);
            }
        }
        // single-column JSON / Dynamic / Variant columns for the semi-structured readers
        List<String> semi = List.of(
                "'{\"a\":1,\"b\":{\"c\":\"x\"},\"d\":[1,2]}'::JSON",
                "CAST('{\"a\":' || toString(number) || ',\"s\":\"v' || toString(number) || '\"}' AS JSON)",
                "CAST('{\"a\":1}' AS JSON(max_dynamic_paths = 1))",
                "CAST('{\"a\":{\"b\":1},\"c\":[{\"d\":2}]}' AS JSON(a.b UInt32))",
                "CAST(multiIf(number = 0, 1::Int64, number = 1, 'a'::String, number = 2, 1.5::Float64, NULL) AS Dynamic)",
                "CAST(multiIf(number = 0, 1::Int64, number = 1, 'a'::String, number = 2, [1, 2]::Array(UInt8), NULL) "
                        + "AS Dynamic(max_types = 1))",
                "CAST(multiIf(number = 0, 1::UInt64, number = 1, 'a'::String, NULL) AS Variant(String, UInt64))",
                "CAST(multiIf(number = 0, [1]::Array(UInt64), number = 1, 'a'::String, NULL) "
                        + "AS Variant(Array(UInt64), String))",
                "[CAST(number AS Dynamic), CAST(toString(number) AS Dynamic)]",
                "map('k', CAST(number AS Variant(String, UInt64)))");
        for (int i = 0; i < semi.size(); i++) {
            byte[] s = capture(modern, Compression.NONE, false, query("SELECT " + semi.get(i) + " AS v FROM numbers(4)", OPTS));
            List<byte[]> blocks = splitBlocks(s);
            for (int b = 0; b < blocks.size(); b++) {
                byte[] col = columnInput(blocks.get(b), modernRev);
                if (col != null) {
                    write(COLUMNS.resolve("m-semi" + i + "-" + b), col);
                }
            }
        }

        // 18.16: the families it has, and the side packets
        Map<String, String> legacyQueries = new LinkedHashMap<>(sideQueries);
        legacyQueries.put("scalars", "SELECT toInt8(-1) AS a, toUInt16(2) AS b, toInt32(-3) AS c, toUInt64(4) AS d, "
                + "toFloat32(1.5) AS f, toFloat64(-2.25) AS g, 'x' AS s, toFixedString('ab', 2) AS fs, "
                + "toDate('2020-01-02') AS dt, toDateTime('2020-01-02 03:04:05') AS ts, "
                + "CAST('b' AS Enum8('a' = 1, 'b' = 2)) AS e8, CAST('a' AS Enum16('a' = 1000)) AS e16, "
                + "toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0') AS u, toDecimal32(1.5, 2) AS d32, "
                + "toDecimal64(-2.5, 4) AS d64, toDecimal128(3.25, 6) AS d128 FROM numbers(3)");
        legacyQueries.put("composites", "SELECT [number, 2] AS arr, tuple(number, 'a') AS tup, "
                + "CAST(if(number = 1, NULL, number) AS Nullable(UInt64)) AS n, toLowCardinality(toString(number)) AS lc, "
                + "[[toString(number)]] AS nested, [CAST(NULL AS Nullable(String))] AS an FROM numbers(3)");
        legacyQueries.put("aggregate", "SELECT sumState(number) AS s, groupArrayState(number) AS u, anyState(toString(number)) AS a FROM numbers(10)");
        legacyQueries.put("interval", "SELECT toIntervalDay(number) AS i, CAST(NULL AS Nullable(Nothing)) AS z "
                + "FROM numbers(2)");
        for (Map.Entry<String, String> q : legacyQueries.entrySet()) {
            for (Compression c : List.of(Compression.NONE, Compression.LZ4, Compression.ZSTD)) {
                record(legacy, "l", q.getKey(), q.getValue(), c, false, legacyRev);
            }
        }
        // older servers: the 18.16 streams under the Hello of revisions whose packets carry the same bytes
        for (String key : List.of("scalars", "composites", "totals-extremes", "exception", "many-blocks")) {
            byte[] seed = Files.readAllBytes(PACKETS.resolve("l-" + key + "-plain"));
            byte[] stream = Arrays.copyOfRange(seed, 1, seed.length);
            for (int rev : new int[] {54406, 54372, 54226}) {
                write(PACKETS.resolve("old" + rev + "-" + key + "-plain"), concat(new byte[] {seed[0]},
                        withHelloRevision(stream, rev)));
            }
        }
        // pings and inserts (header, TableColumns at 54488, confirmation)
        modern.httpQuery("CREATE TABLE IF NOT EXISTS fuzz_capture (id UInt64, s String DEFAULT 'd', "
                + "a Array(Nullable(String))) ENGINE = Memory");
        legacy.httpQuery("CREATE TABLE IF NOT EXISTS fuzz_capture (id UInt64, s String DEFAULT 'd') ENGINE = Memory");
        Consumer<ClickHouseConnection> insert = c -> {
            try (InsertStream in = c.insert("INSERT INTO fuzz_capture VALUES", LEGACY_OPTS)) {
                in.finish();
            }
        };
        for (Compression c : List.of(Compression.NONE, Compression.LZ4)) {
            write(PACKETS.resolve("m-insert-" + name(c, false)), concat(new byte[] {(byte) scenario(c, false,
                    ServerPacketFuzzTest.Scenario.INSERT)}, capture(modern, c, false, insert)));
            write(PACKETS.resolve("l-insert-" + name(c, false)), concat(new byte[] {(byte) scenario(c, false,
                    ServerPacketFuzzTest.Scenario.INSERT)}, capture(legacy, c, false, insert)));
        }
        write(PACKETS.resolve("m-ping"), concat(new byte[] {(byte) scenario(Compression.NONE, false,
                ServerPacketFuzzTest.Scenario.PING)}, capture(modern, Compression.NONE, false, ClickHouseConnection::ping)));
        write(PACKETS.resolve("l-ping"), concat(new byte[] {(byte) scenario(Compression.NONE, false,
                ServerPacketFuzzTest.Scenario.PING)}, capture(legacy, Compression.NONE, false, ClickHouseConnection::ping)));
    }

    private static String familyQuery(TypeFamilies.Family f) {
        String t = f.type();
        if (t.startsWith("AggregateFunction")) {
            return "SELECT " + String.join(", ", f.values().stream().map(v -> v + " AS a" + Math.abs(v.hashCode()))
                    .toList());
        }
        List<String> rows = new ArrayList<>();
        for (String v : f.values()) {
            List<String> cols = new ArrayList<>();
            cols.add("CAST(" + v + " AS " + t + ") AS v");
            cols.add("[CAST(" + v + " AS " + t + ")] AS arr");
            cols.add("tuple(CAST(" + v + " AS " + t + "), 1) AS tup");
            if (f.nullable()) {
                cols.add("CAST(" + v + " AS Nullable(" + t + ")) AS n");
                cols.add("map('k', CAST(" + v + " AS Nullable(" + t + "))) AS m");
            }
            if (f.lowCardinality()) {
                cols.add("CAST(" + v + " AS LowCardinality(" + t + ")) AS lc");
                cols.add("[CAST(" + v + " AS LowCardinality(Nullable(" + t + ")))] AS lcn");
            }
            rows.add("SELECT " + String.join(", ", cols));
        }
        return String.join(" UNION ALL ", rows);
    }

    private static String name(Compression c, boolean chunked) {
        String n = c == Compression.LZ4 ? "lz4" : c == Compression.ZSTD ? "zstd" : "plain";
        return chunked ? n + "-chunked" : n;
    }

    private static void record(ClickHouseServer server, String prefix, String key, String sql, Compression c,
                               boolean chunked, int revision) throws IOException {
        byte[] stream = capture(server, c, chunked, query(sql, options(server)));
        String name = prefix + "-" + key + "-" + name(c, chunked);
        write(PACKETS.resolve(name), concat(new byte[] {(byte) scenario(c, chunked, ServerPacketFuzzTest.Scenario.QUERY)},
                stream));
        int revIndex = revision == ProtocolRevision.CLIENT ? 0 : 1;
        if (c == Compression.NONE && !chunked) {
            List<byte[]> blocks = splitBlocks(stream);
            for (int i = 0; i < blocks.size(); i++) {
                write(BLOCKS.resolve(name + "-" + i), concat(new byte[] {(byte) revIndex}, blocks.get(i)));
            }
        }
        if (c != Compression.NONE) {
            byte[] frames = frames(stream);
            if (frames.length > 0) {
                write(FRAMES.resolve(name), concat(new byte[] {0}, frames));
            }
        }
        if (chunked) {
            int hello = helloLength(stream);
            write(CHUNKS.resolve(name), concat(new byte[] {0}, Arrays.copyOfRange(stream, hello, stream.length)));
        }
    }

    /** {@code stream} with its server Hello written again as a server of {@code revision} would send it. */
    static byte[] withHelloRevision(byte[] stream, int revision) throws IOException {
        BinaryReader r = new BinaryReader(new ByteArrayInputStream(stream), 1 << 16, 1 << 24);
        r.readVarUInt();
        ServerHello h = ServerHello.read(r, ProtocolRevision.CLIENT);
        int end = (int) r.bytesRead();
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        BinaryWriter w = new BinaryWriter(bos, 256);
        w.writeVarUInt(ServerPacket.HELLO);
        w.writeString(h.name());
        w.writeVarUInt(h.versionMajor());
        w.writeVarUInt(h.versionMinor());
        w.writeVarUInt(revision);
        if (ProtocolFeature.SERVER_TIMEZONE.in(revision)) {
            w.writeString(h.timezone());
        }
        if (ProtocolFeature.SERVER_DISPLAY_NAME.in(revision)) {
            w.writeString(h.displayName());
        }
        if (ProtocolFeature.VERSION_PATCH.in(revision)) {
            w.writeVarUInt(h.versionPatch());
        }
        w.flush();
        bos.write(stream, end, stream.length - end);
        return bos.toByteArray();
    }

    /** The length of the server Hello at the start of a stream. */
    static int helloLength(byte[] stream) throws IOException {
        BinaryReader r = new BinaryReader(new ByteArrayInputStream(stream), 1 << 16, 1 << 24);
        r.readVarUInt();
        ServerHello.read(r, ProtocolRevision.CLIENT);
        return (int) r.bytesRead();
    }

    /** The block bodies of a plain, unchunked stream (Data, Totals, Extremes, Log, ProfileEvents). */
    static List<byte[]> splitBlocks(byte[] stream) throws IOException {
        List<byte[]> out = new ArrayList<>();
        BinaryReader r = new BinaryReader(new ByteArrayInputStream(stream), 1 << 16, 1 << 24);
        r.readVarUInt();
        long rev = Math.min(ProtocolRevision.CLIENT, ServerHello.read(r, ProtocolRevision.CLIENT).revision());
        ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, rev, null);
        while (r.bytesRead() < stream.length) {
            int type = (int) r.readVarUInt();
            switch (type) {
                case ServerPacket.DATA, ServerPacket.TOTALS, ServerPacket.EXTREMES, ServerPacket.LOG,
                     ServerPacket.PROFILE_EVENTS -> {
                    r.readString();
                    int start = (int) r.bytesRead();
                    Block b = BlockCodec.read(r, ctx, Lifetime.FOREVER);
                    if (b.columnCount() > 0) {
                        out.add(Arrays.copyOfRange(stream, start, (int) r.bytesRead()));
                    }
                }
                case ServerPacket.PROGRESS -> Progress.read(r, rev);
                case ServerPacket.PROFILE_INFO -> ProfileInfo.read(r, rev);
                case ServerPacket.TABLE_COLUMNS -> {
                    r.readString();
                    r.readString();
                }
                case ServerPacket.TIMEZONE_UPDATE -> r.readString();
                case ServerPacket.EXCEPTION -> ServerExceptionCodec.read(r);
                case ServerPacket.END_OF_STREAM, ServerPacket.PONG -> {
                    return out;
                }
                default -> throw new IllegalStateException("packet " + type);
            }
        }
        return out;
    }

    /**
     * The input of {@code SemiStructuredFuzzTest} for a single-column block with default serialization:
     * revision index 0, the row count, the type name (VarUInt length and bytes), then the column body
     * (state prefix and data); {@code null} for other blocks.
     */
    static byte[] columnInput(byte[] block, long revision) throws IOException {
        BinaryReader r = new BinaryReader(new ByteArrayInputStream(block), 1 << 16, 1 << 24);
        for (long f = r.readVarUInt(); f != 0; f = r.readVarUInt()) {
            switch ((int) f) {
                case 1 -> r.readUInt8();
                case 2 -> r.readInt32();
                default -> r.skip(4L * r.readVarUInt());
            }
        }
        long cols = r.readVarUInt();
        long rows = r.readVarUInt();
        if (cols != 1 || rows == 0 || rows > 127) {
            return null;
        }
        r.readString();
        int typeStart = (int) r.bytesRead();
        r.readString();
        int typeEnd = (int) r.bytesRead();
        if (ProtocolFeature.CUSTOM_SERIALIZATION.in(revision) && r.readUInt8() != 0) {
            return null;
        }
        int body = (int) r.bytesRead();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write((int) rows);
        out.write(block, typeStart, typeEnd - typeStart);
        out.write(block, body, block.length - body);
        return out.toByteArray();
    }

    /** Every valid compressed frame in {@code stream}, concatenated (found by their checksums). */
    static byte[] frames(byte[] stream) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int h = CompressedInputStream.CHECKSUM_BYTES;
        for (int off = 0; off + h + CompressedInputStream.HEADER_BYTES <= stream.length; off++) {
            int method = stream[off + h] & 0xFF;
            if (method != 0x02 && method != 0x82 && method != 0x90) {
                continue;
            }
            long csize = le32(stream, off + h + 1);
            if (csize < CompressedInputStream.HEADER_BYTES || off + h + csize > stream.length) {
                continue;
            }
            CityHash128.Hash hash = CityHash128.hash(stream, off + h, (int) csize);
            if (hash.low() == le64(stream, off) && hash.high() == le64(stream, off + 8)) {
                out.write(stream, off, (int) (h + csize));
                off += h + (int) csize - 1;
            }
        }
        return out.toByteArray();
    }

    private static long le32(byte[] b, int off) {
        return (b[off] & 0xFFL) | (b[off + 1] & 0xFFL) << 8 | (b[off + 2] & 0xFFL) << 16 | (b[off + 3] & 0xFFL) << 24;
    }

    private static long le64(byte[] b, int off) {
        return le32(b, off) | le32(b, off + 4) << 32;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static void write(Path p, byte[] bytes) throws IOException {
        Files.write(p, bytes);
    }
}
