package dev.clickhousetcp.io;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.fuzz.FuzzSupport;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.util.Arrays;

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
        byte[] input = FuzzSupport.resource(getClass(),
                "CompressedFrameFuzzTestInputs/frames/crash-f6e4a773a5d4ab8b5c4c94468efe1bcbdac96c6b");
        byte[] frames = Arrays.copyOfRange(input, 1, input.length);
        if ((input[0] & 1) != 0) {
            CompressedFrameFuzzTest.fixChecksums(frames);
        }
        DataInputStream src = new DataInputStream(new ByteArrayInputStream(frames));
        FramedReader reader = new FramedReader(src::readFully, 4096, 1 << 20, 128 << 20);
        assertThatThrownBy(() -> reader.reader().skip(Long.MAX_VALUE))
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("corrupt ZSTD frame");
    }
}
