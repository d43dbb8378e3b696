package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DataType;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import dev.clickhousetcp.io.CompressedOutputStream;
import dev.clickhousetcp.io.CompressionMethod;
import dev.clickhousetcp.protocol.BlockCodec;
import dev.clickhousetcp.protocol.ClientInfo;
import dev.clickhousetcp.protocol.ClientPacket;
import dev.clickhousetcp.protocol.Handshake;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.protocol.ProtocolFeature;
import dev.clickhousetcp.protocol.ProtocolRevision;
import dev.clickhousetcp.protocol.QueryPacket;
import dev.clickhousetcp.protocol.QueryStage;
import dev.clickhousetcp.protocol.ServerExceptionCodec;
import dev.clickhousetcp.protocol.ServerHello;
import dev.clickhousetcp.protocol.ServerPacket;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.TypeFamilies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Captures the golden-byte test data from the real servers (ClickHouse 26.7 and 18.16): the exact
 * bytes each server sends for its Hello, a Data block per type family, Progress, ProfileInfo,
 * Exception, Log, ProfileEvents, TableColumns, Pong and EndOfStream, and the exact bytes the client
 * sent (and the server accepted) for Hello, Addendum, Query, Data, Ping and Cancel. Uncompressed and
 * unchunked, over a plain socket with the protocol writers and readers only (no connection object),
 * so the client's bytes are exactly those of the public writers.
 *
 * <p>Writes {@code src/test/resources/golden/<server version>/{server,client,data}/<name>.bin}, each
 * with a {@code <name>.properties} provenance file: server version, query, settings, negotiated
 * revision, compression and capture date, and for Data blocks the server's {@code toString} of every
 * value ({@code value.<row>.<column>}; a NULL has no key and is listed in {@code nulls}).
 *
 * <p>Run on demand only: {@code mvn -o -pl clickhouse-tcp-test-support,clickhouse-tcp-core test
 * -Dtest=GoldenBytesCapture -Dgolden.capture=true -Dsurefire.failIfNoSpecifiedTests=false}. Sends only
 * well-formed requests.
 */
@EnabledIfSystemProperty(named = "golden.capture", matches = "true")
class GoldenBytesCapture {
    private static final Path ROOT = Path.of(System.getProperty("golden.capture.dir", "src/test/resources/golden"));
    private static final String CLIENT_NAME = "clickhouse-tcp";
    private static final String DATE = LocalDate.now(ZoneOffset.UTC).toString();
    /** Fixed ClientInfo for the captured Query packets: no host name or OS user of the capturing machine. */
    static final ClientInfo CLIENT_INFO = new ClientInfo("", "", "0.0.0.0:0", "golden", "golden-host", CLIENT_NAME,
            ConnectionOpener.VERSION_MAJOR, ConnectionOpener.VERSION_MINOR,
            ConnectionOpener.VERSION_PATCH, "", null);
    /** Fixed query start time of the captured Query packets, microseconds since the epoch. */
    static final long START_MICROS = 1_764_547_200_000_000L;

    /**
     * Values for 18.16 where the modern ones do not work there: it cannot parse the literal 5e-324, cast
     * NULL to Nullable(UUID), or print a NULL of Nullable(Enum) whose nested default is not an element.
     */
    static final Map<String, TypeFamilies.Family> LEGACY_VALUES = Map.of(
            "Float64", TypeFamilies.scalar("Float64", true, "0", "-0.", "1.7976931348623157e308",
                    "2.2250738585072014e-308", "nan", "-inf", "0.1"),
            "UUID", TypeFamilies.f("UUID", "'00000000-0000-0000-0000-000000000000'",
                    "'123e4567-e89b-12d3-a456-426614174000'"),
            "Enum8", TypeFamilies.f("Enum8('x' = -128, 'y' = 127)", "'x'", "'y'"),
            "Enum16", TypeFamilies.f("Enum16('lo' = -32768, 'hi' = 32767)", "'lo'", "'hi'"));

    /** One server packet: its type, its raw bytes (type included) and the decoded block, if any. */
    record Packet(int type, byte[] bytes, Block block) {
    }

    /** An input stream that keeps a copy of every byte read. */
    static final class Tee extends FilterInputStream {
        final ByteArrayOutputStream copy = new ByteArrayOutputStream();

        Tee(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                copy.write(b);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                copy.write(b, off, n);
            }
            return n;
        }
    }

    /** An output stream that keeps a copy of every byte written. */
    static final class Recorder extends FilterOutputStream {
        final ByteArrayOutputStream copy = new ByteArrayOutputStream();

        Recorder(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            copy.write(b);
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            copy.write(b, off, len);
            out.write(b, off, len);
        }
    }

    /** One uncompressed, unchunked connection: handshake at {@link ProtocolRevision#CLIENT}, raw packets. */
    static final class Session implements Closeable {
        final ClickHouseServer server;
        final Socket socket = new Socket();
        final Tee tee;
        final Recorder sent;
        final BinaryReader in;
        final BinaryWriter out;
        final ServerHello hello;
        final long revision;
        final byte[] clientHello;
        final byte[] serverHello;
        final byte[] addendum;
        final ZoneId zone;

        Session(ClickHouseServer server) throws IOException {
            this.server = server;
            socket.connect(new InetSocketAddress(server.host(), server.tcpPort()), 10_000);
            socket.setSoTimeout(30_000);
            tee = new Tee(socket.getInputStream());
            sent = new Recorder(socket.getOutputStream());
            in = new BinaryReader(tee, 1 << 16, 1 << 24);
            out = new BinaryWriter(sent, 1 << 16);
            Handshake.writeHello(out, CLIENT_NAME, ConnectionOpener.VERSION_MAJOR,
                    ConnectionOpener.VERSION_MINOR, "", ClickHouseServer.DEFAULT_USER, "");
            out.flush();
            clientHello = sentSince(0);
            if (in.readVarUInt() != ServerPacket.HELLO) {
                throw new IllegalStateException("no Hello from " + server);
            }
            hello = ServerHello.read(in, ProtocolRevision.CLIENT);
            serverHello = received(0, in.bytesRead());
            revision = Math.min(ProtocolRevision.CLIENT, hello.revision());
            int mark = sent.copy.size();
            if (ProtocolFeature.ADDENDUM.in(revision)) {
                Handshake.writeAddendum(out, revision, "", false, false);
                out.flush();
            }
            addendum = sentSince(mark);
            zone = hello.timezone().isEmpty() ? ZoneOffset.UTC : ZoneId.of(hello.timezone());
        }

        String version() {
            return hello.version();
        }

        byte[] sentSince(int mark) {
            byte[] all = sent.copy.toByteArray();
            return Arrays.copyOfRange(all, mark, all.length);
        }

        byte[] received(long from, long to) {
            return Arrays.copyOfRange(tee.copy.toByteArray(), (int) from, (int) to);
        }

        /** Writes a Query packet and the empty Data block that ends the external tables; returns those bytes. */
        byte[][] sendQuery(String queryId, String sql, Map<String, String> settings) throws IOException {
            int mark = sent.copy.size();
            QueryPacket.write(out, revision, queryId, CLIENT_INFO.forQuery(queryId, null, null), START_MICROS,
                    settings, QueryStage.COMPLETE, false, sql, Map.of());
            out.flush();
            byte[] query = sentSince(mark);
            mark = sent.copy.size();
            BlockCodec.writeEmptyDataPacket(out);
            out.flush();
            return new byte[][] {query, sentSince(mark)};
        }

        /** Reads one packet, decoding enough of it to find its end. */
        Packet next() throws IOException {
            long start = in.bytesRead();
            int type = (int) in.readVarUInt();
            Block block = null;
            switch (type) {
                case ServerPacket.DATA, ServerPacket.TOTALS, ServerPacket.EXTREMES, ServerPacket.LOG,
                     ServerPacket.PROFILE_EVENTS -> {
                    in.readString();
                    block = BlockCodec.read(in, new ReadContext(DecodeLimits.DEFAULT, zone, revision, null),
                            Lifetime.FOREVER);
                }
                case ServerPacket.PROGRESS -> Progress.read(in, revision);
                case ServerPacket.PROFILE_INFO -> ProfileInfo.read(in, revision);
                case ServerPacket.TABLE_COLUMNS -> {
                    in.readString();
                    in.readString();
                }
                case ServerPacket.TIMEZONE_UPDATE -> in.readString();
                case ServerPacket.EXCEPTION -> ServerExceptionCodec.read(in);
                case ServerPacket.END_OF_STREAM, ServerPacket.PONG -> {
                }
                default -> throw new IllegalStateException("packet " + ServerPacket.name(type));
            }
            return new Packet(type, received(start, in.bytesRead()), block);
        }

        /** Packets up to and including EndOfStream or Exception. */
        List<Packet> response() throws IOException {
            List<Packet> r = new ArrayList<>();
            while (true) {
                Packet p = next();
                r.add(p);
                if (p.type() == ServerPacket.END_OF_STREAM || p.type() == ServerPacket.EXCEPTION) {
                    return r;
                }
            }
        }

        /**
         * Sends a query and reads its response. After an Exception, a Ping round trip: an older server that
         * fails while parsing never reads the empty Data block sent with the query, and answers it later.
         */
        List<Packet> query(String queryId, String sql, Map<String, String> settings) throws IOException {
            sendQuery(queryId, sql, settings);
            List<Packet> r = response();
            if (r.get(r.size() - 1).type() == ServerPacket.EXCEPTION) {
                out.writeVarUInt(ClientPacket.PING);
                out.flush();
                while (next().type() != ServerPacket.PONG) {
                    // answers to the failed query's unread packets
                }
            }
            return r;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** Where one server's files go and what every provenance file says about the connection. */
    static final class Target {
        final Path dir;
        final Session session;

        Target(Session session) throws IOException {
            this.session = session;
            this.dir = ROOT.resolve(session.version());
            for (String d : List.of("server", "client", "data")) {
                Files.createDirectories(dir.resolve(d));
            }
        }

        Properties provenance(String query, Map<String, String> settings) {
            Properties p = new Properties();
            p.setProperty("server.version", session.version());
            p.setProperty("server.revision", Long.toString(session.hello.revision()));
            p.setProperty("revision", Long.toString(session.revision));
            p.setProperty("compression", "none");
            p.setProperty("chunked", "false");
            p.setProperty("captured", DATE);
            p.setProperty("query", query);
            p.setProperty("settings", settingsText(settings));
            return p;
        }

        void write(String name, byte[] bytes, Properties p) throws IOException {
            Files.write(dir.resolve(name + ".bin"), bytes);
            // one line per key, sorted, no timestamp comment: a re-capture shows only real differences
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            p.store(text, null); // ISO 8859-1, other characters escaped
            List<String> lines = new ArrayList<>();
            for (String line : text.toString(StandardCharsets.ISO_8859_1).split("\n")) {
                if (!line.startsWith("#") && !line.isBlank()) {
                    lines.add(line.strip());
                }
            }
            lines.sort(null);
            Files.writeString(dir.resolve(name + ".properties"), String.join("\n", lines) + "\n",
                    StandardCharsets.ISO_8859_1);
        }
    }

    static String settingsText(Map<String, String> settings) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : settings.entrySet()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(e.getKey()).append(" = ").append(e.getValue());
        }
        return sb.toString();
    }

    static Packet first(List<Packet> packets, int type) throws IOException {
        for (Packet p : packets) {
            if (p.type() == type) {
                return p;
            }
        }
        Packet last = packets.get(packets.size() - 1);
        throw new IllegalStateException("no " + ServerPacket.name(type) + " in " + packets.stream()
                .map(p -> ServerPacket.name(p.type())).toList() + (last.type() == ServerPacket.EXCEPTION
                ? ": " + exception(last).getMessage() : ""));
    }

    static byte[] concat(List<Packet> packets) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        packets.forEach(p -> b.writeBytes(p.bytes()));
        return b.toByteArray();
    }

    @Test
    void capture() throws IOException {
        ClickHouseServer modern = ClickHouseServers.modern();
        ClickHouseServer legacy = ClickHouseServers.legacy();
        for (ClickHouseServer server : List.of(modern, legacy)) {
            server.httpQuery("CREATE TABLE IF NOT EXISTS golden_insert (id UInt64, s String DEFAULT 'd', "
                    + "a Array(Nullable(String))) ENGINE = Memory");
        }
        captureServer(modern, true);
        captureServer(legacy, false);
        captureCancel(modern);
        captureCancel(legacy);
    }

    private static void captureServer(ClickHouseServer server, boolean modern) throws IOException {
        Map<String, String> familySettings = new LinkedHashMap<>();
        if (modern) {
            familySettings.put("flatten_nested", "0");
            familySettings.put("allow_suspicious_low_cardinality_types", "1");
        } else {
            familySettings.put("allow_experimental_low_cardinality_type", "1");
            familySettings.put("max_threads", "1");
        }
        try (Session s = new Session(server)) {
            Target t = new Target(s);
            Properties hp = t.provenance("", Map.of());
            hp.setProperty("packet", "Hello");
            t.write("server/hello", s.serverHello, hp);
            Properties ch = t.provenance("", Map.of());
            ch.setProperty("packet", "Hello");
            ch.setProperty("client.name", CLIENT_NAME);
            ch.setProperty("user", ClickHouseServer.DEFAULT_USER);
            t.write("client/hello", s.clientHello, ch);
            if (s.addendum.length > 0) {
                Properties ap = t.provenance("", Map.of());
                ap.setProperty("packet", "Addendum");
                t.write("client/addendum", s.addendum, ap);
            }

            // Ping / Pong
            int mark = s.sent.copy.size();
            s.out.writeVarUInt(ClientPacket.PING);
            s.out.flush();
            byte[] ping = s.sentSince(mark);
            Packet pong = s.next();
            if (pong.type() != ServerPacket.PONG) {
                throw new IllegalStateException("expected Pong, got " + ServerPacket.name(pong.type()));
            }
            Properties pp = t.provenance("", Map.of());
            pp.setProperty("packet", "Ping");
            t.write("client/ping", ping, pp);
            pp.setProperty("packet", "Pong");
            t.write("server/pong", pong.bytes(), pp);

            // Progress (all packets of the query), ProfileInfo, EndOfStream; the Query packet that asked
            String progressSql = "SELECT sum(number) AS s FROM numbers(1000)";
            Map<String, String> progressSettings = Map.of("max_block_size", "100");
            byte[][] q = s.sendQuery("golden-progress", progressSql, progressSettings);
            List<Packet> r = s.response();
            Properties prog = t.provenance(progressSql, progressSettings);
            prog.setProperty("packet", "Progress");
            prog.setProperty("note", "every Progress packet of the query, in order");
            t.write("server/progress", concat(r.stream().filter(p -> p.type() == ServerPacket.PROGRESS).toList()), prog);
            prog.setProperty("packet", "EndOfStream");
            prog.remove("note");
            t.write("server/end-of-stream", first(r, ServerPacket.END_OF_STREAM).bytes(), prog);
            Properties qp = t.provenance(progressSql, progressSettings);
            qp.setProperty("packet", "Query");
            qp.setProperty("query.id", "golden-progress");
            qp.setProperty("start.micros", Long.toString(START_MICROS));
            t.write("client/query", q[0], qp);
            qp.setProperty("packet", "Data (empty block ending the external tables)");
            t.write("client/data-empty", q[1], qp);

            String limitSql = "SELECT number FROM numbers(10) LIMIT 3";
            // 18.16 has no exact_rows_before_limit (and counts the rows it read before the limit)
            Map<String, String> limitSettings = modern ? Map.of("exact_rows_before_limit", "1") : Map.of();
            r = s.query("golden-profile-info", limitSql, limitSettings);
            Properties pi = t.provenance(limitSql, limitSettings);
            pi.setProperty("packet", "ProfileInfo");
            t.write("server/profile-info", first(r, ServerPacket.PROFILE_INFO).bytes(), pi);

            // Exception
            String badSql = "SELEC 1";
            r = s.query("golden-exception", badSql, Map.of());
            Properties ep = t.provenance(badSql, Map.of());
            ep.setProperty("packet", "Exception");
            t.write("server/exception", first(r, ServerPacket.EXCEPTION).bytes(), ep);

            // Log and ProfileEvents
            String logSql = "SELECT 1 AS x";
            Map<String, String> logSettings = Map.of("send_logs_level", "debug");
            r = s.query("golden-log", logSql, logSettings);
            if (r.stream().anyMatch(p -> p.type() == ServerPacket.LOG)) {
                Properties lp = t.provenance(logSql, logSettings);
                lp.setProperty("packet", "Log");
                lp.setProperty("query.id", "golden-log");
                lp.setProperty("note", "the first Log packet of the query");
                t.write("server/log", first(r, ServerPacket.LOG).bytes(), lp);
            }
            if (r.stream().anyMatch(p -> p.type() == ServerPacket.PROFILE_EVENTS)) {
                String evSql = "SELECT count() FROM numbers(1000)";
                r = s.query("golden-profile-events", evSql, Map.of());
                Properties ev = t.provenance(evSql, Map.of());
                ev.setProperty("packet", "ProfileEvents");
                ev.setProperty("note", "the last ProfileEvents packet of the query");
                List<Packet> events = r.stream().filter(p -> p.type() == ServerPacket.PROFILE_EVENTS).toList();
                t.write("server/profile-events", events.get(events.size() - 1).bytes(), ev);
            }

            // INSERT: TableColumns and header from the server, one Data block from the client
            captureInsert(s, t);

            // one Data block per type family
            List<String> unsupported = new ArrayList<>();
            Map<String, TypeFamilies.Family> families = TypeFamilyConformanceTest.families();
            if (!modern) {
                families.putAll(LEGACY_VALUES);
            }
            for (Map.Entry<String, TypeFamilies.Family> e : families.entrySet()) {
                String why = captureFamily(s, t, e.getKey(), e.getValue(), familySettings, modern);
                if (why != null) {
                    unsupported.add(why);
                }
            }
            Files.writeString(t.dir.resolve("data/UNSUPPORTED.txt"), unsupported.isEmpty() ? ""
                    : String.join("\n", unsupported) + "\n");
        }
    }

    /**
     * A query that fails before the server reads its external tables (a syntax error), compressed (LZ4),
     * on connections of its own: {@code server/compressed-exception-pong} is what the server sends when the
     * external tables end the way this client ends them at that revision ({@link
     * ProtocolFeature#EXTERNAL_TABLES_READ_AFTER_FAILURE}: the compressed empty Data block, or Cancel below
     * it) and a Ping follows: the Exception (its envelope and body never compressed), then the Pong. On a
     * server below the gate, {@code server/compressed-exception-unread-block} is what it sends when the
     * compressed empty Data block ends them instead: everything until it closed the connection.
     */
    @Test
    void captureCompressedFailure() throws IOException {
        for (ClickHouseServer server : List.of(ClickHouseServers.modern(), ClickHouseServers.legacy())) {
            try (Session s = new Session(server)) {
                boolean reads = ProtocolFeature.EXTERNAL_TABLES_READ_AFTER_FAILURE.in(s.revision);
                Target t = new Target(s);
                Properties p = compressedFailure(t, s, reads);
                p.setProperty("packet", "Exception, Pong");
                p.setProperty("note", "external tables ended with " + (reads ? "the compressed empty Data block" : "Cancel")
                        + ", then a Ping");
                Packet e = s.next();
                Packet pong = s.next();
                if (e.type() != ServerPacket.EXCEPTION || pong.type() != ServerPacket.PONG) {
                    throw new IllegalStateException("expected Exception, Pong: " + e.type() + ", " + pong.type());
                }
                t.write("server/compressed-exception-pong", concat(List.of(e, pong)), p);
                if (reads) {
                    continue;
                }
            }
            try (Session s = new Session(server)) {
                Target t = new Target(s);
                Properties p = compressedFailure(t, s, true);
                p.setProperty("packet", "Exception, Exception, Exception, end of connection");
                p.setProperty("note", "external tables ended with the compressed empty Data block, then a Ping; "
                        + "everything until the server closed the connection");
                int start = s.tee.copy.size();
                byte[] buf = new byte[8192];
                while (s.tee.read(buf, 0, buf.length) >= 0) {
                    // the tee keeps what arrives, until the server closes the connection
                }
                t.write("server/compressed-exception-unread-block", s.received(start, s.tee.copy.size()), p);
            }
        }
    }

    /** Sends a failing compressed query and a Ping (external tables ended by Data or Cancel), provenance. */
    private static Properties compressedFailure(Target t, Session s, boolean endWithData) throws IOException {
        String sql = "SELEC 1";
        QueryPacket.write(s.out, s.revision, "golden-compressed-exception", CLIENT_INFO.forQuery(
                "golden-compressed-exception", null, null), START_MICROS, Map.of(), QueryStage.COMPLETE, true, sql,
                Map.of());
        if (endWithData) {
            s.out.writeVarUInt(ClientPacket.DATA);
            s.out.writeString("");
            ByteArrayOutputStream block = new ByteArrayOutputStream();
            BinaryWriter w = new BinaryWriter(block, 64);
            BlockCodec.writeEmpty(w);
            w.flush();
            CompressedOutputStream frames = new CompressedOutputStream(s.out::writeBytes, 1 << 20);
            frames.method(CompressionMethod.LZ4, 0);
            frames.write(block.toByteArray(), 0, block.size());
            frames.flush();
        } else {
            s.out.writeVarUInt(ClientPacket.CANCEL);
        }
        s.out.writeVarUInt(ClientPacket.PING);
        s.out.flush();
        Properties p = t.provenance(sql, Map.of());
        p.setProperty("compression", "lz4");
        return p;
    }

    /**
     * Cancel, on a connection of its own: a slow query, cancelled after its first rows. (18.16 may still
     * send Data of the cancelled query after its EndOfStream, so the connection is not reused.)
     */
    private static void captureCancel(ClickHouseServer server) throws IOException {
        try (Session s = new Session(server)) {
            Target t = new Target(s);
                // Cancel: a slow query, cancelled after its first rows
                String slowSql = "SELECT sleepEachRow(0.05) AS z FROM numbers(100)";
                Map<String, String> slowSettings = Map.of("max_block_size", "1");
                s.sendQuery("golden-cancel", slowSql, slowSettings);
                Packet p;
                do {
                    p = s.next();
                } while (p.type() != ServerPacket.DATA || p.block().rowCount() == 0);
                int mark = s.sent.copy.size();
                s.out.writeVarUInt(ClientPacket.CANCEL);
                s.out.flush();
                byte[] cancel = s.sentSince(mark);
                s.response();
                Properties cp = t.provenance(slowSql, slowSettings);
                cp.setProperty("packet", "Cancel");
                cp.setProperty("note", "sent after the first Data block with rows; the server then ended the response");
                t.write("client/cancel", cancel, cp);
        }
    }

    private static void captureInsert(Session s, Target t) throws IOException {
        String sql = "INSERT INTO golden_insert VALUES";
        byte[][] q = s.sendQuery("golden-insert", sql, Map.of());
        List<Packet> head = new ArrayList<>();
        Packet p;
        do {
            p = s.next();
            head.add(p);
        } while (p.type() != ServerPacket.DATA);
        Properties tc = t.provenance(sql, Map.of());
        tc.setProperty("packet", "TableColumns");
        tc.setProperty("table", "golden_insert (id UInt64, s String DEFAULT 'd', a Array(Nullable(String))) ENGINE = Memory");
        if (head.size() > 1) { // 18.16 sends no TableColumns
            t.write("server/table-columns", first(head, ServerPacket.TABLE_COLUMNS).bytes(), tc);
        }
        tc.setProperty("packet", "Data (the INSERT's header block)");
        t.write("server/insert-header", p.bytes(), tc);
        // the client's block: values per column, written by the types' writers
        Block header = p.block();
        String[] names = header.names().toArray(String[]::new);
        ColumnWriter[] writers = new ColumnWriter[names.length];
        for (int i = 0; i < names.length; i++) {
            DataType type = DataTypes.parse(header.column(i).type().name(), s.zone, DecodeLimits.DEFAULT);
            writers[i] = type.newWriter();
        }
        writers[0].append(1L);
        writers[0].append(2L);
        writers[1].append("a");
        writers[1].append("");
        writers[2].append(Arrays.asList("x", null));
        writers[2].append(List.of());
        int mark = s.sent.copy.size();
        s.out.writeVarUInt(ClientPacket.DATA);
        s.out.writeString("");
        BlockCodec.write(s.out, s.revision, names, writers, 2);
        s.out.flush();
        byte[] data = s.sentSince(mark);
        BlockCodec.writeEmptyDataPacket(s.out);
        s.out.flush();
        List<Packet> rest = s.response();
        if (rest.get(rest.size() - 1).type() != ServerPacket.END_OF_STREAM) {
            throw new IllegalStateException("insert failed");
        }
        Properties dp = t.provenance(sql, Map.of());
        dp.setProperty("packet", "Data");
        dp.setProperty("rows", "id=1, s='a', a=['x',NULL]; id=2, s='', a=[]");
        t.write("client/data", data, dp);
        dp.setProperty("packet", "Query");
        dp.remove("rows");
        dp.setProperty("query.id", "golden-insert");
        dp.setProperty("start.micros", Long.toString(START_MICROS));
        t.write("client/query-insert", q[0], dp);
    }

    /**
     * The family's query, one block: a row index, the value, the value in an Array, and Nullable (with a
     * NULL row) / LowCardinality where ClickHouse allows them; row {@code number} takes element
     * {@code number + 1} of an array literal per column.
     */
    static String familyQuery(TypeFamilies.Family f) {
        String t = f.type();
        boolean aggregate = t.startsWith("AggregateFunction");
        List<String> values = new ArrayList<>(f.values());
        if (f.nullable()) {
            values.add(null);
        }
        List<String> v = new ArrayList<>();
        List<String> a = new ArrayList<>();
        List<String> n = new ArrayList<>();
        List<String> lc = new ArrayList<>();
        for (String x : values) {
            String value = x == null ? f.values().get(0) : x;
            String cast = aggregate ? value : "CAST(" + value + " AS " + t + ")";
            v.add(cast);
            a.add("[" + cast + "]");
            n.add("CAST(" + (x == null ? "NULL" : value) + " AS Nullable(" + t + "))");
            lc.add("CAST(" + value + " AS LowCardinality(" + t + "))");
        }
        List<String> cols = new ArrayList<>();
        cols.add("toUInt8(number) AS i");
        cols.add(pick(v) + " AS v");
        if (!aggregate) {
            cols.add(pick(a) + " AS a");
        }
        if (f.nullable()) {
            cols.add(pick(n) + " AS n");
        }
        if (f.lowCardinality()) {
            cols.add(pick(lc) + " AS lc");
        }
        return "SELECT " + String.join(", ", cols) + " FROM numbers(" + values.size() + ")";
    }

    private static String pick(List<String> exprs) {
        return "[" + String.join(", ", exprs) + "][number + 1]";
    }

    static ClickHouseServerException exception(Packet p) throws IOException {
        return ServerExceptionCodec.read(new BinaryReader(new java.io.ByteArrayInputStream(p.bytes(), 1,
                p.bytes().length - 1), 1 << 16, 1 << 24));
    }

    /** Captures one family's block; {@code null} when done, else why the server could not (when not required). */
    private static String captureFamily(Session s, Target t, String name, TypeFamilies.Family f,
                                        Map<String, String> settings, boolean required) throws IOException {
        String sql = familyQuery(f);
        List<Packet> r = s.query("golden-" + name, sql, settings);
        if (r.get(r.size() - 1).type() == ServerPacket.EXCEPTION) {
            String why = exception(r.get(r.size() - 1)).getMessage();
            if (required) {
                throw new IllegalStateException(name + ": " + why);
            }
            return name + ": " + why.lines().findFirst().orElse("");
        }
        List<Packet> data = r.stream().filter(p -> p.type() == ServerPacket.DATA && p.block().rowCount() > 0).toList();
        if (data.size() != 1) {
            throw new IllegalStateException(name + ": " + data.size() + " Data blocks with rows: "
                    + data.stream().map(d -> d.block().rowCount() + " rows " + d.block().names()).toList());
        }
        Block b = data.get(0).block();
        // the server's text of every value
        List<String> texts = new ArrayList<>();
        for (String c : b.names()) {
            texts.add("toString(" + c + ")");
        }
        String textSql = "SELECT " + String.join(", ", texts) + " FROM (" + sql + ")";
        List<Packet> tr = s.query("golden-" + name + "-text", textSql, settings);
        if (tr.get(tr.size() - 1).type() == ServerPacket.EXCEPTION) {
            String why = exception(tr.get(tr.size() - 1)).getMessage();
            if (required) {
                throw new IllegalStateException(name + ": " + why);
            }
            return name + " (its text): " + why.lines().findFirst().orElse("");
        }
        Properties p = t.provenance(sql, settings);
        p.setProperty("packet", "Data");
        p.setProperty("family", name);
        p.setProperty("rows", Integer.toString(b.rowCount()));
        p.setProperty("columns", String.join(",", b.names()));
        List<String> nulls = new ArrayList<>();
        int row = 0;
        for (Packet tp : tr) {
            if (tp.type() != ServerPacket.DATA) {
                continue;
            }
            Block tb = tp.block();
            for (int i = 0; i < tb.rowCount(); i++, row++) {
                for (int c = 0; c < tb.columnCount(); c++) {
                    String v = tb.column(c).getString(i);
                    if (v == null) {
                        nulls.add(row + "." + b.name(c));
                    } else {
                        p.setProperty("value." + row + "." + b.name(c), v);
                    }
                }
            }
        }
        if (row != b.rowCount()) {
            throw new IllegalStateException(name + ": " + row + " text rows for " + b.rowCount());
        }
        p.setProperty("nulls", String.join(",", nulls));
        t.write("data/" + name, data.get(0).bytes(), p);
        return null;
    }
}
