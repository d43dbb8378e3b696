package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every way the client closes a socket ends it with a FIN, never a reset (RST), even while the peer still
 * sends: Linux resets a connection closed with unread bytes in its receive buffer, and ClickHouse 26.7 aborts
 * its whole process on a reset. A local peer records how the client's side ended: its read sees the end of
 * the stream after a FIN, {@code Connection reset} after a reset.
 */
class CloseWithoutResetTest {

    /** How the peer saw the client's side end. */
    enum End { FIN, RESET }

    /**
     * One connection to a local peer that runs {@code talk} on the accepted socket and then reads until the
     * client's side ends; the future says how it ended.
     */
    static final class Peer implements AutoCloseable {
        final ServerSocket listener;
        final CompletableFuture<End> end = new CompletableFuture<>();

        Peer(Consumer<Socket> talk) throws IOException {
            listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            Thread t = new Thread(() -> {
                try (Socket s = listener.accept()) {
                    talk.accept(s);
                    InputStream in = s.getInputStream();
                    byte[] buf = new byte[64 << 10];
                    while (in.read(buf) >= 0) {
                        // what the client still sends (Hello, TLS records)
                    }
                    end.complete(End.FIN);
                } catch (SocketException e) {
                    end.complete(e.getMessage() != null && e.getMessage().contains("reset") ? End.RESET : End.FIN);
                } catch (IOException | RuntimeException e) {
                    end.completeExceptionally(e);
                }
            }, "close-peer");
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return listener.getLocalPort();
        }

        End awaitEnd() throws Exception {
            return end.get(20, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }

    static void write(Socket s, int bytes, byte fill) {
        try {
            OutputStream out = s.getOutputStream();
            byte[] chunk = new byte[64 << 10];
            Arrays.fill(chunk, fill);
            for (int left = bytes; left > 0; left -= chunk.length) {
                out.write(chunk, 0, Math.min(left, chunk.length));
            }
            out.flush();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A peer that first sends {@code first} junk bytes, reads until the client's FIN, then sends {@code after}
     * more bytes and closes: the client must still be reading them (a socket the client closed answers them
     * with a reset). Completes with whether all of {@code after} was written.
     */
    static Consumer<Socket> junkThenFinThen(int first, int after, CompletableFuture<Boolean> wroteAll) {
        return s -> {
            try {
                write(s, first, (byte) 'x');
                InputStream in = s.getInputStream();
                byte[] buf = new byte[64 << 10];
                while (in.read(buf) >= 0) {
                    // until the client's FIN
                }
                write(s, after, (byte) 0);
                wroteAll.complete(true);
                s.shutdownOutput();
            } catch (IOException | RuntimeException e) {
                wroteAll.complete(false);
            }
        };
    }

    /** A TLS handshake the peer answers with bytes that are no TLS record: the client gives up on it with a FIN. */
    @Test
    void failedTlsHandshakeEndsWithFin() throws Exception {
        for (int junk : new int[] {200_000, 1 << 20}) {
            CompletableFuture<Boolean> wroteAll = new CompletableFuture<>();
            try (Peer peer = new Peer(junkThenFinThen(junk, 1 << 20, wroteAll))) {
                ConnectionConfig cfg = ConnectionConfig.builder().host("127.0.0.1").port(peer.port())
                        .tls(TlsConfig.builder().hostnameVerification(false).build()).build();
                assertThatThrownBy(() -> ClickHouseConnection.open(cfg).close())
                        .isInstanceOf(ClickHouseConnectionException.class).hasMessageContaining("TLS handshake");
                assertThat(wroteAll.get(20, TimeUnit.SECONDS)).as("the peer wrote after the FIN (%d junk bytes)", junk)
                        .isTrue();
                assertThat(peer.awaitEnd()).isEqualTo(End.FIN);
            }
        }
    }

    /**
     * A graceful close drains what the peer still sends after the client's FIN until the peer closes too (within
     * its time bound), however many bytes that is: a byte cap closed a fast sender's connection with bytes
     * unread, a reset.
     */
    @Test
    void gracefulCloseDrainsAFastSenderToItsEnd() throws Exception {
        for (int after : new int[] {1 << 20, 96 << 20}) {
            CompletableFuture<Boolean> wroteAll = new CompletableFuture<>();
            try (Peer peer = new Peer(junkThenFinThen(0, after, wroteAll))) {
                Transport t = Transport.connect("127.0.0.1", peer.port(), Budget.NONE);
                t.closeGracefully();
                assertThat(wroteAll.get(20, TimeUnit.SECONDS)).as("the peer sent its %d bytes after the FIN", after)
                        .isTrue();
                assertThat(peer.awaitEnd()).isEqualTo(End.FIN);
            }
        }
    }

    /**
     * A JVM that exits while a connection is being closed in the background lets that close finish (FIN, drain
     * to the server's end) instead of ending its socket with the process, which resets a connection the server
     * still sends on: a test JVM ends right after its last test closed a broken connection.
     */
    @Test
    void exitingJvmFinishesBackgroundCloses() throws Exception {
        CompletableFuture<Boolean> wroteAll = new CompletableFuture<>();
        try (Peer peer = new Peer(junkThenFinThen(0, 16 << 20, wroteAll))) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            Process p = new ProcessBuilder(java, "-Xshare:off", "-cp", classPath, ExitDuringClose.class.getName(),
                    Integer.toString(peer.port())).redirectErrorStream(true).start();
            try {
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).as(out).isZero();
            } finally {
                p.destroyForcibly();
            }
            assertThat(wroteAll.get(20, TimeUnit.SECONDS)).as("the peer sent everything after the FIN").isTrue();
            assertThat(peer.awaitEnd()).isEqualTo(End.FIN);
        }
    }

    /** Connects to the port in {@code args[0]}, closes in the background and exits at once. */
    static final class ExitDuringClose {
        public static void main(String[] args) throws IOException {
            Transport t = Transport.connect("127.0.0.1", Integer.parseInt(args[0]), Budget.NONE);
            ClickHouseConnection.closeInBackground(t);
            System.exit(0);
        }
    }
}
