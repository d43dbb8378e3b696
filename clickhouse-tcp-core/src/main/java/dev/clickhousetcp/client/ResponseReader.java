package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.protocol.BlockCodec;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.protocol.ServerExceptionCodec;
import dev.clickhousetcp.protocol.ServerPacket;

import java.io.IOException;

/**
 * Reads the server packets of one response, dispatching side packets (Progress, ProfileInfo,
 * ProfileEvents, Log, Totals, Extremes, TableColumns, TimezoneUpdate) and returning Data blocks and
 * the end. Packet set per ClickHouse {@code src/Core/Protocol.h}; an unknown packet is a protocol
 * error. Single-threaded.
 */
final class ResponseReader {
    private final ClickHouseConnection conn;
    private final QueryListener listener;
    private Progress progress = Progress.ZERO;
    private ProfileInfo profileInfo;
    private Block totals;
    private Block extremes;
    private String tableColumns;
    private boolean finished;
    /** Whether the reader waits for the next packet's type: no byte of a packet is half read. */
    private boolean betweenPackets;
    /** Whether ProfileEvents' InsertedRows / InsertedBytes are summed (an observed insert). */
    private boolean countInserted;
    private long insertedRows;
    private long insertedBytes;

    ResponseReader(ClickHouseConnection conn, QueryListener listener) {
        this.conn = conn;
        this.listener = listener;
    }

    /**
     * Sums the {@code InsertedRows} and {@code InsertedBytes} increments of the ProfileEvents packets
     * from now on: a server sends no Progress for the rows a client inserts, so these are its figures.
     */
    void countInserted() {
        countInserted = true;
    }

    /** Rows the server reported inserted in ProfileEvents (with {@link #countInserted()}). */
    long insertedRows() {
        return insertedRows;
    }

    /** Uncompressed bytes the server reported inserted in ProfileEvents (with {@link #countInserted()}). */
    long insertedBytes() {
        return insertedBytes;
    }

    private void addInserted(Block events) {
        int name = events.indexOf("name");
        int value = events.indexOf("value");
        int type = events.indexOf("type");
        if (name < 0 || value < 0) {
            return;
        }
        for (int i = 0; i < events.rowCount(); i++) {
            Object n = events.column(name).getObject(i);
            if (type >= 0 && !"increment".equals(String.valueOf(events.column(type).getObject(i)))) {
                continue;
            }
            if ("InsertedRows".equals(n)) {
                insertedRows += ((Number) events.column(value).getObject(i)).longValue();
            } else if ("InsertedBytes".equals(n)) {
                insertedBytes += ((Number) events.column(value).getObject(i)).longValue();
            }
        }
    }

    /**
     * Reads packets until a Data block or the end of the response.
     *
     * @return the Data block (borrowed under {@code lifetime}), or {@code null} at EndOfStream
     * @throws ClickHouseServerException when the server ends the response with an Exception
     * @throws IOException               on transport failure
     */
    Block next(Lifetime lifetime) throws IOException {
        if (finished) {
            return null;
        }
        BinaryReader in = conn.in();
        BlockChannel blocks = conn.blocks();
        long rev = conn.revision();
        while (true) {
            betweenPackets = true; // a packet type is one byte: a wait for it has read nothing of the packet
            long type = in.readVarUInt();
            betweenPackets = false;
            switch ((int) type) {
                case ServerPacket.DATA -> {
                    in.readString();
                    BinaryReader body = blocks.dataIn();
                    Block b = BlockCodec.read(body, conn.readContext(true), lifetime);
                    blocks.endBody(body, "a Data block");
                    return b;
                }
                case ServerPacket.PROGRESS -> {
                    Progress p = Progress.read(in, rev);
                    progress = progress.plus(p);
                    listener.onProgress(p);
                }
                case ServerPacket.PROFILE_INFO -> {
                    profileInfo = ProfileInfo.read(in, rev);
                    listener.onProfileInfo(profileInfo);
                }
                case ServerPacket.TOTALS -> {
                    in.readString();
                    BinaryReader body = blocks.dataIn();
                    totals = BlockCodec.read(body, conn.readContext(false), Lifetime.FOREVER);
                    blocks.endBody(body, "the Totals block");
                }
                case ServerPacket.EXTREMES -> {
                    in.readString();
                    BinaryReader body = blocks.dataIn();
                    extremes = BlockCodec.read(body, conn.readContext(false), Lifetime.FOREVER);
                    blocks.endBody(body, "the Extremes block");
                }
                case ServerPacket.LOG -> {
                    in.readString(); // the envelope stays uncompressed; the block may not (54481+)
                    BinaryReader body = blocks.sideIn(rev);
                    Lifetime l = new Lifetime("a Log block");
                    Block b = BlockCodec.read(body, conn.readContext(true), l);
                    blocks.endBody(body, "a Log block");
                    ServerLogForwarder.forward(b);
                    listener.onLog(b);
                    l.release();
                }
                case ServerPacket.PROFILE_EVENTS -> {
                    in.readString();
                    BinaryReader body = blocks.sideIn(rev);
                    Lifetime l = new Lifetime("a ProfileEvents block");
                    Block b = BlockCodec.read(body, conn.readContext(true), l);
                    blocks.endBody(body, "a ProfileEvents block");
                    if (countInserted) {
                        try {
                            addInserted(b);
                        } catch (RuntimeException e) {
                            ObservedOperation.failed("reading ProfileEvents", e); // statistics only
                        }
                    }
                    listener.onProfileEvents(b);
                    l.release();
                }
                case ServerPacket.TABLE_COLUMNS -> {
                    // at 54481+ with compression, both strings are inside the frame (no raw envelope)
                    BinaryReader body = blocks.sideIn(rev);
                    body.readString(); // external table name
                    tableColumns = body.readString();
                    blocks.endBody(body, "the TableColumns packet");
                }
                case ServerPacket.TIMEZONE_UPDATE -> conn.timeZone().update(in.readString());
                case ServerPacket.EXCEPTION -> {
                    ClickHouseServerException e = ServerExceptionCodec.read(in);
                    finished = true;
                    boolean resent;
                    try {
                        conn.resyncAfterException();
                        resent = conn.resentWithoutCompressionSetting(e);
                    } catch (IOException | RuntimeException resync) {
                        // the server's error is still the answer; the connection is not reusable
                        ClickHouseServerException answer = conn.refusedCompressionSetting(e) ? e.withClientNote(
                                "the client adds network_compression_method for ZSTD and CHECKSUM_ONLY compression "
                                + "unless it knows the settings may be readonly = 1 (from the server's Hello or a SET "
                                + "readonly or SET profile it ran); here they became so another way, and the server closed the "
                                + "connection after refusing the setting: use Compression.LZ4 or NONE there") : e;
                        answer.addSuppressed(conn.fail(resync));
                        throw answer;
                    }
                    if (resent) {
                        finished = false; // the same request again: its response follows
                        continue;
                    }
                    conn.end();
                    throw e;
                }
                case ServerPacket.END_OF_STREAM -> {
                    finished = true;
                    conn.timeZone().ended();
                    conn.statementSucceeded();
                    conn.end();
                    return null;
                }
                default -> throw new ClickHouseProtocolException("unexpected server packet " + ServerPacket.name(type)
                        + " during a query");
            }
        }
    }

    boolean finished() {
        return finished;
    }

    /**
     * Whether the last read failed while waiting for the first byte of a packet, so that the response can
     * still be read on from its next packet (with a reader of the same connection).
     */
    boolean betweenPackets() {
        return betweenPackets;
    }

    Progress progress() {
        return progress;
    }

    ProfileInfo profileInfo() {
        return profileInfo;
    }

    Block totals() {
        return totals;
    }

    Block extremes() {
        return extremes;
    }

    /** The column description text of a TableColumns packet (INSERT), or {@code null}. */
    String tableColumns() {
        return tableColumns;
    }
}
