package dev.clickhousetcp.io;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.protocol.BlockCodec;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.protocol.ProtocolRevision;
import dev.clickhousetcp.protocol.ServerHello;
import dev.clickhousetcp.protocol.ServerPacket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Compressed frames in both directions: decoding packet streams captured between clickhouse-client
 * 18.16 and the 18.16 server (LZ4 and ZSTD), round trips of our own frames, and corruption.
 */
class CompressedStreamsTest {

    static byte[] resource(String name) throws IOException {
        try (InputStream in = CompressedStreamsTest.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        }
    }

    /** Result of decoding a captured server stream. */
    record Decoded(List<Block> blocks, long frames, boolean ended) {
    }

    /**
     * Decodes a captured server-to-client stream of {@code SELECT number, toString(number) FROM
     * numbers(300)} with compression on, the way a connection does: packet envelopes from the raw
     * reader, block bodies through a decompressing reader that must end each block at a frame end.
     */
    static Decoded decodeCapture(byte[] capture) throws IOException {
        BinaryReader raw = new BinaryReader(new ByteArrayInputStream(capture), 4096, 1 << 20);
        assertThat(raw.readVarUInt()).isEqualTo(ServerPacket.HELLO);
        ServerHello hello = ServerHello.read(raw, ProtocolRevision.CLIENT);
        long rev = Math.min(ProtocolRevision.CLIENT, hello.revision());
        CompressedInputStream frames = new CompressedInputStream(raw::readFully, 1 << 20);
        BinaryReader body = new BinaryReader(frames, 4096, 1 << 20);
        ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, rev, null);
        List<Block> blocks = new ArrayList<>();
        while (true) {
            long type = raw.readVarUInt();
            if (type == ServerPacket.DATA) {
                raw.readString();
                blocks.add(BlockCodec.read(body, ctx, Lifetime.FOREVER));
                assertThat(frames.atFrameEnd()).as("block ends at a frame end").isTrue();
            } else if (type == ServerPacket.PROGRESS) {
                Progress.read(raw, rev);
            } else if (type == ServerPacket.PROFILE_INFO) {
                ProfileInfo.read(raw, rev);
            } else if (type == ServerPacket.PONG) {
                continue; // clickhouse-client pings before it sends the query
            } else if (type == ServerPacket.END_OF_STREAM) {
                return new Decoded(blocks, frames.framesRead(), true);
            } else {
                throw new AssertionError("unexpected packet " + type);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"legacy-select-zstd.s2c", "legacy-select-lz4.s2c"})
    void decodesCapturedServerStreams(String name) throws IOException {
        Decoded d = decodeCapture(resource(name));
        assertThat(d.ended()).isTrue();
        assertThat(d.frames()).isEqualTo(3);
        assertThat(d.blocks()).extracting(Block::rowCount).containsExactly(0, 300, 0);
        Block b = d.blocks().get(1);
        assertThat(b.names()).containsExactly("number", "toString(number)");
        for (int i = 0; i < 300; i++) {
            assertThat(b.column(0).getLong(i)).isEqualTo(i);
            assertThat(b.column(1).getString(i)).isEqualTo(Integer.toString(i));
        }
    }

    /** Offset of the checksum of the frame holding the 300-row block in legacy-select-zstd.s2c. */
    static final int BIG_FRAME = 116;

    @Test
    void flippedPayloadByteIsAChecksumMismatch() throws IOException {
        byte[] capture = resource("legacy-select-zstd.s2c");
        capture[BIG_FRAME + 16 + 9 + 400] ^= 0x01;
        assertThatThrownBy(() -> decodeCapture(capture))
                .isInstanceOf(ClickHouseProtocolException.class)
                .hasMessageContaining("checksum mismatch");
    }

    @Test
    void flippedChecksumOrHeaderByteIsAChecksumMismatch() throws IOException {
        byte[] capture = resource("legacy-select-lz4.s2c");
        byte[] a = capture.clone();
        a[106 + 3] ^= 0x40; // checksum byte of the 300-row frame
        assertThatThrownBy(() -> decodeCapture(a)).isInstanceOf(ClickHouseProtocolException.class)
                .hasMessageContaining("checksum mismatch");
        byte[] b = capture.clone();
        b[106 + 16 + 5] ^= 0x01; // decompressed size: still within limits, caught by the checksum
        assertThatThrownBy(() -> decodeCapture(b)).isInstanceOf(ClickHouseProtocolException.class)
                .hasMessageContaining("checksum mismatch");
    }

    @Test
    void unknownMethodAndOversizedFramesFailBeforeReadingThePayload() {
        byte[] head = new byte[25];
        head[16] = (byte) 0x91;
        assertThatThrownBy(() -> readAll(head, 1 << 20))
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("0x91");
        byte[] big = new byte[25];
        big[16] = (byte) 0x82;
        writeInt(big, 17, 100);
        writeInt(big, 21, 2 << 20);
        // only the 25 header bytes exist: the limit must trip before the payload is awaited
        assertThatThrownBy(() -> readAll(big, 1 << 20))
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("over the limit");
        byte[] huge = new byte[25];
        huge[16] = (byte) 0x90;
        writeInt(huge, 17, -1);
        writeInt(huge, 21, 10);
        assertThatThrownBy(() -> readAll(huge, 1 << 20))
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("compressed bytes");
        byte[] tiny = new byte[25];
        tiny[16] = (byte) 0x82;
        writeInt(tiny, 17, 3);
        assertThatThrownBy(() -> readAll(tiny, 1 << 20))
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("compressed bytes");
    }

    @Test
    void truncatedFrameIsEndOfStream() throws IOException {
        byte[] frame = frames(CompressionMethod.LZ4, 1, new byte[1000], 1 << 20);
        byte[] cut = Arrays.copyOf(frame, frame.length - 1);
        assertThatThrownBy(() -> readAll(cut, 1 << 20)).isInstanceOf(EOFException.class);
    }

    @ParameterizedTest
    @EnumSource(CompressionMethod.class)
    void roundTripsInFramesOfTheGivenSize(CompressionMethod method) throws IOException {
        byte[] data = sample(3_000_000);
        byte[] framed = frames(method, 3, data, 1 << 20);
        CompressedInputStream in = new CompressedInputStream(source(framed), 1 << 20);
        byte[] back = new byte[data.length];
        int n = 0;
        while (n < back.length) {
            n += in.read(back, n, back.length - n);
        }
        assertThat(back).isEqualTo(data);
        assertThat(in.framesRead()).isEqualTo(3);
        assertThat(in.atFrameEnd()).isTrue();
        assertThat(in.compressedBytesRead()).isEqualTo(framed.length);
        if (method != CompressionMethod.NONE) {
            assertThat(framed.length).isLessThan(data.length * 6 / 10);
        }
        int frameCount = 0;
        for (int at = 0; at < framed.length; at += 16 + (int) readInt(framed, at + 17)) {
            assertThat(framed[at + 16] & 0xFF).as("method byte of the frame at %d", at).isEqualTo(method.code());
            assertThat(readInt(framed, at + 21)).isEqualTo(Math.min(1 << 20, data.length - (1L << 20) * frameCount));
            frameCount++;
        }
        assertThat(frameCount).isEqualTo(3);
    }

    @Test
    void neverPullsAFrameBeforeItIsNeeded() throws IOException {
        byte[] one = frames(CompressionMethod.LZ4, 1, sample(1000), 1 << 20);
        byte[] two = new byte[one.length * 2];
        System.arraycopy(one, 0, two, 0, one.length);
        System.arraycopy(one, 0, two, one.length, one.length);
        int[] consumed = {0};
        CompressedInputStream in = new CompressedInputStream((dst, off, len) -> {
            System.arraycopy(two, consumed[0], dst, off, len);
            consumed[0] += len;
        }, 1 << 20);
        BinaryReader r = new BinaryReader(in, 64 * 1024, 1 << 20);
        r.readFully(new byte[1000], 0, 1000);
        assertThat(consumed[0]).isEqualTo(one.length);
        assertThat(in.atFrameEnd()).isTrue();
        assertThat(in.available()).isZero();
        r.readUInt8();
        assertThat(consumed[0]).isEqualTo(two.length);
    }

    @Test
    void ourZstdFrameOfTheEmptyBlockMatchesClickHouseClients() throws IOException {
        // clickhouse-client 18.16 with network_compression_method=zstd (level 1) ends its query with
        // this frame; ours must be byte-identical (same zstd format, level and checksum)
        byte[] c2s = resource("legacy-select-zstd.c2s");
        byte[] theirs = Arrays.copyOfRange(c2s, 167, c2s.length);
        byte[] ours = frames(CompressionMethod.ZSTD, 1, emptyBlock(), 1 << 20);
        assertThat(ours).isEqualTo(theirs);
        byte[] lz4 = resource("legacy-select-lz4.c2s");
        assertThat(frames(CompressionMethod.LZ4, 0, emptyBlock(), 1 << 20))
                .isEqualTo(Arrays.copyOfRange(lz4, 166, lz4.length));
    }

    static byte[] emptyBlock() throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        BinaryWriter w = new BinaryWriter(bos, 1024);
        BlockCodec.writeEmpty(w);
        w.flush();
        return bos.toByteArray();
    }

    static byte[] frames(CompressionMethod method, int level, byte[] data, int frameBytes) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        CompressedOutputStream out = new CompressedOutputStream(bos::write, frameBytes);
        out.method(method, level);
        out.write(data, 0, data.length);
        return bos.toByteArray();
    }

    static CompressedInputStream.Source source(byte[] bytes) {
        int[] pos = {0};
        return (dst, off, len) -> {
            if (pos[0] + len > bytes.length) {
                throw new EOFException("end of test input");
            }
            System.arraycopy(bytes, pos[0], dst, off, len);
            pos[0] += len;
        };
    }

    static void readAll(byte[] framed, int max) throws IOException {
        CompressedInputStream in = new CompressedInputStream(source(framed), max);
        byte[] sink = new byte[4096];
        while (in.read(sink, 0, sink.length) > 0) {
            // keep reading until the input ends
        }
    }

    /** Half random, half repetitive text: compressible but not trivially. */
    static byte[] sample(int n) {
        byte[] b = new byte[n];
        Random r = new Random(42);
        for (int i = 0; i < n; i++) {
            b[i] = (i / 4096) % 2 == 0 ? (byte) r.nextInt(256) : (byte) ('a' + i % 7);
        }
        return b;
    }

    static void writeInt(byte[] b, int at, int v) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }

    static long readInt(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 4; i++) {
            v |= (b[at + i] & 0xFFL) << (8 * i);
        }
        return v;
    }
}
