package dev.clickhousetcp.io;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.fuzz.FuzzSupport;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Findings of {@link CompressedFrameFuzzTest}, replayed with explicit expectations. */
class FrameFuzzFindingsTest {

    /**
     * crash-f6e4a773...: a ZSTD frame with a valid checksum whose payload zstd-jni rejects by throwing
     * {@code ZstdException} ("Data corruption detected") instead of returning an error code escaped
     * as that unchecked exception; it is a {@link ClickHouseProtocolException} now.
     */
    @Test
    void aZstdPayloadThatZstdRejectsByThrowingIsAProtocolError() {
        FramedReader reader = replay("crash-f6e4a773a5d4ab8b5c4c94468efe1bcbdac96c6b");
        assertThatThrownBy(() -> reader.reader().skip(Long.MAX_VALUE))
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("corrupt ZSTD frame");
    }

    /**
     * crash-38d2bdb0...: a frame with an empty payload (9 bytes, header only) arriving while the frame
     * buffer was still empty threw {@code ArrayIndexOutOfBoundsException} when the header was copied in;
     * an empty frame is valid and yields no bytes.
     */
    @Test
    void anEmptyFrameFirstIsSkipped() throws Exception {
        FramedReader reader = reader(concat(frame(new byte[0]), frame(new byte[] {42})));
        assertThat(reader.reader().readUInt8()).isEqualTo(42);
    }

    @Test
    void theFoundInputEndsTyped() {
        FramedReader reader = replay("crash-38d2bdb039c4d6ca25f2933f8c5ead5b2bdf06a6");
        assertThatThrownBy(() -> reader.reader().skip(Long.MAX_VALUE))
                .isInstanceOfAny(ClickHouseProtocolException.class, java.io.EOFException.class);
    }

    /** A reader over a crash input of the target, read as the target reads it (flag byte, then frames). */
    private FramedReader replay(String crash) {
        byte[] input = FuzzSupport.resource(getClass(), "CompressedFrameFuzzTestInputs/frames/" + crash);
        byte[] frames = Arrays.copyOfRange(input, 1, input.length);
        if ((input[0] & 1) != 0) {
            CompressedFrameFuzzTest.fixChecksums(frames);
        }
        return reader(frames);
    }

    private static FramedReader reader(byte[] frames) {
        DataInputStream src = new DataInputStream(new ByteArrayInputStream(frames));
        return new FramedReader(src::readFully, 4096, 1 << 20, 128 << 20);
    }

    /** One uncompressed (NONE, 0x02) frame: checksum, method, sizes, payload; per ClickHouse CompressedReadBufferBase. */
    private static byte[] frame(byte[] payload) {
        byte[] body = new byte[9 + payload.length];
        body[0] = 0x02;
        java.nio.ByteBuffer.wrap(body, 1, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .putInt(body.length).putInt(payload.length);
        System.arraycopy(payload, 0, body, 9, payload.length);
        CityHash128.Hash h = CityHash128.hash(body, 0, body.length);
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(16 + body.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        out.putLong(h.low()).putLong(h.high()).put(body);
        return out.array();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
