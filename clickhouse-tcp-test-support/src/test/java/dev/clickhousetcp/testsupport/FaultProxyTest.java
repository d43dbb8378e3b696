package dev.clickhousetcp.testsupport;

import static dev.clickhousetcp.testsupport.FaultProxy.Direction.CLIENT_TO_SERVER;
import static dev.clickhousetcp.testsupport.FaultProxy.Direction.SERVER_TO_CLIENT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.clickhousetcp.testsupport.FaultProxy.Action;
import dev.clickhousetcp.testsupport.FaultProxy.Stats;
import dev.clickhousetcp.testsupport.LoopbackServer.End;
import dev.clickhousetcp.testsupport.LoopbackServer.Peer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The proxy against a tiny local server: every action, trigger kind and connection choice. */
class FaultProxyTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    /** How long "nothing arrives" is watched for. */
    private static final int QUIET_MILLIS = 300;

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void closeResources() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    private LoopbackServer server(LoopbackServer.Handler handler) throws IOException {
        LoopbackServer server = new LoopbackServer(handler);
        resources.add(server);
        return server;
    }

    private FaultProxy proxy(LoopbackServer server) throws IOException {
        FaultProxy proxy = new FaultProxy("127.0.0.1", server.port());
        resources.add(proxy);
        return proxy;
    }

    private Socket connect(FaultProxy proxy) throws IOException {
        Socket socket = new Socket(proxy.host(), proxy.port());
        socket.setSoTimeout((int) WAIT.toMillis());
        resources.add(socket);
        return socket;
    }

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] readExactly(InputStream in, int n) throws IOException {
        byte[] b = in.readNBytes(n);
        assertEquals(n, b.length, "bytes before the end of the stream");
        return b;
    }

    /** Reads until the end of the stream (a FIN); fails on a reset or after the socket timeout. */
    private static byte[] readToEnd(InputStream in) throws IOException {
        return in.readAllBytes();
    }

    /** Asserts that nothing arrives within {@link #QUIET_MILLIS}. */
    private static void assertQuiet(Socket socket) throws IOException {
        int timeout = socket.getSoTimeout();
        socket.setSoTimeout(QUIET_MILLIS);
        try {
            assertThrows(SocketTimeoutException.class, () -> socket.getInputStream().read());
        } finally {
            socket.setSoTimeout(timeout);
        }
    }

    /** Sends one byte and returns the one byte the echo server sends back. */
    private static int ping(Socket socket, int value) throws IOException {
        socket.getOutputStream().write(value);
        return socket.getInputStream().read();
    }

    // ------------------------------------------------------------------ plain forwarding

    @Test
    void forwardsBothDirectionsUnchangedAndCountsBytes() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        byte[] data = random(300_000, 1);
        Socket socket = connect(proxy);
        Thread writer = new Thread(() -> {
            try {
                socket.getOutputStream().write(data);
                socket.shutdownOutput();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        writer.start();
        assertArrayEquals(data, readToEnd(socket.getInputStream()));
        writer.join();
        assertEquals(End.EOF, server.awaitPeer(0, WAIT).awaitEnd(WAIT));
        Stats stats = proxy.awaitStats(s -> s.open() == 0, WAIT);
        assertEquals(1, stats.accepted());
        assertEquals(data.length, stats.clientToServerBytes());
        assertEquals(data.length, stats.bytes(SERVER_TO_CLIENT));
        assertTrue(stats.faultsFired().isEmpty());
    }

    @Test
    void manyConcurrentConnectionsKeepTheirBytesApart() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        int connections = 40;
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                long seed = i;
                results.add(pool.submit(() -> {
                    byte[] data = random(100_000, seed);
                    try (Socket socket = new Socket(proxy.host(), proxy.port())) {
                        socket.setSoTimeout((int) WAIT.toMillis());
                        ByteArrayOutputStream echoed = new ByteArrayOutputStream();
                        OutputStream out = socket.getOutputStream();
                        InputStream in = socket.getInputStream();
                        for (int off = 0; off < data.length; off += 10_000) {
                            out.write(data, off, 10_000);
                            echoed.write(readExactly(in, 10_000));
                        }
                        socket.shutdownOutput();
                        return Arrays.equals(data, echoed.toByteArray()) && in.read() == -1;
                    }
                }));
            }
            for (Future<Boolean> result : results) {
                assertTrue(result.get());
            }
        } finally {
            pool.shutdownNow();
        }
        Stats stats = proxy.awaitStats(s -> s.open() == 0, WAIT);
        assertEquals(connections, stats.accepted());
        assertEquals(connections * 100_000L, stats.clientToServerBytes());
        assertEquals(connections * 100_000L, stats.serverToClientBytes());
    }

    @Test
    void aClientResetReachesTheServerAsAGracefulEnd() throws Exception {
        LoopbackServer server = server(LoopbackServer.answerLines(1_000_000));
        FaultProxy proxy = proxy(server);
        Socket socket = connect(proxy);
        socket.getOutputStream().write("SELECT 1\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals(0, socket.getInputStream().read()); // the answer is flowing
        socket.setSoLinger(true, 0);
        socket.close(); // RST, with most of the answer unread
        assertEquals(End.EOF, server.awaitPeer(0, WAIT).awaitEnd(WAIT));
        assertTrue(proxy.awaitStats(s -> s.open() == 0, WAIT).faultsFired().isEmpty());
    }

    @Test
    void anUnreachableTargetClosesTheAcceptedConnection() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        FaultProxy proxy = new FaultProxy("127.0.0.1", closedPort);
        resources.add(proxy);
        Socket socket = connect(proxy);
        assertEquals(-1, socket.getInputStream().read());
        Stats stats = proxy.awaitStats(s -> s.failedConnects() == 1, WAIT);
        assertEquals(1, stats.accepted());
        assertEquals(0, stats.open());
    }

    // ------------------------------------------------------------------ actions at an offset

    @Test
    void flipInvertsExactlyTheByteAtTheOffset() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        FaultRule toClient = proxy.on(SERVER_TO_CLIENT).atOffset(1000).flip().onNextConnection();
        FaultRule toServer = proxy.on(CLIENT_TO_SERVER).atOffset(7).flip().onNextConnection();
        byte[] data = random(5000, 2);
        Socket socket = connect(proxy);
        socket.getOutputStream().write(data);
        byte[] echoed = readExactly(socket.getInputStream(), data.length);
        byte[] atServer = server.awaitPeer(0, WAIT).awaitReceived(data.length, WAIT);

        byte[] expectedAtServer = data.clone();
        expectedAtServer[7] ^= (byte) 0xFF;
        assertArrayEquals(expectedAtServer, atServer);
        byte[] expectedEcho = expectedAtServer.clone();
        expectedEcho[1000] ^= (byte) 0xFF;
        assertArrayEquals(expectedEcho, echoed);
        assertEquals(1, toClient.firedCount());
        assertEquals(1, toServer.firedCount());
        assertEquals(2, proxy.stats().faultsFired(Action.FLIP));
    }

    @Test
    void truncateForwardsUpToTheOffsetThenEndsGracefully() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        FaultRule rule = proxy.on(SERVER_TO_CLIENT).atOffset(4000).truncate().onNextConnection();
        byte[] data = random(10_000, 3);
        Socket socket = connect(proxy);
        socket.getOutputStream().write(data);
        byte[] received = readToEnd(socket.getInputStream()); // a FIN, not a reset
        assertArrayEquals(Arrays.copyOf(data, 4000), received);
        assertTrue(rule.fired());
        // the server saw a client that went away (FIN), never a reset
        assertEquals(End.EOF, server.awaitPeer(0, WAIT).awaitEnd(WAIT));
        socket.close();
        Stats stats = proxy.awaitStats(s -> s.open() == 0, WAIT);
        assertEquals(1, stats.faultsFired(Action.TRUNCATE));
        assertEquals(4000, stats.serverToClientBytes());
    }

    @Test
    void truncateOfTheClientStreamDeliversExactlyThePrefixToTheServer() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        proxy.on(CLIENT_TO_SERVER).atOffset(3000).truncate().onNextConnection();
        byte[] data = random(10_000, 4);
        Socket socket = connect(proxy);
        socket.getOutputStream().write(data);
        Peer peer = server.awaitPeer(0, WAIT);
        assertEquals(End.EOF, peer.awaitEnd(WAIT));
        assertArrayEquals(Arrays.copyOf(data, 3000), peer.received());
        // the client got a FIN at the same moment: at most part of the echo, then the end of the stream
        byte[] echoed = readToEnd(socket.getInputStream());
        assertArrayEquals(Arrays.copyOf(data, echoed.length), echoed);
    }

    @Test
    void resetSendsAnRstToBothPeers() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        FaultRule rule = proxy.on(SERVER_TO_CLIENT).atOffset(500).reset().onNextConnection();
        Socket socket = connect(proxy);
        socket.getOutputStream().write(random(1000, 5));
        IOException e = assertThrows(IOException.class, () -> readToEnd(socket.getInputStream()));
        assertTrue(e.getMessage().contains("reset"), e.toString());
        Peer peer = server.awaitPeer(0, WAIT);
        assertEquals(End.RESET, peer.awaitEnd(WAIT), peer.endDetail());
        assertTrue(rule.awaitFired(WAIT));
        assertEquals(1, proxy.awaitStats(s -> s.open() == 0, WAIT).faultsFired(Action.RESET));
    }

    @Test
    void delayHoldsBackEveryChunkFromTheOffsetOn() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        Duration latency = Duration.ofMillis(400);
        proxy.on(SERVER_TO_CLIENT).atOffset(1).delay(latency).onNextConnection();
        Socket socket = connect(proxy);
        long start = System.nanoTime();
        assertEquals(1, ping(socket, 1)); // offset 0: not delayed
        long first = System.nanoTime() - start;
        for (int i = 2; i <= 3; i++) {
            long t = System.nanoTime();
            assertEquals(i, ping(socket, i));
            assertTrue(System.nanoTime() - t >= latency.toNanos(), "round trip " + i + " delayed");
        }
        assertTrue(first < latency.toNanos(), "first round trip not delayed: " + first + " ns");
        assertEquals(1, proxy.stats().faultsFired(Action.DELAY));
    }

    @Test
    void stallOfTheServerHelloHoldsItBackUntilReleased() throws Exception {
        byte[] hello = "HELLO".getBytes(StandardCharsets.US_ASCII);
        LoopbackServer server = server(LoopbackServer.greetThenEcho(hello));
        FaultProxy proxy = proxy(server);
        FaultRule rule = proxy.on(SERVER_TO_CLIENT).atOffset(0).stall().onNextConnection();
        Socket socket = connect(proxy);
        assertTrue(rule.awaitFired(WAIT));
        assertQuiet(socket);
        // the other direction still flows
        socket.getOutputStream().write('x');
        assertEquals('x', server.awaitPeer(0, WAIT).awaitReceived(1, WAIT)[0]);
        proxy.releaseStalls();
        assertArrayEquals("HELLOx".getBytes(StandardCharsets.US_ASCII), readExactly(socket.getInputStream(), 6));
        assertEquals('y', ping(socket, 'y'));
        assertEquals(1, proxy.stats().faultsFired(Action.STALL));
    }

    @Test
    void anOffsetAlreadyPassedFiresAtTheNextByte() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        Socket socket = connect(proxy);
        for (int i = 0; i < 10; i++) {
            assertEquals(i, ping(socket, i));
        }
        proxy.on(SERVER_TO_CLIENT).atOffset(3).flip().onConnection(1);
        assertEquals(0x55 ^ 0xFF, ping(socket, 0x55));
        assertEquals(0x56, ping(socket, 0x56));
    }

    // ------------------------------------------------------------------ markers

    @Test
    void aMarkerSplitAcrossReadsIsFoundAndTheOffsetCountsFromItsEnd() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        FaultRule rule = proxy.on(CLIENT_TO_SERVER).afterMarker(CLIENT_TO_SERVER, "marker-123").plusBytes(5)
                .truncate().once();
        Socket socket = connect(proxy);
        OutputStream out = socket.getOutputStream();
        out.write("aaamarker-".getBytes(StandardCharsets.US_ASCII));
        Peer peer = server.awaitPeer(0, WAIT);
        peer.awaitReceived(10, WAIT); // the first half went through on its own: the proxy read it as one chunk
        assertFalse(rule.fired());
        out.write("123".getBytes(StandardCharsets.US_ASCII));
        peer.awaitReceived(13, WAIT);
        out.write("0123456789".getBytes(StandardCharsets.US_ASCII));
        assertEquals(End.EOF, peer.awaitEnd(WAIT));
        assertEquals("aaamarker-12301234", new String(peer.received(), StandardCharsets.US_ASCII));
        assertTrue(rule.fired());
    }

    @Test
    void aMarkerWithARepeatedPrefixIsFoundAcrossReads() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        proxy.on(CLIENT_TO_SERVER).afterMarker(CLIENT_TO_SERVER, "aab").flip().once();
        Socket socket = connect(proxy);
        OutputStream out = socket.getOutputStream();
        out.write("xaa".getBytes(StandardCharsets.US_ASCII));
        Peer peer = server.awaitPeer(0, WAIT);
        peer.awaitReceived(3, WAIT);
        out.write("abZZ".getBytes(StandardCharsets.US_ASCII));
        byte[] received = peer.awaitReceived(7, WAIT);
        byte[] expected = "xaaabZZ".getBytes(StandardCharsets.US_ASCII);
        expected[5] ^= (byte) 0xFF;
        assertArrayEquals(expected, received);
    }

    @Test
    void aMarkerSeenClientToServerTriggersAFaultInTheServersAnswer() throws Exception {
        int answer = 100_000;
        LoopbackServer server = server(LoopbackServer.answerLines(answer));
        FaultProxy proxy = proxy(server);
        FaultRule rule = proxy.on(SERVER_TO_CLIENT).afterMarker(CLIENT_TO_SERVER, "marker-123").plusBytes(5000)
                .truncate().once();
        Socket socket = connect(proxy);
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        out.write("SELECT 1\n".getBytes(StandardCharsets.US_ASCII));
        assertArrayEquals(LoopbackServer.pattern(answer), readExactly(in, answer)); // no marker: untouched
        out.write("SELECT 2 -- marker-123\n".getBytes(StandardCharsets.US_ASCII));
        assertArrayEquals(Arrays.copyOf(LoopbackServer.pattern(answer), 5000), readToEnd(in));
        assertTrue(rule.fired());
        assertEquals(End.EOF, server.awaitPeer(0, WAIT).awaitEnd(WAIT));
    }

    @Test
    void aMarkerCanResetTheAnswerOfTheConnectionThatSentIt() throws Exception {
        LoopbackServer server = server(LoopbackServer.answerLines(1_000_000));
        FaultProxy proxy = proxy(server);
        Socket idle = connect(proxy);
        Socket busy = connect(proxy);
        FaultRule rule = proxy.on(SERVER_TO_CLIENT).afterMarker(CLIENT_TO_SERVER, "marker-456").plusBytes(5000)
                .reset().once();
        busy.getOutputStream().write("SELECT 3 -- marker-456\n".getBytes(StandardCharsets.US_ASCII));
        assertThrows(IOException.class, () -> readToEnd(busy.getInputStream()));
        assertTrue(rule.awaitFired(WAIT));
        Peer peer = server.awaitPeer(1, WAIT);
        assertEquals(End.RESET, peer.awaitEnd(WAIT), peer.endDetail());
        // the other connection is untouched
        idle.getOutputStream().write("SELECT 4 -- marker-456\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals(1_000_000, idle.getInputStream().readNBytes(1_000_000).length);
    }

    // ------------------------------------------------------------------ which connections

    @Test
    void onConnectionFiresOnlyOnThatConnection() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        FaultRule rule = proxy.on(SERVER_TO_CLIENT).atOffset(0).flip().onConnection(2);
        Socket[] sockets = {connect(proxy), connect(proxy), connect(proxy)};
        assertEquals(0x11, ping(sockets[0], 0x11));
        assertEquals(0x22 ^ 0xFF, ping(sockets[1], 0x22));
        assertEquals(0x33, ping(sockets[2], 0x33));
        assertEquals(0x44, ping(sockets[1], 0x44));
        assertEquals(1, rule.firedCount());
    }

    @Test
    void onNextConnectionSkipsConnectionsAlreadyOpen() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        Socket first = connect(proxy);
        proxy.awaitStats(s -> s.accepted() == 1, WAIT);
        proxy.on(SERVER_TO_CLIENT).atOffset(0).flip().onNextConnection();
        assertEquals(0x11, ping(first, 0x11));
        Socket second = connect(proxy);
        assertEquals(0x22 ^ 0xFF, ping(second, 0x22));
        assertEquals(0x33, ping(connect(proxy), 0x33));
    }

    @Test
    void onceFiresOnTheFirstConnectionToReachTheOffsetOnly() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        Socket first = connect(proxy);
        Socket second = connect(proxy);
        proxy.awaitStats(s -> s.open() == 2, WAIT);
        FaultRule rule = proxy.on(SERVER_TO_CLIENT).atOffset(0).flip().once();
        assertEquals(0x11 ^ 0xFF, ping(second, 0x11));
        assertEquals(0x22, ping(first, 0x22));
        assertEquals(0x33, ping(connect(proxy), 0x33));
        assertEquals(1, rule.firedCount());
    }

    @Test
    void onEveryConnectionFiresOncePerConnectionUntilCancelled() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        Socket first = connect(proxy);
        assertEquals(0x0E, ping(first, 0x0E));
        assertEquals(0x0F, ping(first, 0x0F));
        FaultRule rule = proxy.on(SERVER_TO_CLIENT).atOffset(1).flip().onEveryConnection();
        assertEquals(0x10 ^ 0xFF, ping(first, 0x10)); // already past offset 1: the next byte
        assertEquals(0x11, ping(first, 0x11));
        Socket second = connect(proxy);
        assertEquals(0x20, ping(second, 0x20));
        assertEquals(0x21 ^ 0xFF, ping(second, 0x21));
        assertEquals(0x22, ping(second, 0x22));
        assertEquals(2, rule.firedCount());
        rule.cancel();
        Socket third = connect(proxy);
        assertEquals(0x30, ping(third, 0x30));
        assertEquals(0x31, ping(third, 0x31));
        assertEquals(2, rule.firedCount());
    }

    @Test
    void clearRulesRemovesRulesThatDidNotFire() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        FaultRule rule = proxy.on(SERVER_TO_CLIENT).atOffset(0).reset().onEveryConnection();
        proxy.clearRules();
        assertEquals(0x11, ping(connect(proxy), 0x11));
        assertFalse(rule.awaitFired(Duration.ZERO));
    }

    // ------------------------------------------------------------------ whole-proxy actions

    @Test
    void stallAllAndReleaseStalls() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        Socket a = connect(proxy);
        Socket b = connect(proxy);
        assertEquals(1, ping(a, 1));
        assertEquals(2, ping(b, 2));
        proxy.stallAll(SERVER_TO_CLIENT);
        a.getOutputStream().write(3);
        b.getOutputStream().write(4);
        server.awaitPeer(0, WAIT).awaitReceived(2, WAIT);
        server.awaitPeer(1, WAIT).awaitReceived(2, WAIT);
        assertQuiet(a);
        assertQuiet(b);
        proxy.releaseStalls();
        assertEquals(3, a.getInputStream().read());
        assertEquals(4, b.getInputStream().read());
        assertEquals(2, proxy.stats().faultsFired(Action.STALL));
        // a new connection is not stalled
        assertEquals(5, ping(connect(proxy), 5));
    }

    @Test
    void dropAllGracefullyEndsEveryConnectionWithoutAReset() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        Socket a = connect(proxy);
        Socket b = connect(proxy);
        assertEquals(1, ping(a, 1));
        assertEquals(2, ping(b, 2));
        proxy.dropAllGracefully();
        assertEquals(-1, a.getInputStream().read());
        assertEquals(-1, b.getInputStream().read());
        assertEquals(End.EOF, server.awaitPeer(0, WAIT).awaitEnd(WAIT));
        assertEquals(End.EOF, server.awaitPeer(1, WAIT).awaitEnd(WAIT));
        a.close();
        b.close();
        assertEquals(2, proxy.awaitStats(s -> s.open() == 0, WAIT).faultsFired(Action.TRUNCATE));
        assertEquals(3, ping(connect(proxy), 3));
    }

    @Test
    void resetAllResetsBothSidesOfEveryConnection() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        Socket a = connect(proxy);
        Socket b = connect(proxy);
        assertEquals(1, ping(a, 1));
        assertEquals(2, ping(b, 2));
        proxy.resetAll();
        assertThrows(IOException.class, () -> a.getInputStream().read());
        assertThrows(IOException.class, () -> b.getInputStream().read());
        assertEquals(End.RESET, server.awaitPeer(0, WAIT).awaitEnd(WAIT));
        assertEquals(End.RESET, server.awaitPeer(1, WAIT).awaitEnd(WAIT));
        assertEquals(2, proxy.awaitStats(s -> s.open() == 0, WAIT).faultsFired(Action.RESET));
        assertEquals(3, ping(connect(proxy), 3));
    }

    // ------------------------------------------------------------------ close

    @Test
    void closeEndsConnectionsGracefullyAndLeavesNoThreads() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = new FaultProxy("127.0.0.1", server.port());
        String prefix = proxy.threadNamePrefix();
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            sockets.add(connect(proxy));
            assertEquals(i, ping(sockets.get(i), i));
        }
        proxy.on(SERVER_TO_CLIENT).atOffset(0).stall().onConnection(1);
        proxy.on(CLIENT_TO_SERVER).atOffset(0).delay(Duration.ofHours(1)).onConnection(2);
        sockets.get(0).getOutputStream().write(1); // its answer is stalled
        sockets.get(1).getOutputStream().write(1); // held back for an hour
        proxy.awaitStats(s -> s.faultsFired(Action.STALL) == 1 && s.faultsFired(Action.DELAY) == 1, WAIT);
        assertTrue(liveThreads(prefix) >= 25, "acceptor and two threads per connection");

        proxy.close();
        assertEquals(0, liveThreads(prefix));
        for (int i = 0; i < sockets.size(); i++) {
            assertEquals(End.EOF, server.awaitPeer(i, WAIT).awaitEnd(WAIT), "connection " + i);
        }
        proxy.close(); // idempotent
        assertThrows(IOException.class, () -> new Socket(proxy.host(), proxy.port()).close());
    }

    private static long liveThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix))
                .count();
    }

    @Test
    void builderRejectsNonsense() throws Exception {
        LoopbackServer server = server(LoopbackServer.ECHO);
        FaultProxy proxy = proxy(server);
        assertThrows(IllegalArgumentException.class, () -> proxy.on(SERVER_TO_CLIENT).atOffset(-1));
        assertThrows(IllegalArgumentException.class,
                () -> proxy.on(SERVER_TO_CLIENT).afterMarker(CLIENT_TO_SERVER, ""));
        assertThrows(IllegalArgumentException.class,
                () -> proxy.on(SERVER_TO_CLIENT).atOffset(0).delay(Duration.ZERO));
        assertThrows(IllegalArgumentException.class,
                () -> proxy.on(SERVER_TO_CLIENT).atOffset(0).reset().onConnection(0));
        assertThrows(IllegalStateException.class, () -> proxy.awaitStats(s -> s.accepted() > 0, Duration.ZERO));
        assertTrue(proxy.on(SERVER_TO_CLIENT).afterMarker(CLIENT_TO_SERVER, "m").plusBytes(3).reset().once()
                .toString().contains("RESET SERVER_TO_CLIENT after marker \"m\" in CLIENT_TO_SERVER +3, once"));
    }
}
