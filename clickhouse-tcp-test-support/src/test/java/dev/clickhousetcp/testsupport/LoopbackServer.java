package dev.clickhousetcp.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A tiny loopback TCP server for proxy tests. Each accepted connection runs a {@link Handler} on its own
 * thread and gets a {@link Peer} that records every byte it read and how the connection ended: {@link
 * End#EOF} if the handler returned (it saw the client's FIN), {@link End#RESET} if reading or writing
 * failed (a reset reached it).
 */
final class LoopbackServer implements AutoCloseable {

    /** How a connection ended, as the server saw it. */
    enum End { EOF, RESET }

    /** Serves one connection; reads through {@link Peer#read}, so received bytes are recorded. */
    interface Handler {
        void handle(Peer peer, OutputStream out) throws IOException;
    }

    /** Writes back whatever arrives, until the client's FIN. */
    static final Handler ECHO = (peer, out) -> {
        byte[] buf = new byte[8192];
        int n;
        while ((n = peer.read(buf)) > 0) {
            out.write(buf, 0, n);
        }
    };

    /** Sends {@code greeting} first (as a server Hello), then echoes. */
    static Handler greetThenEcho(byte[] greeting) {
        return (peer, out) -> {
            out.write(greeting);
            ECHO.handle(peer, out);
        };
    }

    /** Answers every line ({@code \n}-terminated request) with {@code size} bytes of {@link #pattern}. */
    static Handler answerLines(int size) {
        return (peer, out) -> {
            byte[] buf = new byte[8192];
            byte[] answer = pattern(size);
            int n;
            while ((n = peer.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        out.write(answer);
                    }
                }
            }
        };
    }

    /** @return {@code size} bytes {@code i % 251} */
    static byte[] pattern(int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i % 251);
        }
        return b;
    }

    /** One accepted connection, seen from the server. Thread-safe. */
    static final class Peer {
        private final InputStream in;
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private End end;
        private String endDetail;

        Peer(InputStream in) {
            this.in = in;
        }

        int read(byte[] buf) throws IOException {
            int n = in.read(buf);
            if (n > 0) {
                synchronized (this) {
                    received.write(buf, 0, n);
                    notifyAll();
                }
            }
            return n;
        }

        synchronized byte[] received() {
            return received.toByteArray();
        }

        synchronized void ended(End how, String detail) {
            end = how;
            endDetail = detail;
            notifyAll();
        }

        /** Waits until at least {@code count} bytes arrived; returns all received so far. */
        synchronized byte[] awaitReceived(int count, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (received.size() < count) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new AssertionError("server received " + received.size() + " of " + count + " bytes");
                }
                TimeUnit.NANOSECONDS.timedWait(this, remaining);
            }
            return received.toByteArray();
        }

        /** Waits until the connection ended on the server side. */
        synchronized End awaitEnd(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (end == null) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new AssertionError("the server side of the connection did not end within " + timeout);
                }
                TimeUnit.NANOSECONDS.timedWait(this, remaining);
            }
            return end;
        }

        synchronized String endDetail() {
            return endDetail;
        }
    }

    private final ServerSocket listener;
    private final Handler handler;
    private final Thread acceptor;
    private final List<Peer> peers = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    LoopbackServer(Handler handler) throws IOException {
        this.handler = handler;
        this.listener = new ServerSocket(0, 256, InetAddress.getByName("127.0.0.1"));
        this.acceptor = new Thread(this::acceptLoop, "loopback-server-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Waits for the {@code index}-th (0-based) accepted connection. */
    synchronized Peer awaitPeer(int index, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (peers.size() <= index) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new AssertionError("connection #" + index + " did not reach the server");
            }
            TimeUnit.NANOSECONDS.timedWait(this, remaining);
        }
        return peers.get(index);
    }

    synchronized int connections() {
        return peers.size();
    }

    private void acceptLoop() {
        while (true) {
            Socket socket;
            Peer peer;
            try {
                socket = listener.accept();
                peer = new Peer(socket.getInputStream());
            } catch (IOException e) {
                return;
            }
            Thread thread = new Thread(() -> serve(socket, peer), "loopback-server-conn");
            thread.setDaemon(true);
            synchronized (this) {
                peers.add(peer);
                sockets.add(socket);
                threads.add(thread);
                notifyAll();
            }
            thread.start();
        }
    }

    private void serve(Socket socket, Peer peer) {
        try (socket) {
            handler.handle(peer, socket.getOutputStream());
            peer.ended(End.EOF, "handler returned");
        } catch (IOException e) {
            peer.ended(End.RESET, e.toString());
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        listener.close();
        acceptor.join(10_000);
        List<Thread> toJoin;
        synchronized (this) {
            for (Socket s : sockets) {
                s.close();
            }
            toJoin = new ArrayList<>(threads);
        }
        for (Thread t : toJoin) {
            t.join(10_000);
        }
    }
}
