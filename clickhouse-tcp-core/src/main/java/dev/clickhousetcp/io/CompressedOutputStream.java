package dev.clickhousetcp.io;

import com.github.luben.zstd.Zstd;
import net.jpountz.lz4.LZ4Compressor;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Writes bytes as ClickHouse compressed frames, per ClickHouse {@code CompressedWriteBuffer} and
 * NativeFormat.mdx "Compression frame": each {@link #write(byte[], int, int)} call becomes one frame
 * (split into several when longer than {@link #maxFrameBytes()}),
 * {@code [CityHash128 low, high: 2 x UInt64 LE][UInt8 method][UInt32 LE size incl. 9-byte header]
 * [UInt32 LE decompressed size][payload]}, handed to the {@link Sink} in one call.
 *
 * <p>Put a {@link BinaryWriter} whose buffer is {@code maxFrameBytes} in front of it to get frames of
 * that size, as ClickHouse's own writers do (1 MiB). Buffering is the caller's: this stream holds no
 * pending bytes, and {@link #flush()} does nothing (in particular it does not flush the sink, so a
 * packet's frames and envelope can end as one packet). The frame buffer is reused across frames.
 * LZ4 uses {@code LZ4_compress_default} semantics (lz4-java's fast compressor), ZSTD the level
 * given. Not thread-safe.
 */
public final class CompressedOutputStream extends OutputStream {
    /** Frame size ClickHouse writes ({@code DBMS_DEFAULT_BUFFER_SIZE}, 1 MiB). */
    public static final int DEFAULT_FRAME_BYTES = 1 << 20;

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int PREFIX = CompressedInputStream.CHECKSUM_BYTES + CompressedInputStream.HEADER_BYTES;

    /** Where finished frames go (e.g. {@code BinaryWriter::writeBytes} of the connection). */
    @FunctionalInterface
    public interface Sink {
        /**
         * Takes one finished frame, checksum and header included.
         *
         * @param b   array holding the frame; reused by the stream once this call returns
         * @param off offset of the frame's first byte in {@code b}
         * @param len the frame's length in bytes
         * @throws IOException when the frame cannot be written
         */
        void write(byte[] b, int off, int len) throws IOException;
    }

    private final Sink sink;
    private final int maxFrameBytes;
    private CompressionMethod method = CompressionMethod.LZ4;
    private int level = 1;
    private byte[] frame = new byte[0];
    private long frames;
    private long bytesIn;
    private long bytesOut;

    /**
     * @param sink          receives each finished frame
     * @param maxFrameBytes largest payload, before compression, of one frame
     */
    public CompressedOutputStream(Sink sink, int maxFrameBytes) {
        if (maxFrameBytes < 1) {
            throw new IllegalArgumentException("maxFrameBytes must be positive");
        }
        this.sink = sink;
        this.maxFrameBytes = maxFrameBytes;
    }

    /**
     * Selects the method for the frames written from now on.
     *
     * @param method the compression method; not {@code null}
     * @param level ZSTD level (ignored by the other methods)
     * @throws NullPointerException when {@code method} is {@code null}
     */
    public void method(CompressionMethod method, int level) {
        this.method = java.util.Objects.requireNonNull(method);
        this.level = level;
    }

    /**
     * The method of the frames written from now on.
     *
     * @return the method last selected, {@link CompressionMethod#LZ4} until then
     */
    public CompressionMethod method() {
        return method;
    }

    /**
     * Largest payload, before compression, of one frame; longer writes are split.
     *
     * @return the limit given at construction, in bytes
     */
    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /**
     * Frames written so far.
     *
     * @return the number of frames handed to the sink since this stream was created
     */
    public long framesWritten() {
        return frames;
    }

    /**
     * Bytes handed in so far (before compression).
     *
     * @return the uncompressed byte count since this stream was created
     */
    public long uncompressedBytesWritten() {
        return bytesIn;
    }

    /**
     * Bytes of frames handed to the sink so far, checksums and headers included.
     *
     * @return the compressed byte count since this stream was created
     */
    public long compressedBytesWritten() {
        return bytesOut;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        while (len > 0) {
            int n = Math.min(len, maxFrameBytes);
            writeFrame(b, off, n);
            off += n;
            len -= n;
        }
    }

    private void writeFrame(byte[] b, int off, int len) throws IOException {
        int bound = switch (method) {
            case NONE -> len;
            case LZ4 -> Lz4Compressor.INSTANCE.maxCompressedLength(len);
            case ZSTD -> (int) Math.min(Integer.MAX_VALUE - PREFIX, Zstd.compressBound(len));
        };
        if (frame.length < PREFIX + bound) {
            frame = new byte[PREFIX + bound];
        }
        int payload;
        switch (method) {
            case NONE -> {
                System.arraycopy(b, off, frame, PREFIX, len);
                payload = len;
            }
            case LZ4 -> payload = Lz4Compressor.INSTANCE.compress(b, off, len, frame, PREFIX, bound);
            case ZSTD -> {
                long r = Zstd.compressByteArray(frame, PREFIX, bound, b, off, len, level);
                if (Zstd.isError(r)) {
                    throw new IOException("ZSTD compression failed: " + Zstd.getErrorName(r));
                }
                payload = (int) r;
            }
            default -> throw new AssertionError(method);
        }
        int size = CompressedInputStream.HEADER_BYTES + payload;
        int h = CompressedInputStream.CHECKSUM_BYTES;
        frame[h] = (byte) method.code();
        INT.set(frame, h + 1, size);
        INT.set(frame, h + 5, len);
        CityHash128.Hash sum = CityHash128.hash(frame, h, size);
        LONG.set(frame, 0, sum.low());
        LONG.set(frame, 8, sum.high());
        sink.write(frame, 0, h + size);
        frames++;
        bytesIn += len;
        bytesOut += h + size;
    }

    /** Does nothing: every write is already a finished frame, and the sink is flushed by its owner. */
    @Override
    public void flush() {
        // frames are handed to the sink as they are made
    }

    private static final class Lz4Compressor {
        static final LZ4Compressor INSTANCE = CompressedInputStream.Lz4.FACTORY.fastCompressor();

        private Lz4Compressor() {
        }
    }
}
