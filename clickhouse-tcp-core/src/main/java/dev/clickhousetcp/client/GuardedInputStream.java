package dev.clickhousetcp.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;

/**
 * The socket input of a connection, read in short polls so that a blocked read can notice, without
 * another thread touching the socket: a cancel request, a thread interrupt, the total query
 * deadline, and the configured silence limit (socket timeout measured as time without any bytes).
 *
 * <p>On a cancel request, an interrupt or a passed query deadline it asks the connection to send the
 * Cancel packet (from this, the reading thread, which owns the connection's writer while a response
 * is read) and keeps reading, so the response is drained to its end within the drain bound.
 */
final class GuardedInputStream extends InputStream {
    /** What the guard asks of its connection. */
    interface Guard {
        /** Called on each poll and read; returns normally or throws to abort the read. */
        void check(long silentNanos) throws IOException;
    }

    private final InputStream in;
    private final Guard guard;

    GuardedInputStream(InputStream in, Guard guard) {
        this.in = in;
        this.guard = guard;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        long start = System.nanoTime();
        guard.check(0);
        while (true) {
            try {
                return in.read(b, off, len);
            } catch (SocketTimeoutException e) {
                // a poll tick: nothing arrived yet
                guard.check(System.nanoTime() - start);
            } catch (InterruptedIOException e) {
                guard.check(System.nanoTime() - start);
            }
        }
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
