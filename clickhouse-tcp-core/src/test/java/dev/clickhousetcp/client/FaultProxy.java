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
 *
 * <p>{@link #dropAll()} resets both sides (SO_LINGER 0), which the embedded 26.7 server does not
 * survive while it is reading; {@link #dropAllGracefully()} instead closes the client side and ends
 * the server side with a FIN, draining what the server still sends, so the server sees a client that
 * went away between packets.
 */
final class FaultProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Pair> pairs = new CopyOnWriteArrayList<>();
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
        pairs.clear();
    }

    /** One proxied connection; {@code dropping} makes the pumps end it gracefully. */
    private static final class Pair {
        final Socket client;
        final Socket server;
        volatile boolean dropping;

        Pair(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }
    }

    /**
     * Ends every proxied connection without a reset towards the server: the client socket is closed,
     * the server socket's output is shut down (FIN) and its input drained until the server closes.
     * Use it only while the client is not in the middle of sending a packet.
     */
    void dropAllGracefully() {
        for (Pair p : pairs) {
            p.dropping = true;
            try {
                p.client.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            try {
                p.server.shutdownOutput();
            } catch (IOException ignored) {
                // already gone
            }
        }
        pairs.clear();
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
                Pair pair = new Pair(client, server);
                pairs.add(pair);
                pump(client.getInputStream(), server.getOutputStream(), -1, pair, false);
                pump(server.getInputStream(), client.getOutputStream(), flip, pair, true);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private static void pump(InputStream in, OutputStream out, long flipOffset, Pair pair, boolean fromServer) {
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
                    if (pair.dropping) {
                        continue; // draining the server until it closes
                    }
                    try {
                        out.write(buf, 0, n);
                        out.flush();
                    } catch (IOException e) {
                        if (!pair.dropping) {
                            throw e;
                        }
                    }
                }
            } catch (IOException ignored) {
                // the other side went away
            } finally {
                try {
                    if (!pair.dropping) {
                        pair.client.close();
                        pair.server.close();
                    } else if (fromServer) {
                        pair.server.close(); // the server closed after our FIN: nothing unread is left
                    }
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }, "fault-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Stops accepting and ends the remaining connections gracefully (no reset reaches the server). */
    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        dropAllGracefully();
    }
}
