package dev.clickhousetcp.benchmarks;

import com.github.luben.zstd.Zstd;
import dev.clickhousetcp.data.BufferPool;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import dev.clickhousetcp.io.CityHash128;
import dev.clickhousetcp.io.CompressedInputStream;
import dev.clickhousetcp.io.CompressedOutputStream;
import dev.clickhousetcp.io.CompressionMethod;
import dev.clickhousetcp.io.FramedReader;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The client-side cost of compressed frames alone, no server and no socket: the bodies of the
 * {@link CompressionBenchmark} result (1,000,000 rows of UInt64 {@code number}, String
 * {@code toString(number)}, Float64 {@code number}, as Native column bytes in blocks of 65,536 rows,
 * 22,888,890 bytes in all) are framed once in setup as ClickHouse's {@code CompressedWriteBuffer}
 * frames them (frames of at most 1 MiB, a flush at the end of every block; ZSTD at level 1), then:
 *
 * <ul>
 *   <li>{@link #read}: the frames read back through the connection's {@link FramedReader} (checksum,
 *       decompression, copies into the caller's buffer); returns the decompressed byte count;</li>
 *   <li>{@link #decode}: the same, decoded as the client decodes the block's columns (UInt64 and
 *       Float64 read whole into pooled arrays, String through {@link ReadContext#readStringColumn});
 *       returns the total string length;</li>
 *   <li>{@link #write}: the bodies written through the connection's {@link BinaryWriter} +
 *       {@link CompressedOutputStream} pair into a sink that drops them; returns the framed byte
 *       count;</li>
 *   <li>{@link #library}: only the codec library's own decompression of every frame payload into one
 *       reused buffer (lz4-java's fastest safe decompressor, zstd-jni; a plain copy for NONE), the
 *       floor under {@link #read}; returns the decompressed byte count;</li>
 *   <li>{@link #checksum}: {@link CityHash128} over every frame (the checksum part of {@link #read});
 *       returns the hashed byte count.</li>
 * </ul>
 *
 * <p>Times are in milliseconds per pass over all the bodies; the body size divided by the time is
 * the throughput in decompressed bytes (the setup prints the body and framed sizes). The setup
 * checks every arm's answer, and that a read gives back the original bytes exactly. One benchmark
 * thread: the state is not thread-safe.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class FrameCodecBenchmark {
    static final int ROWS = CompressionBenchmark.ROWS;
    static final int BLOCK_ROWS = 65_536;

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final LZ4SafeDecompressor LZ4 = LZ4Factory.fastestInstance().safeDecompressor();

    @Param({"NONE", "LZ4", "ZSTD"})
    public String codec;

    private byte[][] bodies;
    private long bodyBytes;
    private byte[] framed;
    private int[] frameStarts;
    private FramedReader reader;
    private final ArraySource source = new ArraySource();
    private final byte[] scratch = new byte[1 << 20];
    private CompressedOutputStream out;
    private BinaryWriter writer;
    private long written;
    private final BufferPool pool = new BufferPool(64L << 20);
    private final ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, 54483, pool);

    /** Frames read from a byte array, as the connection's raw reader would hand them over. */
    private static final class ArraySource implements CompressedInputStream.Source {
        byte[] data;
        int pos;

        @Override
        public void readFully(byte[] dst, int off, int len) throws IOException {
            if (len > data.length - pos) {
                throw new EOFException();
            }
            System.arraycopy(data, pos, dst, off, len);
            pos += len;
        }
    }

    @Setup
    public void setUp() throws IOException {
        bodies = bodies();
        bodyBytes = Arrays.stream(bodies).mapToLong(b -> b.length).sum();
        CompressionMethod method = CompressionMethod.valueOf(codec);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        CompressedOutputStream frames = new CompressedOutputStream(sink::write, CompressedOutputStream.DEFAULT_FRAME_BYTES);
        frames.method(method, 1);
        for (byte[] body : bodies) {
            frames.write(body, 0, body.length);
        }
        framed = sink.toByteArray();
        frameStarts = frameStarts(framed);
        reader = new FramedReader(source, 64 * 1024, Integer.MAX_VALUE, 1 << 30);
        out = new CompressedOutputStream((b, off, len) -> written += len, CompressedOutputStream.DEFAULT_FRAME_BYTES);
        out.method(method, 1);
        writer = new BinaryWriter(out, CompressedOutputStream.DEFAULT_FRAME_BYTES);
        System.out.printf("%n%s: %d body bytes in %d frames, %d bytes framed%n", codec, bodyBytes,
                frameStarts.length, framed.length);

        // the read must give back exactly the bodies
        source.data = framed;
        source.pos = 0;
        BinaryReader r = reader.reader();
        for (byte[] body : bodies) {
            byte[] back = new byte[body.length];
            r.readFully(back, 0, back.length);
            reader.checkFrameEnd("body");
            if (!Arrays.equals(body, back)) {
                throw new IllegalStateException(codec + ": frames read back differ from the bodies written");
            }
        }
        BenchmarkServer.check(codec + " read", bodyBytes, read());
        BenchmarkServer.check(codec + " decode", BenchmarkServer.digitsBelow(ROWS), decode());
        BenchmarkServer.check(codec + " write", framed.length, write());
        BenchmarkServer.check(codec + " library", bodyBytes, library());
        BenchmarkServer.check(codec + " checksum", framed.length - 16L * frameStarts.length, checksum());
    }

    /** Reads every body through the framed reader into a scratch buffer; returns the bytes read. */
    @Benchmark
    public long read() throws IOException {
        source.data = framed;
        source.pos = 0;
        BinaryReader r = reader.reader();
        long n = 0;
        for (byte[] body : bodies) {
            for (int left = body.length; left > 0; ) {
                int k = Math.min(left, scratch.length);
                r.readFully(scratch, 0, k);
                left -= k;
                n += k;
            }
            reader.checkFrameEnd("body");
        }
        return n;
    }

    /** Decodes every body as its three columns into pooled arrays; returns the total string length. */
    @Benchmark
    public long decode() throws IOException {
        source.data = framed;
        source.pos = 0;
        BinaryReader r = reader.reader();
        long stringBytes = 0;
        for (int from = 0; from < ROWS; from += BLOCK_ROWS) {
            int rows = Math.min(BLOCK_ROWS, ROWS - from);
            ctx.readDeclared(r, rows * 8);
            int[] offsets = ctx.readStringColumn(r, rows, Integer.MAX_VALUE).offsets();
            ctx.readDeclared(r, rows * 8);
            reader.checkFrameEnd("block");
            stringBytes += offsets[rows - 1];
            Lifetime block = new Lifetime("block");
            ctx.attachTo(block);
            block.release();
        }
        return stringBytes;
    }

    /** Writes every body as frames into a dropping sink; returns the framed bytes produced. */
    @Benchmark
    public long write() throws IOException {
        written = 0;
        for (byte[] body : bodies) {
            writer.writeBytes(body, 0, body.length);
            writer.flush();
        }
        return written;
    }

    /** The codec library alone: every frame payload decompressed into one reused 1 MiB buffer. */
    @Benchmark
    public long library() {
        long n = 0;
        for (int i = 0; i < frameStarts.length; i++) {
            int p = frameStarts[i];
            int csize = (int) INT.get(framed, p + 17);
            int usize = (int) INT.get(framed, p + 21);
            int payload = p + 16 + 9;
            int len = csize - 9;
            switch (codec) {
                case "NONE" -> System.arraycopy(framed, payload, scratch, 0, len);
                case "LZ4" -> LZ4.decompress(framed, payload, len, scratch, 0, usize);
                case "ZSTD" -> Zstd.decompressByteArray(scratch, 0, usize, framed, payload, len);
                default -> throw new IllegalStateException(codec);
            }
            n += usize;
        }
        return n;
    }

    /** CityHash128 of every frame (header and payload, as verified on read); returns the bytes hashed. */
    @Benchmark
    public long checksum() {
        long n = 0;
        long mix = 0;
        for (int i = 0; i < frameStarts.length; i++) {
            int start = frameStarts[i] + 16;
            int end = i + 1 < frameStarts.length ? frameStarts[i + 1] : framed.length;
            CityHash128.Hash h = CityHash128.hash(framed, start, end - start);
            mix ^= h.low();
            n += end - start;
        }
        return mix == 42 ? -1 : n; // keeps the hash live; a collision with 42 would fail the setup check
    }

    private static int[] frameStarts(byte[] framed) {
        int[] starts = new int[64];
        int count = 0;
        for (int p = 0; p < framed.length; ) {
            if (count == starts.length) {
                starts = Arrays.copyOf(starts, count * 2);
            }
            starts[count++] = p;
            p += 16 + (int) INT.get(framed, p + 17);
        }
        return Arrays.copyOf(starts, count);
    }

    /** The Native column bytes of each block: UInt64 ids, String names, Float64 values. */
    private static byte[][] bodies() {
        int blocks = (ROWS + BLOCK_ROWS - 1) / BLOCK_ROWS;
        byte[][] result = new byte[blocks][];
        try {
            for (int b = 0; b < blocks; b++) {
                int from = b * BLOCK_ROWS;
                int to = Math.min(ROWS, from + BLOCK_ROWS);
                ByteArrayOutputStream bos = new ByteArrayOutputStream();
                BinaryWriter w = new BinaryWriter(bos, 1 << 16);
                for (int i = from; i < to; i++) {
                    w.writeInt64(i);
                }
                for (int i = from; i < to; i++) {
                    byte[] s = Integer.toString(i).getBytes(StandardCharsets.US_ASCII);
                    w.writeVarUInt(s.length);
                    w.writeBytes(s, 0, s.length);
                }
                for (int i = from; i < to; i++) {
                    w.writeInt64(Double.doubleToRawLongBits(i));
                }
                w.flush();
                result[b] = bos.toByteArray();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return result;
    }
}
