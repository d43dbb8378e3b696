package dev.clickhousetcp.io;

import dev.clickhousetcp.ClickHouseProtocolException;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Removes the native protocol's chunked framing (revision 54470+): a packet is a sequence of
 * {@code [UInt32 LE size][size bytes]} chunks ended by a zero size. Packet boundaries are
 * transparent to the reader above. Not thread-safe.
 */
public final class ChunkedInputStream extends InputStream {
    private final InputStream in;
    private final int maxChunkBytes;
    private long remaining;

    /**
     * Creates a stream that reads chunks from {@code in}.
     *
     * @param in            the raw stream (normally the socket's, buffered); closed by {@link #close()}
     * @param maxChunkBytes largest chunk size accepted, in bytes; a larger size header is a
     *                      {@link ClickHouseProtocolException}
     */
    public ChunkedInputStream(InputStream in, int maxChunkBytes) {
        this.in = in;
        this.maxChunkBytes = maxChunkBytes;
    }

    private boolean nextChunk() throws IOException {
        while (remaining == 0) {
            int b0 = in.read();
            if (b0 < 0) {
                return false;
            }
            int b1 = in.read();
            int b2 = in.read();
            int b3 = in.read();
            if ((b1 | b2 | b3) < 0) {
                throw new EOFException("connection closed inside a chunk header");
            }
            long size = (b0 | (b1 << 8) | (b2 << 16) | ((long) b3 << 24)) & 0xFFFFFFFFL;
            if (size > maxChunkBytes) {
                throw new ClickHouseProtocolException("chunk of " + size + " bytes exceeds the limit " + maxChunkBytes);
            }
            remaining = size; // 0 = end of packet marker, skipped
        }
        return true;
    }

    @Override
    public int read() throws IOException {
        if (!nextChunk()) {
            return -1;
        }
        int b = in.read();
        if (b >= 0) {
            remaining--;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!nextChunk()) {
            return -1;
        }
        int n = in.read(b, off, (int) Math.min(len, remaining));
        if (n > 0) {
            remaining -= n;
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
