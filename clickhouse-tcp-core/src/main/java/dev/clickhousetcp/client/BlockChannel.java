package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import dev.clickhousetcp.io.CompressedOutputStream;
import dev.clickhousetcp.io.FramedReader;
import dev.clickhousetcp.protocol.BlockCodec;
import dev.clickhousetcp.protocol.ClientPacket;
import dev.clickhousetcp.protocol.ProtocolFeature;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * The streams that carry one connection's block bodies, plain or in compressed frames as the running
 * query asks (ClickHouse {@code TCPHandler}'s {@code maybe_compressed_in/out}). Packet envelopes
 * (packet type, table name) always go through the raw reader and writer; bodies go through:
 *
 * <ul>
 *   <li>{@link #dataIn()}: Data, Totals and Extremes bodies; compressed whenever the query is;</li>
 *   <li>{@link #sideIn(long)}: Log, ProfileEvents and TableColumns bodies; compressed only when the
 *       query is and the revision is at least 54481 ({@code COMPRESSED_LOGS_PROFILE_EVENTS_COLUMNS});</li>
 *   <li>{@link #writeData} / {@link #writeEmptyData}: our Data packets, block compressed when the
 *       query is (the server reads client blocks through its own maybe-compressed input).</li>
 * </ul>
 *
 * <p>Compressed bodies are read through one {@link FramedReader} that pulls frames from the raw
 * reader only when it needs bytes, so it never consumes the next packet; {@link #endBody} checks that
 * a body ended exactly at a frame end. Frame buffers are created on first use and reused by every
 * later query. Single-threaded, like its connection.
 */
final class BlockChannel {
    /** The empty block that ends a client data stream, serialized once (its bytes do not depend on the revision). */
    private static final byte[] EMPTY_BLOCK = emptyBlock();

    private final BinaryReader rawIn;
    private final BinaryWriter rawOut;
    private final int bufferSize;
    private final DecodeLimits limits;
    private Compression compression = Compression.NONE;
    private FramedReader framedIn;
    private CompressedOutputStream framesOut;
    private BinaryWriter framedOut;

    BlockChannel(BinaryReader rawIn, BinaryWriter rawOut, int bufferSize, DecodeLimits limits) {
        this.rawIn = rawIn;
        this.rawOut = rawOut;
        this.bufferSize = bufferSize;
        this.limits = limits;
    }

    /**
     * Starts a query with {@code compression}.
     *
     * @throws ClickHouseProtocolException when the previous query left decompressed bytes unread
     */
    void begin(Compression compression) {
        if (framedIn != null) {
            framedIn.checkFrameEnd("the previous response");
        }
        this.compression = compression;
        if (compression.enabled()) {
            frames().method(compression.method(), compression.level());
        }
    }

    /** The running query's compression. */
    Compression compression() {
        return compression;
    }

    /** Reader of Data, Totals and Extremes bodies. */
    BinaryReader dataIn() {
        return compression.enabled() ? framed().reader() : rawIn;
    }

    /** Reader of Log, ProfileEvents and TableColumns bodies at {@code revision}. */
    BinaryReader sideIn(long revision) {
        return compression.enabled() && ProtocolFeature.COMPRESSED_LOGS_PROFILE_EVENTS_COLUMNS.in(revision)
                ? framed().reader() : rawIn;
    }

    /**
     * Checks that the body just read through {@code body} ended at a frame end (always true for the
     * raw reader).
     *
     * @throws ClickHouseProtocolException when decompressed bytes are left over
     */
    void endBody(BinaryReader body, String what) {
        if (framedIn != null && body == framedIn.reader()) {
            framedIn.checkFrameEnd(what);
        }
    }

    /** Compressed frames read so far (statistics). */
    long framesRead() {
        return framedIn == null ? 0 : framedIn.frames().framesRead();
    }

    /** Compressed frames written so far (statistics). */
    long framesWritten() {
        return framesOut == null ? 0 : framesOut.framesWritten();
    }

    /** Compressed bytes of the frames read so far, checksums and headers included (statistics). */
    long compressedBytesRead() {
        return framedIn == null ? 0 : framedIn.frames().compressedBytesRead();
    }

    /** Bytes the frames read so far decompressed to (statistics). */
    long decompressedBytesRead() {
        return framedIn == null ? 0 : framedIn.frames().decompressedBytesRead();
    }

    /** Compressed bytes of the frames written so far (statistics). */
    long compressedBytesWritten() {
        return framesOut == null ? 0 : framesOut.compressedBytesWritten();
    }

    /** Bytes before compression of the frames written so far (statistics). */
    long uncompressedBytesWritten() {
        return framesOut == null ? 0 : framesOut.uncompressedBytesWritten();
    }

    /**
     * Writes a client Data packet (type, empty table name, block of {@code rows} rows from
     * {@code writers}); the caller flushes the raw writer to end the packet.
     */
    void writeData(long revision, String[] names, ColumnWriter[] writers, int rows) throws IOException {
        writeData(revision, "", names, writers, rows);
    }

    /** Like {@link #writeData(long, String[], ColumnWriter[], int)} for the named external table. */
    void writeData(long revision, String table, String[] names, ColumnWriter[] writers, int rows) throws IOException {
        rawOut.writeVarUInt(ClientPacket.DATA);
        rawOut.writeString(table);
        if (compression.enabled()) {
            BinaryWriter w = framedWriter();
            BlockCodec.write(w, revision, names, writers, rows);
            w.flush(); // the last frame; the raw writer is flushed by the caller
        } else {
            BlockCodec.write(rawOut, revision, names, writers, rows);
        }
    }

    /** Writes the Data packet with the empty block that ends a data stream; the caller flushes. */
    void writeEmptyData() throws IOException {
        rawOut.writeVarUInt(ClientPacket.DATA);
        rawOut.writeString("");
        if (compression.enabled()) {
            frames().write(EMPTY_BLOCK, 0, EMPTY_BLOCK.length);
        } else {
            rawOut.writeBytes(EMPTY_BLOCK, 0, EMPTY_BLOCK.length);
        }
    }

    private FramedReader framed() {
        if (framedIn == null) {
            framedIn = new FramedReader(rawIn::readFully, bufferSize, limits.maxStringBytes(), limits.maxFrameBytes());
        }
        return framedIn;
    }

    private CompressedOutputStream frames() {
        if (framesOut == null) {
            framesOut = new CompressedOutputStream(rawOut::writeBytes, CompressedOutputStream.DEFAULT_FRAME_BYTES);
        }
        return framesOut;
    }

    private BinaryWriter framedWriter() {
        if (framedOut == null) {
            // the writer's buffer is the frame size: each buffer it drains becomes one frame
            framedOut = new BinaryWriter(frames(), CompressedOutputStream.DEFAULT_FRAME_BYTES);
        }
        return framedOut;
    }

    private static byte[] emptyBlock() {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try {
            BinaryWriter w = new BinaryWriter(bos, 64);
            BlockCodec.writeEmpty(w);
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Arrays.copyOf(bos.toByteArray(), bos.size());
    }
}
