package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.protocol.QueryStage;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.FaultProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Network compression against both servers: large reads and inserts with every codec each server
 * accepts (18.16 knows lz4, lz4hc and zstd, not none), Log/ProfileEvents/TableColumns/Totals/
 * Extremes bodies with compression on, DETACHED (ColumnBLOB) columns of parallel block marshalling,
 * and a frame corrupted on its way to the client.
 */
@ClickHouseTest
class CompressionTest {
    static final int ROWS = 1_000_000;
    static final String SELECT = "SELECT number AS id, concat('v', toString(number)) AS s, number * 0.25 AS f "
            + "FROM numbers(" + ROWS + ")";

    static Stream<Arguments> serversAndCodecs() {
        List<Arguments> out = new ArrayList<>();
        for (ClickHouseServer.Kind kind : ClickHouseServer.Kind.values()) {
            for (Compression c : codecs(kind)) {
                out.add(Arguments.of(kind, c));
            }
        }
        return out.stream();
    }

    static List<Compression> codecs(ClickHouseServer.Kind kind) {
        List<Compression> list = new ArrayList<>(List.of(Compression.NONE, Compression.LZ4, Compression.ZSTD,
                Compression.zstd(6)));
        if (kind == ClickHouseServer.Kind.MODERN) {
            list.add(Compression.CHECKSUM_ONLY); // codec NONE arrived with the codec framework (19.x)
        }
        return list;
    }

    static ClickHouseTcpClient client(ClickHouseServer server, Compression c) {
        // one connection, so its frame counters cover every query of the test
        return TestClients.builder(server).maxPoolSize(1).compression(c).build();
    }

    static long framesRead(ClickHouseTcpClient client) {
        return client.withConnection(conn -> conn.blocks().framesRead());
    }

    static long framesWritten(ClickHouseTcpClient client) {
        return client.withConnection(conn -> conn.blocks().framesWritten());
    }

    /** Order-independent digest of (id, s, f) rows: sums of per-row mixes. */
    static final class Digest {
        long rows;
        long idSum;
        long mix;
        double fSum;

        void add(long id, byte[] s, int off, int len, double f) {
            rows++;
            idSum += id;
            long h = id * 0x9E3779B97F4A7C15L;
            for (int i = 0; i < len; i++) {
                h = (h ^ s[off + i]) * 0x100000001B3L;
            }
            mix += h;
            fSum += f;
        }

        @Override
        public String toString() {
            return rows + "/" + idSum + "/" + mix + "/" + fSum;
        }
    }

    static Digest expectedDigest() {
        Digest d = new Digest();
        for (long i = 0; i < ROWS; i++) {
            byte[] s = ("v" + i).getBytes(StandardCharsets.US_ASCII);
            d.add(i, s, 0, s.length, i * 0.25);
        }
        return d;
    }

    @ParameterizedTest
    @MethodSource("serversAndCodecs")
    void largeReadsAreIdenticalWithEveryCodec(ClickHouseServer.Kind kind, Compression c) {
        Digest expected = expectedDigest();
        try (ClickHouseTcpClient client = client(ClickHouseServers.get(kind), c)) {
            Digest d = new Digest();
            try (QueryResult r = client.query(SELECT)) {
                for (Block b : r) {
                    for (int i = 0; i < b.rowCount(); i++) {
                        byte[] s = b.column(1).getString(i).getBytes(StandardCharsets.US_ASCII);
                        d.add(b.column(0).getLong(i), s, 0, s.length, b.column(2).getDouble(i));
                    }
                }
            }
            assertThat(d.toString()).isEqualTo(expected.toString());
            long frames = framesRead(client);
            if (c.enabled()) {
                assertThat(frames).as("frames read with %s", c).isGreaterThan(10);
            } else {
                assertThat(frames).isZero();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("serversAndCodecs")
    void largeInsertsArriveIntactWithEveryCodec(ClickHouseServer.Kind kind, Compression c) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        String t = TestClients.table("cz_insert");
        try (ClickHouseTcpClient client = client(server, c)) {
            client.execute("CREATE TABLE " + t + " (id UInt64, s String, f Float64) ENGINE = Memory");
            try {
                long[] ids = new long[ROWS];
                List<String> strings = new ArrayList<>(ROWS);
                double[] fs = new double[ROWS];
                for (int i = 0; i < ROWS; i++) {
                    ids[i] = i;
                    strings.add("v" + i);
                    fs[i] = i * 0.25;
                }
                Map<String, Object> columns = new LinkedHashMap<>();
                columns.put("id", ids);
                columns.put("s", strings);
                columns.put("f", fs);
                long written = framesWritten(client);
                assertThat(client.insertColumns(t, columns)).isEqualTo(ROWS);
                // row inserts too: several blocks per insert
                List<Object[]> rows = new ArrayList<>();
                for (int i = 0; i < 200_000; i++) {
                    rows.add(new Object[] {(long) (ROWS + i), "w" + i, i * 0.5});
                }
                client.insert(t, List.of("id", "s", "f"), rows);
                if (c.enabled()) {
                    assertThat(framesWritten(client) - written).as("frames written with %s", c).isGreaterThan(20);
                } else {
                    assertThat(framesWritten(client)).isZero();
                }
                String check = "SELECT count(), sum(id), sum(cityHash64(s)), sum(toUInt64(f * 4)) FROM ";
                String expected = server.httpQuery(check + "(SELECT number AS id, concat('v', toString(number)) AS s, "
                        + "number * 0.25 AS f FROM numbers(" + ROWS + ") UNION ALL SELECT " + ROWS + " + number, "
                        + "concat('w', toString(number)), number * 0.5 FROM numbers(200000))");
                assertThat(server.httpQuery(check + t)).isEqualTo(expected);
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void logAndProfileEventsDecodeWithCompressionOn(ClickHouseServer.Kind kind) {
        AtomicInteger logRows = new AtomicInteger();
        AtomicInteger eventRows = new AtomicInteger();
        AtomicLong textBytes = new AtomicLong();
        QueryListener listener = new QueryListener() {
            @Override
            public void onLog(Block logs) {
                logRows.addAndGet(logs.rowCount());
                int text = logs.indexOf("text");
                for (int i = 0; i < logs.rowCount(); i++) {
                    textBytes.addAndGet(logs.column(text).getString(i).length());
                }
            }

            @Override
            public void onProfileEvents(Block events) {
                eventRows.addAndGet(events.rowCount());
            }
        };
        try (ClickHouseTcpClient client = client(ClickHouseServers.get(kind), Compression.LZ4)) {
            QueryOptions options = QueryOptions.builder().setting("send_logs_level", "trace").listener(listener).build();
            long before = framesRead(client);
            List<Object[]> rows = client.queryRows("SELECT number % 7 AS k, count() FROM numbers(100000) GROUP BY k "
                    + "ORDER BY k", options);
            assertThat(rows).hasSize(7);
            assertThat(logRows.get()).isGreaterThan(0);
            assertThat(textBytes.get()).isGreaterThan(0);
            long frames = framesRead(client) - before;
            if (kind == ClickHouseServer.Kind.MODERN) {
                // 54481+: Log and ProfileEvents bodies travel in frames too
                assertThat(eventRows.get()).isGreaterThan(0);
                assertThat(frames).isGreaterThan(3);
            } else {
                assertThat(eventRows.get()).isZero(); // 18.16 predates ProfileEvents packets
            }
            // the connection is still in step: run another query on it
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void totalsExtremesAndTableColumnsWithCompressionOn(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        try (ClickHouseTcpClient client = client(server, Compression.ZSTD)) {
            try (QueryResult r = client.query("SELECT number % 3 AS k, count() AS c FROM numbers(30) GROUP BY k "
                    + "WITH TOTALS ORDER BY k", QueryOptions.builder().setting("extremes", 1).build())) {
                assertThat(r.drain()).isEqualTo(3);
                assertThat(r.totals().column(1).getLong(0)).isEqualTo(30);
                assertThat(r.extremes().rowCount()).isEqualTo(2);
                assertThat(r.extremes().column(0).getLong(1)).isEqualTo(2);
            }
            String t = TestClients.table("cz_cols");
            client.execute("CREATE TABLE " + t + " (a UInt64, s String DEFAULT 'x') ENGINE = Memory");
            try {
                QueryOptions.Builder insertOptions = QueryOptions.builder();
                if (kind == ClickHouseServer.Kind.MODERN) { // the setting that asks for TableColumns (not in 18.16)
                    insertOptions.setting("input_format_defaults_for_omitted_fields", 1);
                }
                String description = client.withInsert("INSERT INTO " + t + " VALUES", insertOptions.build(), ins -> {
                    var w = ins.newWriters();
                    w[0].append(1L);
                    w[1].append("y");
                    ins.sendBlock(w, 1);
                    return ins.tableColumnsDescription();
                });
                if (kind == ClickHouseServer.Kind.MODERN) {
                    assertThat(description).contains("DEFAULT");
                }
                assertThat(server.httpQuery("SELECT a, s FROM " + t)).isEqualTo("1\ty\n");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void perQueryOverrideAndChunkedFraming() {
        ClickHouseServer server = ClickHouseServers.modern();
        try (ClickHouseTcpClient client = TestClients.builder(server).maxPoolSize(1).compression(Compression.NONE)
                .preferChunked(true).build()) {
            assertThat(((Number) client.queryRows("SELECT count() FROM numbers(10)").get(0)[0]).longValue()).isEqualTo(10);
            assertThat(framesRead(client)).isZero();
            QueryOptions zstd = QueryOptions.builder().compression(Compression.zstd(3)).build();
            try (QueryResult r = client.query(SELECT, zstd)) {
                assertThat(r.drain()).isEqualTo(ROWS);
            }
            assertThat(framesRead(client)).isGreaterThan(10);
            String t = TestClients.table("cz_chunked");
            client.execute("CREATE TABLE " + t + " (id UInt64, s String, f Float64) ENGINE = Memory");
            try {
                List<Object[]> rows = new ArrayList<>();
                for (int i = 0; i < 100_000; i++) {
                    rows.add(new Object[] {(long) i, "v" + i, i * 0.25});
                }
                client.insert(t, List.of("id", "s", "f"), rows, QueryOptions.builder().compression(Compression.LZ4).build());
                assertThat(framesWritten(client)).isGreaterThan(1);
                assertThat(server.httpQuery("SELECT count(), sum(id) FROM " + t)).isEqualTo("100000\t4999950000\n");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    /**
     * ClickHouse marshals blocks in parallel (ColumnBLOB, DETACHED kinds) for the per-shard part of a
     * distributed query that stops before the complete stage, when the query has compression on
     * ({@code Planner}: secondary query, to_stage != Complete, enable_parallel_blocks_marshalling).
     */
    @Test
    void detachedColumnsOfParallelBlockMarshallingAreDecoded() {
        ClickHouseServer server = ClickHouseServers.modern();
        try (ClickHouseTcpClient client = client(server, Compression.LZ4)) {
            QueryOptions secondary = QueryOptions.builder().secondary(QueryStage.WITH_MERGEABLE_STATE)
                    .setting("enable_parallel_blocks_marshalling", 1).build();
            long before = client.withConnection(ClickHouseConnection::detachedColumnsRead);
            Digest d = new Digest();
            try (QueryResult r = client.query(SELECT, secondary)) {
                for (Block b : r) {
                    for (int i = 0; i < b.rowCount(); i++) {
                        byte[] s = b.column(1).getString(i).getBytes(StandardCharsets.US_ASCII);
                        d.add(b.column(0).getLong(i), s, 0, s.length, b.column(2).getDouble(i));
                    }
                }
            }
            assertThat(client.withConnection(ClickHouseConnection::detachedColumnsRead) - before).as("detached columns").isGreaterThan(10);
            assertThat(d.toString()).isEqualTo(expectedDigest().toString());
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
    }

    @Test
    void detachedOverSparseColumnsAreDecoded() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("cz_sparse");
        server.httpQuery("CREATE TABLE " + t + " (id UInt64, v UInt64, s String) ENGINE = MergeTree ORDER BY id "
                + "SETTINGS ratio_of_defaults_for_sparse_serialization = 0.5, min_bytes_for_wide_part = 0");
        try {
            server.httpQuery("INSERT INTO " + t + " SELECT number, if(number % 100 = 0, number, 0), "
                    + "if(number % 50 = 0, toString(number), '') FROM numbers(200000)");
            assertThat(server.httpQuery("SELECT countIf(serialization_kind = 'Sparse') FROM system.parts_columns "
                    + "WHERE table = '" + t + "' AND active")).isNotEqualTo("0\n");
            try (ClickHouseTcpClient client = client(server, Compression.ZSTD)) {
                QueryOptions secondary = QueryOptions.builder().secondary(QueryStage.WITH_MERGEABLE_STATE)
                        .setting("enable_parallel_blocks_marshalling", 1).build();
                long detached = client.withConnection(ClickHouseConnection::detachedColumnsRead);
                long sparse = client.withConnection(ClickHouseConnection::sparseColumnsRead);
                long rows = 0;
                long vSum = 0;
                long sLen = 0;
                try (QueryResult r = client.query("SELECT id, v, s FROM " + t, secondary)) {
                    for (Block b : r) {
                        rows += b.rowCount();
                        for (int i = 0; i < b.rowCount(); i++) {
                            vSum += b.column(1).getLong(i);
                            sLen += b.column(2).getString(i).length();
                        }
                    }
                }
                assertThat(rows).isEqualTo(200_000);
                assertThat(server.httpQuery("SELECT sum(v), sum(length(s)) FROM " + t)).isEqualTo(vSum + "\t" + sLen + "\n");
                assertThat(client.withConnection(ClickHouseConnection::detachedColumnsRead)).isGreaterThan(detached);
                assertThat(client.withConnection(ClickHouseConnection::sparseColumnsRead)).as("sparse columns inside blobs").isGreaterThan(sparse);
            }
        } finally {
            server.httpQuery("DROP TABLE IF EXISTS " + t);
        }
    }

    /**
     * 18.16 fails a query with an unknown setting while it reads the Query packet, and a query with a
     * syntax error before it reads the query's data; either way it then reads our compressed
     * end-of-data block as a plain one, so with compression on it closes the connection (or waits for
     * bytes that never come). The server's error must still reach the caller, and the connection be
     * replaced.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void serverErrorWhileTheQueryIsReadReachesTheCaller(boolean compressed) {
        ClickHouseServer server = ClickHouseServers.legacy();
        try (ClickHouseTcpClient client = client(server, compressed ? Compression.LZ4 : Compression.NONE)) {
            QueryOptions bad = QueryOptions.builder().setting("no_such_setting_cz", 1).build();
            assertThatThrownBy(() -> client.queryRows("SELECT 1", bad))
                    .isInstanceOf(ClickHouseServerException.class)
                    .satisfies(e -> assertThat(((ClickHouseServerException) e).code()).isEqualTo(115));
            assertThat(((Number) client.queryRows("SELECT toUInt64(7)").get(0)[0]).longValue()).isEqualTo(7);
            assertThatThrownBy(() -> client.queryRows("SELEC 1"))
                    .isInstanceOf(ClickHouseServerException.class)
                    .satisfies(e -> assertThat(((ClickHouseServerException) e).code()).isEqualTo(62));
            assertThat(((Number) client.queryRows("SELECT toUInt64(8)").get(0)[0]).longValue()).isEqualTo(8);
        }
    }

    /**
     * A byte flipped inside a frame on its way from the server (the server itself sees nothing wrong):
     * the checksum catches it and the connection is discarded, not returned to the pool.
     */
    @Test
    void corruptedFrameFailsTheQueryAndDiscardsTheConnection() throws IOException {
        // legacy only: the discarded connection is closed with response bytes unread, so the server sees a
        // connection reset, which the embedded 26.7 server does not survive
        ClickHouseServer server = ClickHouseServers.legacy();
        try (FaultProxy proxy = new FaultProxy(server.host(), server.tcpPort());
             ClickHouseTcpClient client = ClickHouseTcpClient.builder().host("127.0.0.1").port(proxy.port())
                     .maxPoolSize(1).compression(Compression.LZ4).build()) {
            // far past the handshake, inside the frames of the first big block
            proxy.on(FaultProxy.Direction.SERVER_TO_CLIENT).atOffset(300_000).flip().onNextConnection();
            assertThatThrownBy(() -> {
                try (QueryResult r = client.query(SELECT)) {
                    r.drain();
                }
            }).isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("checksum mismatch");
            assertThat(client.poolStats().destroyed()).isEqualTo(1);
            assertThat(((Number) client.queryRows("SELECT toUInt64(42)").get(0)[0]).longValue()).isEqualTo(42);
        }
    }
}
