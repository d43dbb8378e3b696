package dev.clickhousetcp.io;

import dev.clickhousetcp.ClickHouseProtocolException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BinaryCodecTest {

    @Test
    void varUIntGoldenBytes() throws IOException {
        // per NativeFormat.mdx: 300 = AC 02
        assertThat(write(w -> w.writeVarUInt(300))).containsExactly(0xAC, 0x02);
        assertThat(write(w -> w.writeVarUInt(0))).containsExactly(0);
        assertThat(write(w -> w.writeVarUInt(127))).containsExactly(0x7F);
        assertThat(write(w -> w.writeVarUInt(-1L))).hasSize(10);
        for (long v : new long[] {0, 1, 127, 128, 16383, 16384, 1L << 40, Long.MAX_VALUE, -1L}) {
            byte[] b = toBytes(write(w -> w.writeVarUInt(v)));
            assertThat(reader(b).readVarUInt()).isEqualTo(v);
        }
    }

    @Test
    void stringsAndFixedWidth() throws IOException {
        byte[] b = toBytes(write(w -> {
            w.writeString("ab");
            w.writeInt32(-1);
            w.writeInt64(0x0102030405060708L);
            w.writeString("ü");
        }));
        assertThat(b[0]).isEqualTo((byte) 2);
        BinaryReader r = reader(b);
        assertThat(r.readString()).isEqualTo("ab");
        assertThat(r.readInt32()).isEqualTo(-1);
        assertThat(r.readInt64()).isEqualTo(0x0102030405060708L);
        assertThat(r.readString()).isEqualTo("ü");
    }

    @Test
    void oversizedStringIsRejectedBeforeAllocation() throws IOException {
        byte[] b = toBytes(write(w -> w.writeVarUInt(1L << 40)));
        assertThatThrownBy(() -> new BinaryReader(new ByteArrayInputStream(b), 1024, 1 << 20).readString())
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("exceeds the limit");
    }

    @Test
    void overlongVarUIntIsRejected() {
        byte[] b = new byte[12];
        java.util.Arrays.fill(b, (byte) 0x80);
        assertThatThrownBy(() -> reader(b).readVarUInt()).isInstanceOf(ClickHouseProtocolException.class);
    }

    @Test
    void chunkedFramingRoundTrip() throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        BinaryWriter w = new BinaryWriter(bos, 1024);
        w.setChunked(true);
        byte[] big = new byte[3000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) i;
        }
        w.writeVarUInt(4); // a Ping
        w.flush();
        w.writeStringBytes(big); // spans several 1 KiB chunks
        w.flush();
        byte[] wire = bos.toByteArray();
        // Ping becomes [01 00 00 00][04][00 00 00 00]
        assertThat(java.util.Arrays.copyOf(wire, 9)).containsExactly(1, 0, 0, 0, 4, 0, 0, 0, 0);
        BinaryReader r = new BinaryReader(new ChunkedInputStream(new ByteArrayInputStream(wire), 1 << 20), 256, 1 << 20);
        assertThat(r.readVarUInt()).isEqualTo(4);
        assertThat(r.readStringBytes()).isEqualTo(big);
    }

    @Test
    void truncatedInputIsAnEof() {
        assertThatThrownBy(() -> reader(new byte[] {5, 'a'}).readString()).isInstanceOf(java.io.EOFException.class);
    }

    interface Body {
        void write(BinaryWriter w) throws IOException;
    }

    static int[] write(Body body) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        BinaryWriter w = new BinaryWriter(bos, 64);
        body.write(w);
        w.flush();
        byte[] b = bos.toByteArray();
        int[] out = new int[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = b[i] & 0xFF;
        }
        return out;
    }

    static byte[] toBytes(int[] a) {
        byte[] b = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = (byte) a[i];
        }
        return b;
    }

    /**
     * A run of bytes at least as long as the writer's buffer goes to the stream in one write after the
     * buffered bytes (no copy through the buffer); shorter runs are buffered; the bytes and their order
     * are the same either way, and chunked framing still copies (each chunk needs its header).
     */
    @Test
    void longRunsBypassTheBufferInOrder() throws IOException {
        List<Integer> writes = new ArrayList<>();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream() {
            @Override
            public synchronized void write(byte[] b, int off, int len) {
                writes.add(len);
                super.write(b, off, len);
            }
        };
        BinaryWriter w = new BinaryWriter(bytes, 16);
        byte[] big = new byte[40];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i + 1);
        }
        w.writeBytes(new byte[] {-1, -2, -3}, 0, 3);
        w.writeBytes(big, 0, big.length);
        w.writeBytes(big, 0, 16); // exactly the buffer's size: direct too
        w.writeBytes(new byte[] {-4}, 0, 1);
        assertThat(w.bytesWritten()).isEqualTo(3 + 40 + 16 + 1);
        w.flush();
        assertThat(writes).containsExactly(3, 40, 16, 1);
        byte[] expected = new byte[3 + 40 + 16 + 1];
        expected[0] = -1;
        expected[1] = -2;
        expected[2] = -3;
        System.arraycopy(big, 0, expected, 3, 40);
        System.arraycopy(big, 0, expected, 43, 16);
        expected[59] = -4;
        assertThat(bytes.toByteArray()).containsExactly(expected);

        writes.clear();
        bytes.reset();
        BinaryWriter chunked = new BinaryWriter(bytes, 16);
        chunked.setChunked(true);
        chunked.writeBytes(big, 0, big.length);
        chunked.flush();
        // 16 + 16 + 8 bytes of payload, each chunk behind its 4-byte size, then the terminator
        assertThat(writes).containsExactly(4, 16, 4, 16, 4, 8, 4);
    }

    static BinaryReader reader(byte[] b) {
        return new BinaryReader(new ByteArrayInputStream(b), 16, 1 << 20);
    }
}
