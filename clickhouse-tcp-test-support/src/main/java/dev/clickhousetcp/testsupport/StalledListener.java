package dev.clickhousetcp.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server that accepts TCP connections on loopback and never answers: it reads nothing and writes nothing,
 * as a ClickHouse server that hangs would (the client's connect succeeds, its handshake waits). Counts the
 * connections it accepted and keeps them open until closed, then closes them all (gracefully, with a FIN).
 * Thread-safe; one daemon thread accepts.
 */
public final class StalledListener implements AutoCloseable {
    private final ServerSocket socket;
    private final AtomicInteger accepted = new AtomicInteger();
    private final List<Socket> held = new CopyOnWriteArrayList<>();

    /**
     * Starts listening on {@code 127.0.0.1} on an ephemeral port.
     *
     * @throws IOException when the port cannot be bound
     */
    public StalledListener() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    held.add(socket.accept());
                    accepted.incrementAndGet();
                } catch (IOException e) {
                    return; // closed
                }
            }
        }, "stalled-listener-" + socket.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** @return the host to connect to, {@code 127.0.0.1} */
    public String host() {
        return socket.getInetAddress().getHostAddress();
    }

    /** @return the port it listens on */
    public int port() {
        return socket.getLocalPort();
    }

    /** @return {@code host:port} */
    public String endpoint() {
        return host() + ":" + port();
    }

    /** @return how many connections it has accepted so far */
    public int accepted() {
        return accepted.get();
    }

    /** Stops listening and closes every connection it accepted. */
    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket s : held) {
            s.close();
        }
    }
}
