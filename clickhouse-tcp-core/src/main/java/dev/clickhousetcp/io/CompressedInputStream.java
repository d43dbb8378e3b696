package dev.clickhousetcp.io;

import com.github.luben.zstd.Zstd;
import dev.clickhousetcp.ClickHouseProtocolException;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The decompressed bytes of a sequence of ClickHouse compressed frames, per ClickHouse
 * {@code CompressedReadBufferBase} and NativeFormat.mdx "Compression frame":
 * {@code [UInt64 LE checksum low][UInt64 LE checksum high][UInt8 method][UInt32 LE compressed size,
 * including these 9 header bytes][UInt32 LE decompressed size][payload]}, where the checksum is
 * {@link CityHash128} (v1.0.2) over the header and payload.
 *
 * <p>Frames are pulled from the {@link Source} one at a time and only when a read needs more bytes
 * than the current frame has left, so a reader that stops at the end of a block (the sender always
 * ends a block at a frame boundary) never consumes the next packet. Every frame's checksum is
 * verified before it is decompressed; a mismatch, an unknown method byte, a size outside
 * {@code maxFrameBytes} or a payload that does not decompress to the declared size is a
 * {@link ClickHouseProtocolException} (the connection must then be discarded). Sizes are checked
 * before any buffer is allocated.
 *
 * <p>The compressed and decompressed buffers are kept and reused for later frames (one stream per
 * connection), so steady-state reading allocates nothing per frame. Not thread-safe.
 */
public final class CompressedInputStream extends InputStream {
    /** Bytes of the checksum that precedes every frame. */
    public static final int CHECKSUM_BYTES = 16;
    /** Bytes of the method, compressed-size and decompressed-size header. */
    public static final int HEADER_BYTES = 9;
    /** Buffers larger than this are not kept once their frame is consumed. */
    private static final int RETAIN_LIMIT = 16 << 20;

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Where frames come from: must fill exactly {@code len} bytes or throw (e.g. {@code EOFException}). */
    @FunctionalInterface
    public interface Source {
        /**
         * Reads exactly {@code len} bytes of frame data into {@code dst}.
         *
         * @param dst destination array
         * @param off offset in {@code dst} of the first byte
         * @param len number of bytes to read
         * @throws IOException when reading fails or the data ends first
         */
        void readFully(byte[] dst, int off, int len) throws IOException;
    }

    private final int maxFrameBytes;
    private final byte[] head = new byte[CHECKSUM_BYTES + HEADER_BYTES];
    private Source source;
    private byte[] compressed = new byte[0];
    private byte[] decompressed = new byte[0];
    private byte[] data = decompressed;
    private int pos;
    private int limit;
    private long frames;
    private long compressedBytes;
    private long decompressedBytes;

    /**
     * @param source        where the frames are read from
     * @param maxFrameBytes largest decompressed size accepted for one frame (ClickHouse writes frames
     *                      of at most 1 MiB; its own reader accepts up to 1 GiB)
     */
    public CompressedInputStream(Source source, int maxFrameBytes) {
        if (maxFrameBytes < 1) {
            throw new IllegalArgumentException("maxFrameBytes must be positive");
        }
        this.source = source;
        this.maxFrameBytes = maxFrameBytes;
    }

    /**
     * Reads frames from {@code source} from now on.
     *
     * @param source where the next frames are read from
     * @throws IllegalStateException when bytes of the current frame are still unread
     */
    public void source(Source source) {
        if (pos != limit) {
            throw new IllegalStateException((limit - pos) + " bytes of a compressed frame are still unread");
        }
        this.source = source;
    }

    /**
     * Whether every byte of the frames read so far has been consumed (a block boundary).
     *
     * @return {@code true} when the next read would pull a new frame
     */
    public boolean atFrameEnd() {
        return pos == limit;
    }

    /**
     * Largest decompressed size accepted for one frame, in bytes.
     *
     * @return the limit given at construction
     */
    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /**
     * Frames read so far.
     *
     * @return the number of frames pulled from the sources since this stream was created
     */
    public long framesRead() {
        return frames;
    }

    /**
     * Bytes of frames read so far, checksums and headers included.
     *
     * @return the compressed byte count since this stream was created
     */
    public long compressedBytesRead() {
        return compressedBytes;
    }

    /**
     * Decompressed bytes produced so far.
     *
     * @return the decompressed byte count of all frames read, consumed or not
     */
    public long decompressedBytesRead() {
        return decompressedBytes;
    }

    @Override
    public int read() throws IOException {
        while (pos == limit) {
            nextFrame();
        }
        return data[pos++] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (pos == limit) {
            nextFrame();
        }
        int n = Math.min(len, limit - pos);
        System.arraycopy(data, pos, b, off, n);
        pos += n;
        return n;
    }

    /** Bytes left in the current frame; never pulls a frame. */
    @Override
    public int available() {
        return limit - pos;
    }

    private void nextFrame() throws IOException {
        releaseLarge();
        source.readFully(head, 0, head.length);
        long expectedLow = (long) LONG.get(head, 0);
        long expectedHigh = (long) LONG.get(head, 8);
        int methodByte = head[CHECKSUM_BYTES] & 0xFF;
        long compressedSize = ((int) INT.get(head, CHECKSUM_BYTES + 1)) & 0xFFFFFFFFL;
        long decompressedSize = ((int) INT.get(head, CHECKSUM_BYTES + 5)) & 0xFFFFFFFFL;
        CompressionMethod method = CompressionMethod.ofCode(methodByte);
        if (method == null) {
            throw new ClickHouseProtocolException(String.format(
                    "unsupported compression method byte 0x%02x in a compressed frame", methodByte));
        }
        if (decompressedSize > maxFrameBytes) {
            throw new ClickHouseProtocolException("compressed frame declares " + decompressedSize
                    + " decompressed bytes, over the limit of " + maxFrameBytes);
        }
        long maxCompressed = (long) maxFrameBytes + maxFrameBytes / 255 + 1024 + HEADER_BYTES;
        if (compressedSize < HEADER_BYTES || compressedSize > maxCompressed) {
            throw new ClickHouseProtocolException("compressed frame declares " + compressedSize
                    + " compressed bytes (header included), outside " + HEADER_BYTES + ".." + maxCompressed);
        }
        int csize = (int) compressedSize;
        int usize = (int) decompressedSize;
        if (method == CompressionMethod.NONE && usize != csize - HEADER_BYTES) {
            throw new ClickHouseProtocolException("uncompressed frame declares " + usize + " bytes but carries "
                    + (csize - HEADER_BYTES));
        }
        long maxExpanded = maxDecompressed(method, csize - HEADER_BYTES);
        if (decompressedSize > maxExpanded) {
            throw new ClickHouseProtocolException("compressed frame declares " + decompressedSize
                    + " decompressed bytes, more than " + method + " can expand its " + (csize - HEADER_BYTES)
                    + " compressed bytes to (" + maxExpanded + ")");
        }
        // the compressed buffer grows as the frame's bytes arrive (power-of-two steps, see grow), so a
        // size the stream does not back commits at most twice what was received
        if (compressed.length < HEADER_BYTES) { // the header is copied in below, also for an empty payload
            compressed = new byte[grow(compressed.length, HEADER_BYTES)];
        }
        int got = HEADER_BYTES;
        while (got < csize) {
            if (compressed.length <= got) {
                compressed = java.util.Arrays.copyOf(compressed, grow(compressed.length, Math.min(csize,
                        Math.max(got + 1, 2 * got))));
            }
            int k = Math.min(csize, compressed.length) - got;
            source.readFully(compressed, got, k);
            got += k;
        }
        System.arraycopy(head, CHECKSUM_BYTES, compressed, 0, HEADER_BYTES);
        CityHash128.Hash actual = CityHash128.hash(compressed, 0, csize);
        if (actual.low() != expectedLow || actual.high() != expectedHigh) {
            throw new ClickHouseProtocolException("checksum mismatch in a compressed frame of " + csize
                    + " bytes: expected " + new CityHash128.Hash(expectedLow, expectedHigh) + ", computed " + actual
                    + " (corrupted data)");
        }
        frames++;
        compressedBytes += CHECKSUM_BYTES + csize;
        decompressedBytes += usize;
        switch (method) {
            case NONE -> {
                data = compressed;
                pos = HEADER_BYTES;
                limit = csize;
            }
            case LZ4 -> {
                ensureDecompressed(usize);
                int n;
                try {
                    n = Lz4.DECOMPRESSOR.decompress(compressed, HEADER_BYTES, csize - HEADER_BYTES, decompressed, 0, usize);
                } catch (LZ4Exception e) {
                    throw new ClickHouseProtocolException("corrupt LZ4 frame: " + e.getMessage(), e);
                }
                checkSize(n, usize, "LZ4");
                data = decompressed;
                pos = 0;
                limit = usize;
            }
            case ZSTD -> {
                ensureDecompressed(usize);
                long n;
                try {
                    n = Zstd.decompressByteArray(decompressed, 0, usize, compressed, HEADER_BYTES, csize - HEADER_BYTES);
                } catch (RuntimeException e) { // zstd-jni reports some corruptions as ZstdException
                    throw new ClickHouseProtocolException("corrupt ZSTD frame: " + e.getMessage(), e);
                }
                if (Zstd.isError(n)) {
                    throw new ClickHouseProtocolException("corrupt ZSTD frame: " + Zstd.getErrorName(n));
                }
                checkSize(n, usize, "ZSTD");
                data = decompressed;
                pos = 0;
                limit = usize;
            }
            default -> throw new AssertionError(method);
        }
    }

    /**
     * The most bytes {@code method} can decompress {@code payload} compressed bytes to. LZ4: a
     * sequence's literal and match lengths grow by at most 255 per byte of length field, so one
     * compressed byte yields at most 255 decompressed bytes (LZ4 block format, "Block format" in the
     * lz4 repository's doc/lz4_Block_format.md); we allow 256 per byte plus a small constant. ZSTD: an
     * RLE block of a 3-byte header and one byte yields at most a 128 KiB block (RFC 8878, 3.1.1.2), so
     * 32,768 bytes per compressed byte plus one block. NONE: the payload itself (checked above).
     */
    static long maxDecompressed(CompressionMethod method, long payload) {
        return switch (method) {
            case LZ4 -> payload * 256 + 64;
            case ZSTD -> payload * 32_768 + (1 << 17);
            default -> payload;
        };
    }

    private static void checkSize(long actual, int declared, String what) {
        if (actual != declared) {
            throw new ClickHouseProtocolException(what + " frame decompressed to " + actual + " bytes, its header declares "
                    + declared);
        }
    }

    private void ensureDecompressed(int n) {
        if (decompressed.length < n) {
            decompressed = new byte[grow(decompressed.length, n)];
        }
    }

    /** Drops buffers grown past {@link #RETAIN_LIMIT} by an unusually large frame. */
    private void releaseLarge() {
        if (compressed.length > RETAIN_LIMIT) {
            compressed = new byte[0];
        }
        if (decompressed.length > RETAIN_LIMIT) {
            decompressed = new byte[0];
        }
        data = decompressed;
        pos = 0;
        limit = 0;
    }

    private static int grow(int current, int needed) {
        // power-of-two steps up to 1 MiB (the size ClickHouse writes), exact beyond
        int n = Math.max(current, 4096);
        while (n < needed && n < (1 << 20)) {
            n <<= 1;
        }
        return Math.max(n, needed);
    }

    /** Shared LZ4 instances: the fastest available implementation of the bounds-checked decoder. */
    static final class Lz4 {
        static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
        static final LZ4SafeDecompressor DECOMPRESSOR = FACTORY.safeDecompressor();

        private Lz4() {
        }
    }
}
