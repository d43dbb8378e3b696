package dev.clickhousetcp.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * A {@link Transport} over bytes in memory: reads return the given server bytes and then the end of
 * the stream (as a server that closed the connection); writes go to {@link #sent()} (at most
 * {@code maxSent} bytes are kept). With {@link ClickHouseConnection#handshake} it runs the real
 * handshake and response decoding without a socket, for fuzzing and for replaying captured streams.
 * Single-threaded.
 */
final class InMemoryTransport extends Transport {
    private final byte[] server;
    private final int maxSent;
    private final ByteArrayOutputStream sent = new ByteArrayOutputStream();
    private int pos;
    private boolean closed;

    InMemoryTransport(byte[] server, int maxSent) {
        super(null, null, null, "in-memory");
        this.server = server;
        this.maxSent = maxSent;
    }

    /** The client's bytes written so far (the first {@code maxSent}). */
    byte[] sent() {
        return sent.toByteArray();
    }

    /** Whether the connection closed its transport. */
    boolean closed() {
        return closed;
    }

    @Override
    long received() {
        return pos;
    }

    @Override
    int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (pos >= server.length) {
            return -1;
        }
        int n = Math.min(len, server.length - pos);
        System.arraycopy(server, pos, b, off, n);
        pos += n;
        return n;
    }

    @Override
    void write(byte[] b, int off, int len) {
        int keep = Math.min(len, maxSent - sent.size());
        if (keep > 0) {
            sent.write(b, off, keep);
        }
    }

    @Override
    boolean idleCheckFails() {
        return pos < server.length;
    }

    @Override
    void shutdownOutputFromAnotherThread() {
        closed = true;
    }

    @Override
    void closeGracefully() {
        closed = true;
    }
}
