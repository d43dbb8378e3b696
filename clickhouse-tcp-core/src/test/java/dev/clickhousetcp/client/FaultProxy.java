package dev.clickhousetcp.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy in front of a real server for fault tests: it can drop every open connection
 * (a server dying mid-query, as the client sees it), and flip one byte of the server-to-client stream
 * at a given offset of the next connection (a corrupted frame). Test code only.
 */
final class FaultProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicLong flipAt = new AtomicLong(-1);
    private final Thread acceptor;
    private volatile boolean closed;

    FaultProxy(String targetHost, int targetPort) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.acceptor = new Thread(this::acceptLoop, "fault-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** The next accepted connection gets the server byte at {@code offset} (0-based) inverted. */
    void flipServerByteOfNextConnection(long offset) {
        flipAt.set(offset);
    }

    /** Closes every proxied connection abruptly (both sides); new connections are still accepted. */
    void dropAll() {
        for (Socket s : sockets) {
            try {
                s.setSoLinger(true, 0);
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        sockets.clear();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(server);
                long flip = flipAt.getAndSet(-1);
                pump(client.getInputStream(), server.getOutputStream(), -1, client, server);
                pump(server.getInputStream(), client.getOutputStream(), flip, client, server);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private static void pump(InputStream in, OutputStream out, long flipOffset, Socket a, Socket b) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[64 * 1024];
            long pos = 0;
            try {
                int n;
                while ((n = in.read(buf)) > 0) {
                    if (flipOffset >= pos && flipOffset < pos + n) {
                        buf[(int) (flipOffset - pos)] ^= (byte) 0xFF;
                    }
                    pos += n;
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException ignored) {
                // the other side went away
            } finally {
                try {
                    a.close();
                    b.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }, "fault-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        dropAll();
    }
}
