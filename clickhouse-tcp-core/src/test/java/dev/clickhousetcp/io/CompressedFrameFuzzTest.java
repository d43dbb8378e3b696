package dev.clickhousetcp.io;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.fuzz.FuzzSupport;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * Coverage-guided fuzzing of the compressed frame reader ({@link CompressedInputStream} under a
 * {@link FramedReader}, as a connection reads compressed bodies): checksum, method byte, sizes, LZ4
 * and ZSTD payloads, frame ends. Seeds: the frames of LZ4 and ZSTD responses captured from
 * ClickHouse 26.7 and 18.16.
 *
 * <p>Input: byte 0 holds flags: bit 0 makes the target rewrite each frame's CityHash128 checksum to
 * the right one before reading (so the fuzzer reaches the decompressors behind the checksum; the
 * frames are found by their declared sizes), bits 1-2 pick the frame limit (128 MiB, 1 MiB, 64 KiB,
 * 100 bytes). The rest is the frame sequence.
 *
 * <p>Invariants: every frame decodes, or {@link ClickHouseProtocolException} (bad checksum, method,
 * size or payload) or an {@link IOException} (the bytes ended); the decompressed byte count matches
 * what the reader consumed; nothing else, no {@link Error}; no hang.
 */
class CompressedFrameFuzzTest {
    private static final int[] LIMITS = {128 << 20, 1 << 20, 64 << 10, 100};

    @FuzzTest(maxDuration = "10s")
    @Timeout(FuzzSupport.INPUT_TIMEOUT_SECONDS)
    void frames(byte[] input) {
        if (input.length == 0) {
            return;
        }
        byte[] frames = Arrays.copyOfRange(input, 1, input.length);
        if ((input[0] & 1) != 0) {
            fixChecksums(frames);
        }
        DataInputStream src = new DataInputStream(new ByteArrayInputStream(frames));
        FramedReader reader = new FramedReader(src::readFully, 4096, 1 << 20, LIMITS[(input[0] >> 1) & 3]);
        BinaryReader r = reader.reader();
        byte[] sink = new byte[8192];
        try {
            while (true) {
                r.readFully(sink, 0, 1 + (r.readUInt8() & 0x1FFF) % sink.length);
                if (reader.atFrameEnd()) {
                    reader.checkFrameEnd("a fuzzed body");
                }
            }
        } catch (ClickHouseProtocolException | IOException expected) {
            // corrupt or ended: the typed outcomes
        }
        if (reader.frames().decompressedBytesRead() < r.bytesRead()) {
            throw new AssertionError("read " + r.bytesRead() + " bytes from " + reader.frames().decompressedBytesRead()
                    + " decompressed ones");
        }
    }

    /** Sets each frame's checksum to the CityHash128 of its header and payload, walking declared sizes. */
    static void fixChecksums(byte[] b) {
        int h = CompressedInputStream.CHECKSUM_BYTES;
        int off = 0;
        while (off + h + CompressedInputStream.HEADER_BYTES <= b.length) {
            long csize = (b[off + h + 1] & 0xFFL) | (b[off + h + 2] & 0xFFL) << 8 | (b[off + h + 3] & 0xFFL) << 16
                    | (b[off + h + 4] & 0xFFL) << 24;
            if (csize < CompressedInputStream.HEADER_BYTES || off + h + csize > b.length) {
                return;
            }
            CityHash128.Hash hash = CityHash128.hash(b, off + h, (int) csize);
            for (int i = 0; i < 8; i++) {
                b[off + i] = (byte) (hash.low() >>> (8 * i));
                b[off + 8 + i] = (byte) (hash.high() >>> (8 * i));
            }
            off += h + (int) csize;
        }
    }
}
