package dev.clickhousetcp.client;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * The bytes between a connection and its server: a non-blocking {@link SocketChannel} waited on
 * with a {@link Selector} of its own. Blocking is done here, in short waits of at most
 * {@link Guard#pollMillis()}, between which the connection's {@link Guard} looks at the clock, cancel
 * requests and interrupts (on a virtual thread: one wait without a timeout until
 * {@link Guard#checkDueNanos(long, boolean)}, ended early by {@link SelectorWaker}, {@link #wakeUp()} or an
 * interrupt). That gives what blocking sockets cannot:
 *
 * <ul>
 *   <li>deadlines on writes as well as reads (a server that stops reading cannot hold a writer);</li>
 *   <li>interrupts that do not destroy the connection (an interrupt wakes the wait, the guard turns
 *       it into a Cancel of the query; a blocking NIO channel would be closed by the interrupt);</li>
 *   <li>a check of an idle connection without a round trip ({@link #idleCheckFails()}: one
 *       non-blocking read sees the server's FIN).</li>
 * </ul>
 *
 * <p>{@link TlsTransport} adds TLS through {@link javax.net.ssl.SSLEngine} over the same channel.
 * Single-threaded like its connection, except {@link #shutdownOutputFromAnotherThread()}.
 */
class Transport {
    /** What the connection checks whenever a wait for the socket ends. */
    interface Guard {
        /** Called before a read and after each wait for data; throws to abort the read. */
        void checkRead(long silentNanos) throws IOException;

        /** Called after each wait while a write cannot make progress; throws to abort the write. */
        void checkWrite(long stalledNanos) throws IOException;

        /** The longest one wait may take now, in milliseconds (at least 1). */
        int pollMillis();

        /**
         * When a wait that began at {@code sinceNanos} (the start of the read, or a write's last
         * progress) must end for a check at the latest: the nearest deadline or the socket timeout, as
         * a {@link System#nanoTime()} value, or {@link SelectorWaker#NEVER}. Cancel requests and interrupts
         * are not in it: they wake the wait themselves. Used by virtual threads, whose waits have no
         * timeout ({@link SelectorWaker}). Once that time has passed, the check after the wait must act
         * (throw, or move on so that the next due time is later).
         *
         * @param write whether the wait is a write's (checked by {@link #checkWrite}) or a read's
         */
        long checkDueNanos(long sinceNanos, boolean write);
    }

    /** How long a graceful close reads what the server still sends before it closes anyway. */
    static final long CLOSE_DRAIN_NANOS = TimeUnit.SECONDS.toNanos(2);

    final SocketChannel channel;
    private final Selector selector;
    private final SelectionKey key;
    private final SelectorWaker.Wait wait;
    private final String where;
    private Guard guard;
    private long received;
    private final ByteBuffer probe = ByteBuffer.allocate(1);
    private final InputStream in = new InputStream() {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return Transport.this.read(b, off, len);
        }
    };
    private final OutputStream out = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            Transport.this.write(b, off, len);
        }
    };

    Transport(SocketChannel channel, Selector selector, SelectionKey key, String where) {
        this.channel = channel;
        this.selector = selector;
        this.key = key;
        this.wait = new SelectorWaker.Wait(selector);
        this.where = where;
    }

    /** A transport over the same channel (for a layer such as TLS on top of a connected one). */
    Transport(Transport connected) {
        this(connected.channel, connected.selector, connected.key, connected.where);
        this.received = connected.received;
    }

    /**
     * Connects to {@code host:port} within {@code budget}.
     *
     * @throws SocketTimeoutException when the budget ran out first
     * @throws IOException            when the connection is refused or the host unreachable
     */
    static Transport connect(String host, int port, Budget budget) throws IOException {
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new java.net.UnknownHostException(host);
        }
        SocketChannel ch = SocketChannel.open();
        Selector sel = null;
        try {
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            sel = Selector.open();
            SelectionKey key = ch.register(sel, 0);
            if (!ch.connect(address)) {
                key.interestOps(SelectionKey.OP_CONNECT);
                while (!ch.finishConnect()) {
                    long left = budget.remainingNanos();
                    if (left <= 0) {
                        throw new SocketTimeoutException("connect timed out");
                    }
                    sel.select(left == Long.MAX_VALUE ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                    sel.selectedKeys().clear();
                    if (Thread.currentThread().isInterrupted()) {
                        throw new java.io.InterruptedIOException("interrupted while connecting");
                    }
                }
            }
            key.interestOps(SelectionKey.OP_READ);
            return new Transport(ch, sel, key, host + ":" + port);
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch, sel);
            throw e;
        }
    }

    /** The wait checks from now on (the handshake's, then the connection's). */
    void guard(Guard g) {
        this.guard = g;
    }

    InputStream inputStream() {
        return in;
    }

    OutputStream outputStream() {
        return out;
    }

    /** Bytes received from the server so far (before decryption). */
    long received() {
        return received;
    }

    /** Application bytes received but not read yet (TLS records decrypted ahead). */
    int pending() {
        return 0;
    }

    /** Reads at least one byte into {@code b}, waiting as long as the guard allows; -1 at the server's end. */
    int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        return readNet(ByteBuffer.wrap(b, off, len));
    }

    /** Writes all of {@code b}, waiting as long as the guard allows. */
    void write(byte[] b, int off, int len) throws IOException {
        writeNet(ByteBuffer.wrap(b, off, len));
    }

    /** Reads at least one byte from the channel into {@code dst} (which has room); -1 at the end. */
    final int readNet(ByteBuffer dst) throws IOException {
        long start = System.nanoTime();
        guard.checkRead(0);
        while (true) {
            int n = channel.read(dst);
            if (n != 0) {
                if (n > 0) {
                    received += n;
                }
                return n;
            }
            await(SelectionKey.OP_READ, start);
            guard.checkRead(System.nanoTime() - start);
        }
    }

    /** Writes everything remaining in {@code src} to the channel. */
    final void writeNet(ByteBuffer src) throws IOException {
        long lastProgress = System.nanoTime();
        while (src.hasRemaining()) {
            int n = channel.write(src);
            if (n > 0) {
                lastProgress = System.nanoTime();
                continue;
            }
            await(SelectionKey.OP_WRITE, lastProgress);
            guard.checkWrite(System.nanoTime() - lastProgress);
        }
    }

    /**
     * Waits until the channel is ready for {@code op}, the guard's poll time passes, an interrupt, or
     * {@link #wakeUp()}. A virtual thread waits without a timeout until the guard's due time instead
     * ({@link SelectorWaker}).
     *
     * @param sinceNanos when the read began or the write last progressed
     */
    private void await(int op, long sinceNanos) throws IOException {
        if (key.interestOps() != op) {
            key.interestOps(op);
        }
        if (SelectorWaker.onVirtualThread()) {
            SelectorWaker.select(wait, guard.checkDueNanos(sinceNanos, op == SelectionKey.OP_WRITE));
        } else {
            selector.select(guard.pollMillis());
        }
        selector.selectedKeys().clear();
    }

    /** From any thread: ends the wait in progress (or the next one) early, so its guard looks again. */
    void wakeUp() {
        selector.wakeup();
    }

    /**
     * Whether the idle connection can no longer be used: the server closed it (its FIN or a reset is
     * already in the socket) or sent bytes nobody asked for. One non-blocking read, no round trip.
     */
    boolean idleCheckFails() {
        try {
            probe.clear();
            int n = channel.read(probe);
            if (n > 0) {
                received += n;
            }
            return n != 0;
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * From any thread: half-closes our side (FIN) and wakes a waiting reader or writer, so the server
     * ends the query and the connection's own thread fails fast and closes it.
     */
    void shutdownOutputFromAnotherThread() {
        try {
            channel.shutdownOutput();
        } catch (IOException | RuntimeException ignored) {
            // already closed
        }
        selector.wakeup();
    }

    /** What is sent before our FIN when closing (TLS: close_notify). */
    void beforeShutdown() {
    }

    /**
     * Closes without resetting the connection where possible: half-closes our side (FIN), then reads
     * and discards what the server still sends until it closes too (at most ~2 s, however many bytes:
     * a server streaming a result sees the FIN only between blocks and may send hundreds of MiB before
     * it stops). A close with unread bytes makes the kernel send RST (the JDK's own half-close before
     * closing a registered channel does not help: the reset follows it), which ClickHouse 26.7 treats as
     * a fatal error of its whole process; after the FIN a server stops the query and closes cleanly. Only a
     * server still sending after the bound is reset. Blocks up to that bound: run it off the caller's
     * thread when the server may be busy.
     */
    void closeGracefully() {
        if (!channel.isOpen()) {
            return;
        }
        try {
            beforeShutdown();
            channel.shutdownOutput();
            ByteBuffer buf = ByteBuffer.allocate(64 << 10);
            long deadline = System.nanoTime() + CLOSE_DRAIN_NANOS;
            if (key.interestOps() != SelectionKey.OP_READ) {
                key.interestOps(SelectionKey.OP_READ);
            }
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                buf.clear();
                int n = channel.read(buf);
                if (n < 0) {
                    break;
                }
                if (n == 0) {
                    selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                    selector.selectedKeys().clear();
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // closing anyway
        }
        closeQuietly(channel, selector);
    }

    static void closeQuietly(SocketChannel ch, Selector sel) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        if (sel != null) {
            try {
                sel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /** The server's end of stream where more was due. */
    EOFException closedByServer() {
        return new EOFException("connection closed by server " + where);
    }
}
