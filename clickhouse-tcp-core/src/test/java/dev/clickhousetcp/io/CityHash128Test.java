package dev.clickhousetcp.io;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * CityHash128 v1.0.2 against checksums ClickHouse itself computed: every compressed frame stores
 * CityHash128 of its header and payload in its first 16 bytes (low half first). The vectors are
 * frames the 26.7 server wrote for {@code SELECT ... FORMAT RowBinary} over HTTP with
 * {@code compress=1}, and frames of native-protocol packets captured between clickhouse-client 18.16
 * and the 18.16 server; their hashed lengths cover every branch of the algorithm (8..15, 16..31 in
 * its sub-cases, 33..143, exactly 144, 145..271 with every tail size class, 272 and above).
 */
class CityHash128Test {

    static List<byte[]> httpFrames() throws IOException {
        List<byte[]> frames = new ArrayList<>();
        try (InputStream in = CityHash128Test.class.getResourceAsStream("http-lz4-frames.hex")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (!line.isBlank()) {
                    frames.add(HexFormat.of().parseHex(line.trim()));
                }
            }
        }
        return frames;
    }

    @Test
    void serverWrittenChecksumsVerify() throws IOException {
        TreeSet<Integer> lengths = new TreeSet<>();
        for (byte[] frame : httpFrames()) {
            ByteBuffer bb = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
            int size = bb.getInt(17);
            assertThat(16 + size).isEqualTo(frame.length);
            CityHash128.Hash h = CityHash128.hash(frame, 16, size);
            assertThat(h).as("frame of %d bytes", size).isEqualTo(new CityHash128.Hash(bb.getLong(0), bb.getLong(8)));
            lengths.add(size);
        }
        assertThat(lengths).contains(11, 16, 20, 26, 32, 33, 144, 272).hasSizeGreaterThan(25);
        assertThat(lengths.last()).isGreaterThan(400);
    }

    @Test
    void hashOfASubrangeIgnoresTheRest() throws IOException {
        byte[] frame = httpFrames().get(20);
        int size = frame.length - 16;
        byte[] padded = new byte[frame.length + 64];
        java.util.Arrays.fill(padded, (byte) 0x5A);
        System.arraycopy(frame, 16, padded, 33, size);
        assertThat(CityHash128.hash(padded, 33, size)).isEqualTo(CityHash128.hash(frame, 16, size));
    }

    @Test
    void shortInputsAreStableAndDistinct() {
        // no frame is shorter than its 9-byte header, so no server vector exists below 9 bytes; the
        // code those lengths run (the seeded short-input path, 0..3 and 4..7 byte cases) is the one
        // frames of 16..23 bytes run after their first 16 bytes, verified above
        byte[] data = "abcdefghijklmnop".getBytes(StandardCharsets.US_ASCII);
        TreeSet<String> seen = new TreeSet<>();
        for (int len = 0; len <= data.length; len++) {
            assertThat(seen.add(CityHash128.hash(data, 0, len).toString())).isTrue();
        }
        assertThat(CityHash128.hash(new byte[0], 0, 0)).isEqualTo(CityHash128.hash(new byte[5], 2, 0));
    }

    @Test
    void rejectsRangesOutsideTheArray() {
        assertThatThrownBy(() -> CityHash128.hash(new byte[4], 2, 3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> CityHash128.hash(new byte[4], -1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void hexFormIsHighThenLow() {
        assertThat(new CityHash128.Hash(1, 2).toString()).isEqualTo("0000000000000002" + "0000000000000001");
    }
}
