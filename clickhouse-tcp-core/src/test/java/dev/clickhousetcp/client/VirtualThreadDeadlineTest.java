package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static dev.clickhousetcp.client.DeadlineTest.bound;
import static dev.clickhousetcp.client.DeadlineTest.since;

/**
 * On virtual threads the transport waits without a timeout ({@link SelectorWaker}); every way a wait
 * must end early still ends it, within the bounds {@link DeadlineTest} holds platform threads to:
 * <ul>
 *   <li>the handshake timeout against a server that never answers;</li>
 *   <li>a query timeout while the server sleeps;</li>
 *   <li>the socket timeout against a server that answers the Hello and nothing after;</li>
 *   <li>a cancel from another thread: Cancel is sent at once, also to a server that sends nothing more;</li>
 *   <li>an interrupt: the query is cancelled, the connection kept, the interrupt flag restored.</li>
 * </ul>
 * Runs on JDK 25 or later, in a child JVM from the build's Java 17 ({@link VirtualThreadProbes}).
 */
@ClickHouseTest
class VirtualThreadDeadlineTest {
    @Test
    void waitsOnVirtualThreadsEndAtTheirDeadlinesCancelsAndInterrupts() throws Exception {
        ClickHouseServer modern = ClickHouseServers.modern();
        VirtualThreadProbes.run(Probe.class, Probe::run, "deadlines kept", modern.host(),
                String.valueOf(modern.tcpPort()));
    }

    /** The checks, each on a virtual thread; arguments: the modern server's host and native port. */
    static final class Probe {
        private Probe() {
        }

        public static void main(String[] args) {
            VirtualThreadProbes.main(Probe::run, "deadlines kept", args);
        }

        static List<String> run(String[] args) throws Exception {
            String host = args[0];
            int port = Integer.parseInt(args[1]);
            List<String> problems = new ArrayList<>();
            check("handshake timeout", problems, () -> handshakeTimeout());
            check("query timeout", problems, () -> queryTimeout(host, port));
            check("socket timeout", problems, () -> socketTimeout());
            check("cancel while the server is silent", problems, () -> cancelWhileSilent(host, port));
            check("cancel wakes the reader", problems, () -> cancelWakesTheReader());
            check("interrupt", problems, () -> interrupt(host, port));
            return problems;
        }

        interface Check {
            void run() throws Exception;
        }

        /** Runs {@code check} on a virtual thread; what it throws is a problem. */
        private static void check(String name, List<String> problems, Check check) throws Exception {
            List<Throwable> failed = new CopyOnWriteArrayList<>();
            Thread t = VirtualThreadProbes.startVirtualThread(() -> {
                try {
                    check.run();
                } catch (Throwable e) {
                    failed.add(e);
                }
            });
            t.join(TimeUnit.MINUTES.toMillis(1));
            if (t.isAlive()) {
                problems.add(name + ": still running after a minute");
            }
            for (Throwable e : failed) {
                java.io.StringWriter w = new java.io.StringWriter();
                e.printStackTrace(new java.io.PrintWriter(w));
                problems.add(name + ": " + w);
            }
        }

        private static ClickHouseTcpClient.Builder client(String host, int port) {
            return ClickHouseTcpClient.builder().host(host).port(port).connectTimeout(Duration.ofSeconds(5))
                    .socketTimeout(Duration.ofSeconds(60)).acquireTimeout(Duration.ofSeconds(10)).maxPoolSize(2);
        }

        private static void handshakeTimeout() throws Exception {
            try (FakeServer silent = new FakeServer()) {
                Duration timeout = Duration.ofMillis(300);
                try (ClickHouseTcpClient client = client("127.0.0.1", silent.port()).handshakeTimeout(timeout).build()) {
                    long start = System.nanoTime();
                    ClickHouseTimeoutException e = expectTimeout(client::ping);
                    within(start, bound(timeout));
                    expect(e.deadline() == Deadline.HANDSHAKE, "deadline HANDSHAKE, was " + e.deadline(), e);
                }
            }
        }

        private static void queryTimeout(String host, int port) {
            Duration timeout = Duration.ofMillis(300);
            try (ClickHouseTcpClient client = client(host, port).build()) {
                client.ping();
                long start = System.nanoTime();
                ClickHouseTimeoutException e = expectTimeout(() -> client.execute("SELECT sleep(2)",
                        QueryOptions.builder().timeout(timeout).build()));
                within(start, bound(timeout));
                expect(e.deadline() == Deadline.QUERY, "deadline QUERY, was " + e.deadline(), e);
                expect(client.queryRows("SELECT 1").size() == 1, "the client still answers", null);
            }
        }

        private static void socketTimeout() throws Exception {
            try (FakeServer silent = new FakeServer("server/hello")) {
                Duration timeout = Duration.ofMillis(400);
                try (ClickHouseTcpClient client = client("127.0.0.1", silent.port()).socketTimeout(timeout).build()) {
                    long start = System.nanoTime();
                    ClickHouseTimeoutException e = expectTimeout(() -> client.execute("SELECT 1"));
                    within(start, bound(timeout));
                    expect(e.deadline() == Deadline.SOCKET, "deadline SOCKET, was " + e.deadline(), e);
                }
            }
        }

        /**
         * Accepts connections and answers the client's n-th read with {@code replies[n]} (golden bytes of
         * the 18.16 server, uncompressed), then nothing more, while reading and discarding what the client
         * sends until it closes.
         */
        private static final class FakeServer implements AutoCloseable {
            private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            private final List<Socket> accepted = new CopyOnWriteArrayList<>();

            FakeServer(String... replies) throws IOException {
                List<byte[]> bytes = new ArrayList<>();
                for (String r : replies) {
                    try (java.io.InputStream in = FakeServer.class.getResourceAsStream("/golden/18.16.1/" + r + ".bin")) {
                        bytes.add(java.util.Objects.requireNonNull(in, r).readAllBytes());
                    }
                }
                Thread acceptor = new Thread(() -> {
                    try {
                        while (true) {
                            Socket s = socket.accept();
                            accepted.add(s);
                            Thread conn = new Thread(() -> serve(s, bytes));
                            conn.setDaemon(true);
                            conn.start();
                        }
                    } catch (IOException closed) {
                        // check over
                    }
                });
                acceptor.setDaemon(true);
                acceptor.start();
            }

            private static void serve(Socket s, List<byte[]> replies) {
                try {
                    byte[] buf = new byte[8192];
                    int n = 0;
                    while (s.getInputStream().read(buf) >= 0) {
                        if (n < replies.size()) {
                            s.getOutputStream().write(replies.get(n++));
                            s.getOutputStream().flush();
                        }
                    }
                } catch (IOException closed) {
                    // check over
                }
            }

            int port() {
                return socket.getLocalPort();
            }

            @Override
            public void close() throws IOException {
                socket.close();
                for (Socket s : accepted) {
                    s.close();
                }
            }
        }

        /** The server sends one block and then nothing: only the cancel itself can wake the reader. */
        private static void cancelWakesTheReader() throws Exception {
            try (FakeServer silent = new FakeServer("server/hello", "data/UInt8");
                 ClickHouseTcpClient client = client("127.0.0.1", silent.port()).compression(Compression.NONE)
                         .shutdownGrace(Duration.ZERO).build()) {
                QueryResult r = client.query("SELECT 1");
                CompletableFuture<Void> reader = new CompletableFuture<>();
                java.util.concurrent.atomic.AtomicBoolean gotBlock = new java.util.concurrent.atomic.AtomicBoolean();
                Thread t = VirtualThreadProbes.startVirtualThread(() -> {
                    try {
                        while (r.next() != null) {
                            gotBlock.set(true); // the block, then a wait for a server that sends nothing more
                        }
                    } catch (Throwable e) {
                        // ended by the client's close below
                    }
                    reader.complete(null);
                });
                await("the reader waiting for more", Duration.ofSeconds(10), () -> gotBlock.get()
                        && (t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING));
                r.cancel();
                await("Cancel sent to a silent server", Duration.ofMillis(1500), r::isCancelled);
                client.close(); // no server will confirm: end the reader's wait
                reader.get(15, TimeUnit.SECONDS);
            }
        }

        private static void cancelWhileSilent(String host, int port) throws Exception {
            String id = "vt-cancel-" + UUID.randomUUID();
            try (ClickHouseTcpClient client = client(host, port).build();
                 ClickHouseTcpClient watcher = client(host, port).build()) {
                QueryResult r = client.query("SELECT sleep(3)", QueryOptions.builder().queryId(id).build());
                CompletableFuture<Block> reader = new CompletableFuture<>();
                VirtualThreadProbes.startVirtualThread(() -> {
                    try {
                        Block b;
                        while ((b = r.next()) != null && b.rowCount() == 0) {
                            // the header
                        }
                        reader.complete(b);
                    } catch (Throwable e) {
                        reader.completeExceptionally(e);
                    }
                });
                await("query running", Duration.ofSeconds(10), () -> running(watcher, id));
                r.cancel();
                // the reader is woken and sends Cancel at once, while the server still sleeps
                await("Cancel sent while the server is silent", Duration.ofMillis(1500), r::isCancelled);
                expect(reader.get(15, TimeUnit.SECONDS) == null, "the cancelled stream ends", null);
                r.close();
                await("query gone", Duration.ofSeconds(10), () -> !running(watcher, id));
                expect(client.queryRows("SELECT 1").size() == 1, "the client still answers", null);
            }
        }

        private static void interrupt(String host, int port) throws Exception {
            String id = "vt-interrupt-" + UUID.randomUUID();
            try (ClickHouseTcpClient client = client(host, port).build();
                 ClickHouseTcpClient watcher = client(host, port).build()) {
                List<Throwable> seen = new CopyOnWriteArrayList<>();
                boolean[] interruptKept = {false};
                Thread t = VirtualThreadProbes.startVirtualThread(
                        LifecycleTest.interruptibleQuery(client, id, seen, interruptKept));
                await("query running", Duration.ofSeconds(10), () -> running(watcher, id));
                t.interrupt();
                t.join(15_000);
                expect(!t.isAlive(), "the interrupted call returned", null);
                expect(seen.size() == 1 && seen.get(0) instanceof ClickHouseException
                        && seen.get(0).getMessage().contains("interrupted"), "one exception saying interrupted: " + seen,
                        seen.isEmpty() ? null : seen.get(0));
                expect(interruptKept[0], "the interrupt flag restored", null);
                await("query gone", Duration.ofSeconds(10), () -> !running(watcher, id));
                expect(client.poolStats().destroyed() == 0, "the connection kept", null);
            }
        }

        private static ClickHouseTimeoutException expectTimeout(Runnable call) {
            try {
                call.run();
            } catch (ClickHouseTimeoutException e) {
                return e;
            }
            throw new AssertionError("expected a ClickHouseTimeoutException, the call returned");
        }

        private static void within(long start, Duration bound) {
            Duration took = since(start);
            expect(took.compareTo(bound) < 0, "took " + took + ", bound " + bound, null);
        }

        private static void expect(boolean condition, String what, Throwable cause) {
            if (!condition) {
                throw new AssertionError(what, cause);
            }
        }

        private static boolean running(ClickHouseTcpClient watcher, String queryId) {
            return !watcher.queryRows("SELECT count() FROM system.processes WHERE query_id = '" + queryId + "'")
                    .get(0)[0].toString().equals("0");
        }

        /** Polls {@code condition} until true or {@code max} passes. */
        private static void await(String what, Duration max, BooleanSupplier condition) {
            long deadline = System.nanoTime() + max.toNanos();
            while (!condition.getAsBoolean()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("timed out waiting for " + what);
                }
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // polling interval
            }
        }
    }
}
