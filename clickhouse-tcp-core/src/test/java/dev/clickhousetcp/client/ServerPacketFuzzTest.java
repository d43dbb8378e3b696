package dev.clickhousetcp.client;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.fuzz.FuzzSupport;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;

/**
 * Coverage-guided fuzzing of everything a connection reads from its server, through the real entry
 * points: {@link ClickHouseConnection#handshake} (server Hello, revision negotiation, chunked framing),
 * then a query ({@link QueryResult}, {@link ResponseReader}: Data, Progress, ProfileInfo, Totals,
 * Extremes, Log, ProfileEvents, TableColumns, TimezoneUpdate, Exception and its resynchronizing Ping,
 * EndOfStream, unknown packets), an insert ({@link InsertStream}: header and confirmation) or a ping,
 * over plain, LZ4 or ZSTD bodies. The revision is whatever the input's server Hello says, so one
 * target covers 26.7 (54488), 18.16 (54412) and older servers; the seeds are streams captured from
 * both servers here, and older revisions derived from them.
 *
 * <p>Input: byte 0 chooses the client side ({@link Scenario}), the rest is the server's byte stream
 * from its first packet on; after the last byte the server has closed the connection.
 *
 * <p>Invariants: every failure is a typed exception of the client ({@link ClickHouseProtocolException},
 * {@link ClickHouseConnectionException} for the end of the bytes, {@link ClickHouseServerException}
 * for an Exception packet, {@link ClickHouseTypeException} for a column type it cannot decode), never an unchecked surprise wrapped as a plain {@link ClickHouseException},
 * never an {@link Error}; a connection that saw a protocol or transport error is discarded (not
 * usable, its transport closed); no hang.
 */
class ServerPacketFuzzTest {

    /** The client side of one input, from its first byte. */
    record Scenario(Compression compression, boolean preferChunked, int operation) {
        static final int QUERY = 0;
        static final int INSERT = 1;
        static final int PING = 2;
        static final int QUERY_TWICE = 3;

        static Scenario of(int b) {
            Compression c = switch (b & 3) {
                case 1 -> Compression.LZ4;
                case 2 -> Compression.ZSTD;
                case 3 -> Compression.CHECKSUM_ONLY;
                default -> Compression.NONE;
            };
            return new Scenario(c, (b & 4) != 0, (b >> 3) & 3);
        }

        int toByte() {
            int c = compression == Compression.LZ4 ? 1 : compression == Compression.ZSTD ? 2
                    : compression == Compression.CHECKSUM_ONLY ? 3 : 0;
            return c | (preferChunked ? 4 : 0) | (operation << 3);
        }
    }

    /** Touches every side packet's content as a listener would. */
    private static final QueryListener TOUCHING = new QueryListener() {
        @Override
        public void onProgress(Progress increment) {
            increment.toString();
        }

        @Override
        public void onProfileInfo(ProfileInfo info) {
            info.toString();
        }

        @Override
        public void onProfileEvents(Block events) {
            FuzzSupport.touch(events);
        }

        @Override
        public void onLog(Block logs) {
            FuzzSupport.touch(logs);
        }
    };

    @FuzzTest(maxDuration = "10s")
    @Timeout(FuzzSupport.INPUT_TIMEOUT_SECONDS)
    void serverStream(byte[] input) {
        if (input.length == 0) {
            return;
        }
        run(Scenario.of(input[0] & 0xFF), Arrays.copyOfRange(input, 1, input.length));
    }

    /** Runs one scenario against {@code server} bytes, checking the invariants. */
    static void run(Scenario s, byte[] server) {
        InMemoryTransport transport = new InMemoryTransport(server, 1 << 16);
        ConnectionConfig config = ConnectionConfig.builder().host("fuzz").port(9000)
                .compression(s.compression()).preferChunked(s.preferChunked()).build();
        ClickHouseConnection conn;
        try {
            conn = ConnectionOpener.handshake(config, transport, new ConnectionGuard(Budget.NONE));
        } catch (ClickHouseException e) {
            check(e, null, transport);
            return;
        }
        try {
            switch (s.operation()) {
                case Scenario.INSERT -> insert(conn);
                case Scenario.PING -> conn.ping();
                case Scenario.QUERY_TWICE -> {
                    query(conn);
                    if (conn.isUsable()) {
                        query(conn);
                    }
                }
                default -> query(conn);
            }
        } catch (ClickHouseException e) {
            check(e, conn, transport);
        } finally {
            conn.close();
        }
    }

    private static void query(ClickHouseConnection conn) {
        QueryOptions options = QueryOptions.builder().queryId("fuzz").listener(TOUCHING).build();
        try (QueryResult r = conn.query("SELECT 1", options)) {
            for (Block b : r) {
                FuzzSupport.touch(b);
            }
            if (r.totals() != null) {
                FuzzSupport.touch(r.totals());
            }
            if (r.extremes() != null) {
                FuzzSupport.touch(r.extremes());
            }
        }
    }

    private static void insert(ClickHouseConnection conn) {
        QueryOptions options = QueryOptions.builder().queryId("fuzz").listener(TOUCHING).build();
        try (InsertStream in = conn.insert("INSERT INTO t VALUES", options)) {
            FuzzSupport.touch(in.header());
            in.newWriters();
            in.finish();
        }
    }

    /** The invariants on a failure; rethrows what breaks them (a finding). */
    private static void check(ClickHouseException e, ClickHouseConnection conn, InMemoryTransport transport) {
        boolean typed = e instanceof ClickHouseProtocolException || e instanceof ClickHouseConnectionException
                || e instanceof ClickHouseServerException || e instanceof ClickHouseTypeException;
        if (!typed) {
            // fail() wraps anything unexpected as a plain ClickHouseException: surface the cause
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new AssertionError("untyped failure: " + e, cause);
        }
        if (!(e instanceof ClickHouseServerException)) {
            if (conn != null && conn.isUsable()) {
                throw new AssertionError("connection still usable after " + e, e);
            }
        }
    }
}
