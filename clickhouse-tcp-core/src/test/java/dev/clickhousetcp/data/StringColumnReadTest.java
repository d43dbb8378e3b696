package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The String column reader over every way a value can meet the reader's buffer: wholly buffered, a
 * multi-byte length prefix or the bytes split across refills, values longer than the buffer, empty
 * values, the column outgrowing its first arrays; and its limits.
 */
class StringColumnReadTest {

    private static byte[] wire(List<byte[]> values) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        BinaryWriter w = new BinaryWriter(bos, 1 << 16);
        for (byte[] v : values) {
            w.writeVarUInt(v.length);
            w.writeBytes(v, 0, v.length);
        }
        w.flush();
        return bos.toByteArray();
    }

    /** A stream handing out at most {@code step} bytes per read, so refills fall anywhere. */
    private static InputStream trickle(byte[] bytes, int step) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, step));
            }
        };
    }

    private static List<byte[]> values(long seed, int rows) {
        Random r = new Random(seed);
        List<byte[]> values = new ArrayList<>();
        int[] lengths = {0, 1, 5, 127, 128, 129, 300, 16_383, 16_384, 70_000};
        for (int i = 0; i < rows; i++) {
            int len = r.nextInt(4) == 0 ? lengths[r.nextInt(lengths.length)] : r.nextInt(20);
            byte[] v = new byte[len];
            r.nextBytes(v);
            values.add(v);
        }
        return values;
    }

    private static void assertColumn(ReadContext.StringData s, List<byte[]> values) {
        int start = 0;
        for (int i = 0; i < values.size(); i++) {
            byte[] v = values.get(i);
            assertThat(s.offsets()[i] - start).as("length of row %d", i).isEqualTo(v.length);
            byte[] got = new byte[v.length];
            System.arraycopy(s.data(), start, got, 0, v.length);
            assertThat(got).as("row %d", i).isEqualTo(v);
            start = s.offsets()[i];
        }
    }

    @Test
    void everySplitOfPrefixesAndBytesReadsBackTheValues() throws IOException {
        for (int bufferSize : new int[] {16, 100, 4096, 65_536}) {
            for (int step : new int[] {1, 3, 7, 1000, Integer.MAX_VALUE}) {
                List<byte[]> values = values(bufferSize * 31L + step, 2_000);
                byte[] wire = wire(values);
                BinaryReader in = new BinaryReader(trickle(wire, step), bufferSize, 1 << 20);
                ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, 54483, null);
                ReadContext.StringData s = ctx.readStringColumn(in, values.size(), Integer.MAX_VALUE);
                assertColumn(s, values);
                assertThat(in.bytesRead()).isEqualTo(wire.length);
            }
        }
    }

    @Test
    void manyShortValuesOutgrowTheFirstArrays() throws IOException {
        int rows = ReadContext.FIRST_INTS + 1000;
        List<byte[]> values = new ArrayList<>(rows);
        for (int i = 0; i < rows; i++) {
            values.add(Integer.toString(i * 7919).getBytes(StandardCharsets.US_ASCII));
        }
        BinaryReader in = new BinaryReader(new ByteArrayInputStream(wire(values)), 1 << 16, 1 << 20);
        ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, 54483, new BufferPool(64L << 20));
        assertColumn(ctx.readStringColumn(in, rows, Integer.MAX_VALUE), values);
    }

    @Test
    void aValueOverTheStringLimitIsRejectedWhetherBufferedOrNot() throws IOException {
        List<byte[]> values = List.of(new byte[3], new byte[200], new byte[3]);
        for (int step : new int[] {1, Integer.MAX_VALUE}) {
            BinaryReader in = new BinaryReader(trickle(wire(values), step), 4096, 100);
            ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, 54483, null);
            assertThatThrownBy(() -> ctx.readStringColumn(in, 3, Integer.MAX_VALUE))
                    .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("string length 200");
        }
    }

    @Test
    void aColumnOverItsByteLimitIsRejected() throws IOException {
        List<byte[]> values = List.of(new byte[40], new byte[40], new byte[40]);
        BinaryReader in = new BinaryReader(new ByteArrayInputStream(wire(values)), 4096, 1 << 20);
        ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, 54483, null);
        assertThatThrownBy(() -> ctx.readStringColumn(in, 3, 100))
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("exceeds 100 bytes");
    }

    @Test
    void anOverlongOrHugeLengthPrefixFallsToTheCheckedPath() {
        // 11 continuation bytes: longer than any VarUInt; then 2^63 as a length
        byte[] overlong = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0};
        byte[] huge = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, (byte) 0x80, 1};
        for (byte[] wire : new byte[][] {overlong, huge}) {
            BinaryReader in = new BinaryReader(new ByteArrayInputStream(wire), 4096, 1 << 20);
            ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, 54483, null);
            assertThatThrownBy(() -> ctx.readStringColumn(in, 1, Integer.MAX_VALUE))
                    .isInstanceOf(ClickHouseProtocolException.class);
        }
    }
}
