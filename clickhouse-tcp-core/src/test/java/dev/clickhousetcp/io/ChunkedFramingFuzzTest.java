package dev.clickhousetcp.io;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.fuzz.FuzzSupport;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * Coverage-guided fuzzing of chunked packet framing ({@link ChunkedInputStream}, revision 54470+)
 * under a {@link BinaryReader}, checked against an independent reading of the same bytes. Seeds:
 * chunked responses captured from ClickHouse 26.7 (after the Hello, which is not chunked).
 *
 * <p>Input: byte 0 picks the chunk limit (unbounded as a connection sets it, 64 KiB, 16 bytes) and
 * the read sizes; the rest is the chunked stream.
 *
 * <p>Invariants: the bytes read are exactly the chunk payloads in order (the zero-size packet ends
 * skipped), a chunk over the limit is a {@link ClickHouseProtocolException}, a cut chunk header or
 * payload an {@link EOFException}; nothing else, no {@link Error}; no hang.
 */
class ChunkedFramingFuzzTest {
    private static final int[] LIMITS = {Integer.MAX_VALUE, 64 << 10, 16};

    @FuzzTest(maxDuration = "10s")
    @Timeout(FuzzSupport.INPUT_TIMEOUT_SECONDS)
    void chunked(byte[] input) throws IOException {
        if (input.length == 0) {
            return;
        }
        int limit = LIMITS[(input[0] & 0xFF) % LIMITS.length];
        int step = 1 + ((input[0] & 0xFF) >> 2);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        boolean expectOverLimit = false;
        boolean expectCut = false;
        int p = 1;
        while (p < input.length) {
            if (p + 4 > input.length) {
                expectCut = true;
                break;
            }
            long size = (input[p] & 0xFFL) | (input[p + 1] & 0xFFL) << 8 | (input[p + 2] & 0xFFL) << 16
                    | (input[p + 3] & 0xFFL) << 24;
            p += 4;
            if (size > limit) {
                expectOverLimit = true;
                break;
            }
            int n = (int) Math.min(size, input.length - p);
            expected.write(input, p, n);
            p += n;
            if (n < size) {
                break; // the payload is cut: the reader sees the end of the stream inside it
            }
        }
        ChunkedInputStream chunks = new ChunkedInputStream(new ByteArrayInputStream(input, 1, input.length - 1), limit);
        BinaryReader r = new BinaryReader(chunks, 64, 1 << 20);
        ByteArrayOutputStream actual = new ByteArrayOutputStream();
        byte[] buf = new byte[step];
        Throwable end = null;
        try {
            while (true) {
                r.readFully(buf, 0, 1);
                actual.write(buf, 0, 1);
                int n = Math.min(step, r.buffered());
                if (n > 0) {
                    r.readFully(buf, 0, n);
                    actual.write(buf, 0, n);
                }
            }
        } catch (ClickHouseProtocolException | EOFException e) {
            end = e;
        }
        if (expectOverLimit != (end instanceof ClickHouseProtocolException)) {
            throw new AssertionError("chunk over the limit " + limit + " expected: " + expectOverLimit + ", got " + end, end);
        }
        if (expectCut && !(end instanceof EOFException)) {
            throw new AssertionError("a cut chunk header must end in EOFException, got " + end, end);
        }
        byte[] want = expected.toByteArray();
        byte[] got = actual.toByteArray();
        if (!java.util.Arrays.equals(want, 0, got.length, got, 0, got.length) || (!expectOverLimit && got.length != want.length)) {
            throw new AssertionError("payload differs: " + got.length + " bytes read, " + want.length + " expected");
        }
    }
}
