package dev.clickhousetcp.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * A loopback TCP proxy in front of one target {@code host:port} that injects network faults into the
 * connections it forwards: added latency, stalls, graceful ends (FIN), resets (RST) and flipped bytes, in
 * either direction, at a chosen byte offset or a chosen number of bytes after a marker byte sequence.
 *
 * <p><b>Shape.</b> The proxy listens on {@code 127.0.0.1} on an ephemeral {@link #port()} from construction
 * on. Every accepted connection (numbered 1, 2, 3, ... in accept order, counting those whose target
 * could not be reached too) gets its own connection to the target and two forwarding threads, one per
 * {@link Direction}. Without faults, bytes pass unchanged and
 * a FIN from one peer is passed on to the other (half-close); a reset from the server is passed on to the
 * client as a reset; a reset or disappearance of the client ends the server side gracefully. If the target
 * cannot be reached, the accepted connection is closed at once (the client sees the end of the stream,
 * not "connection refused") and {@link Stats#failedConnects()} counts it.
 *
 * <p><b>Rules.</b> A fault is described by a rule, built in four steps: direction, trigger, action and
 * which connections:
 * <pre>{@code
 * // reset the server's answer 5000 bytes after the client sent the query containing "marker-123"
 * FaultRule rule = proxy.on(Direction.SERVER_TO_CLIENT)
 *         .afterMarker(Direction.CLIENT_TO_SERVER, "marker-123").plusBytes(5000)
 *         .reset()
 *         .once();
 * // hold back the server Hello of the next connection, to test handshake timeouts
 * proxy.on(Direction.SERVER_TO_CLIENT).atOffset(0).stall().onNextConnection();
 * // corrupt the 300 000th byte the server sends on the next connection
 * proxy.on(Direction.SERVER_TO_CLIENT).atOffset(300_000).flip().onNextConnection();
 * }</pre>
 * A trigger resolves to a <em>fault offset</em> in the fault's direction: bytes before it are forwarded
 * normally, and the action takes effect when the byte at the fault offset arrives from its sender (so a
 * fault at the very end of what a peer ever sends never fires). See {@link TriggerStep} for the triggers,
 * {@link ActionStep} for the actions and {@link ScopeStep} for the choice of connections. A rule applies to
 * matching connections already open when it is added as well as to later ones; on a connection that
 * already passed an absolute offset, the fault fires at the next byte in that direction.
 *
 * <p><b>Whole-proxy actions</b> act on the connections open at the time of the call:
 * {@link #dropAllGracefully()}, {@link #resetAll()}, {@link #stallAll(Direction)}; {@link #releaseStalls()}
 * lets every stalled direction flow again.
 *
 * <p><b>Graceful ends</b> ({@link Action#TRUNCATE}, {@link #dropAllGracefully()}, {@link #close()}) send a
 * FIN to both peers and then read and discard whatever they still send until each closes its side, so
 * neither peer ever sees a reset: the server sees a client that went away. The server must be between
 * packets from the client for this to look like a clean disconnect; mid-packet it sees a truncated packet.
 * Resets ({@link Action#RESET}, {@link #resetAll()}) close both sockets with {@code SO_LINGER 0}; the
 * embedded 26.7 server aborts its whole process on a reset (and on flipped bytes sent to it), so use them
 * against the legacy server or a {@linkplain ClickHouseServers#startPrivate private} one.
 *
 * <p><b>Thread-safety.</b> All methods of the proxy and of {@link FaultRule} are thread-safe; the rule
 * builder steps are not (build a rule on one thread). Up to hundreds of simultaneous connections are
 * fine (two platform daemon threads each). {@link #close()} ends every connection and returns only after
 * all of the proxy's threads have ended.
 */
public final class FaultProxy implements AutoCloseable {

    /** Direction of the byte stream of a proxied connection. */
    public enum Direction {
        /** Bytes the client sends to the server (for ClickHouse: Hello, Query, Data, Ping, ...). */
        CLIENT_TO_SERVER,
        /** Bytes the server sends to the client (Hello, Data, Progress, Exception, EndOfStream, ...). */
        SERVER_TO_CLIENT;

        /** @return the other direction */
        public Direction opposite() {
            return this == CLIENT_TO_SERVER ? SERVER_TO_CLIENT : CLIENT_TO_SERVER;
        }
    }

    /** What a fault does, from its fault offset on. */
    public enum Action {
        /** Every chunk forwarded in the direction from the fault offset on is held back for a duration first. */
        DELAY,
        /** Forwarding in the direction stops at the fault offset (both sockets stay open) until
         * {@link FaultProxy#releaseStalls()}, a graceful end or a reset of the connection, or close. */
        STALL,
        /** Forwards up to the fault offset, then ends the connection gracefully (FIN to both peers, never a reset). */
        TRUNCATE,
        /** Forwards up to the fault offset, then resets both sides ({@code SO_LINGER 0} close: RST). */
        RESET,
        /** Inverts the byte at the fault offset (XOR 0xFF) and forwards everything else unchanged. */
        FLIP
    }

    /**
     * Counters of a proxy, a snapshot taken by {@link FaultProxy#stats()}. Immutable.
     *
     * @param accepted connections accepted since the proxy started
     * @param open connections currently open (accepted and not yet fully closed)
     * @param failedConnects accepted connections closed at once because the target could not be reached
     * @param clientToServerBytes bytes forwarded to the server (written to its socket)
     * @param serverToClientBytes bytes forwarded to the client
     * @param faultsFired per action, how often a fault took effect on a connection: each firing of a rule,
     *     and each connection a whole-proxy action ({@code dropAllGracefully}: TRUNCATE, {@code resetAll}:
     *     RESET, {@code stallAll}: STALL) acted on; actions that never fired are absent
     */
    public record Stats(long accepted, int open, long failedConnects, long clientToServerBytes,
            long serverToClientBytes, Map<Action, Long> faultsFired) {

        /**
         * Copies {@code faultsFired} into an immutable map.
         *
         * @param accepted connections accepted
         * @param open connections open
         * @param failedConnects connections whose target could not be reached
         * @param clientToServerBytes bytes forwarded to the server
         * @param serverToClientBytes bytes forwarded to the client
         * @param faultsFired firings per action
         * @throws NullPointerException if {@code faultsFired} is null or holds null
         */
        public Stats {
            faultsFired = Map.copyOf(faultsFired);
        }

        /**
         * @param action an action
         * @return how often that action fired, 0 if never
         */
        public long faultsFired(Action action) {
            return faultsFired.getOrDefault(action, 0L);
        }

        /**
         * @param direction a direction
         * @return bytes forwarded in that direction
         */
        public long bytes(Direction direction) {
            return direction == Direction.CLIENT_TO_SERVER ? clientToServerBytes : serverToClientBytes;
        }
    }

    static final String LOOPBACK = "127.0.0.1";
    private static final int BACKLOG = 256;
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    /** How long {@link #close()} waits for servers to close their side after the FIN. */
    private static final Duration CLOSE_DRAIN_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration THREAD_JOIN_TIMEOUT = Duration.ofSeconds(10);
    private static final long STATS_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Thread acceptor;
    private final String threadPrefix;

    /** Guards the fields below it; taken before a connection's lock, never while holding one. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled on accept, connection end and fault firing. */
    private final Condition changed = lock.newCondition();
    private final List<FaultRule> rules = new ArrayList<>();
    private final Set<ProxiedConnection> open = new LinkedHashSet<>();
    private long accepted;
    private boolean closed;

    private final AtomicLong failedConnects = new AtomicLong();
    private final AtomicLong clientToServerBytes = new AtomicLong();
    private final AtomicLong serverToClientBytes = new AtomicLong();
    private final Map<Action, AtomicLong> faultsFired = new EnumMap<>(Action.class);

    /**
     * Starts a proxy in front of {@code targetHost:targetPort}, listening on {@code 127.0.0.1} at once.
     *
     * @param targetHost host of the target, e.g. {@code 127.0.0.1}
     * @param targetPort port of the target, 1..65535
     * @throws IOException if the listening socket cannot be opened
     * @throws IllegalArgumentException if the port is out of range
     */
    public FaultProxy(String targetHost, int targetPort) throws IOException {
        Objects.requireNonNull(targetHost, "targetHost");
        if (targetPort < 1 || targetPort > 65535) {
            throw new IllegalArgumentException("targetPort out of range: " + targetPort);
        }
        for (Action action : Action.values()) {
            faultsFired.put(action, new AtomicLong());
        }
        this.target = InetSocketAddress.createUnresolved(targetHost, targetPort);
        this.listener = new ServerSocket(0, BACKLOG, InetAddress.getByName(LOOPBACK));
        this.threadPrefix = "fault-proxy-" + listener.getLocalPort() + "-";
        this.acceptor = new Thread(this::acceptLoop, threadPrefix + "accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Starts a proxy in front of the native protocol port of {@code server}.
     *
     * @param server a server
     * @return the running proxy
     * @throws UncheckedIOException if the listening socket cannot be opened
     */
    public static FaultProxy forNativePort(ClickHouseServer server) {
        try {
            return new FaultProxy(server.host(), server.tcpPort());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a proxy for " + server + ": " + e.getMessage(), e);
        }
    }

    /** @return the host the proxy listens on: {@code 127.0.0.1} */
    public String host() {
        return LOOPBACK;
    }

    /** @return the port the proxy listens on (ephemeral, fixed for the proxy's lifetime) */
    public int port() {
        return listener.getLocalPort();
    }

    /** @return the target the proxy forwards to, as given (unresolved) */
    public InetSocketAddress target() {
        return target;
    }

    /**
     * Starts a rule whose fault acts on the bytes flowing in {@code direction}.
     *
     * @param direction the direction the fault acts on
     * @return the first builder step; the rule is installed by the last step ({@link ScopeStep})
     */
    public TriggerStep on(Direction direction) {
        return new TriggerStep(Objects.requireNonNull(direction, "direction"));
    }

    /**
     * Removes every rule that has not fired yet (rules in {@link ScopeStep#onEveryConnection()} mode stop
     * firing on further connections). Faults already in effect (delays, stalls) stay.
     */
    public void clearRules() {
        List<FaultRule> copy;
        lock.lock();
        try {
            copy = new ArrayList<>(rules);
        } finally {
            lock.unlock();
        }
        copy.forEach(FaultRule::cancel);
    }

    /** Lets every stalled direction of every open connection flow again (the held-back bytes go first). */
    public void releaseStalls() {
        for (ProxiedConnection connection : openConnections()) {
            connection.releaseStalls();
        }
    }

    /**
     * Stalls {@code direction} of every open connection (a chunk being written completes first); later
     * connections are not affected. Counts one {@link Action#STALL} per connection.
     *
     * @param direction the direction to stop
     */
    public void stallAll(Direction direction) {
        Objects.requireNonNull(direction, "direction");
        for (ProxiedConnection connection : openConnections()) {
            if (connection.stall(direction)) {
                countFault(Action.STALL);
            }
        }
    }

    /**
     * Ends every open connection gracefully, as {@link Action#TRUNCATE} does: a FIN to both peers, then
     * what they still send is read and discarded until they close. New connections are still accepted.
     * Counts one {@link Action#TRUNCATE} per connection.
     */
    public void dropAllGracefully() {
        for (ProxiedConnection connection : openConnections()) {
            if (connection.endGracefully()) {
                countFault(Action.TRUNCATE);
            }
        }
    }

    /**
     * Resets every open connection: both sockets are closed with {@code SO_LINGER 0}, so both peers get
     * an RST. New connections are still accepted. Counts one {@link Action#RESET} per connection.
     */
    public void resetAll() {
        for (ProxiedConnection connection : openConnections()) {
            if (connection.reset()) {
                countFault(Action.RESET);
            }
        }
    }

    /** @return a snapshot of the counters */
    public Stats stats() {
        Map<Action, Long> fired = new EnumMap<>(Action.class);
        faultsFired.forEach((action, count) -> {
            if (count.get() > 0) {
                fired.put(action, count.get());
            }
        });
        lock.lock();
        try {
            return new Stats(accepted, open.size(), failedConnects.get(), clientToServerBytes.get(),
                    serverToClientBytes.get(), fired);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the counters satisfy {@code condition} (checked on every accept, connection end and
     * fault, and at least every 10 ms), or the timeout expires.
     *
     * @param condition a predicate over a fresh {@link #stats()} snapshot
     * @param timeout how long to wait at most
     * @return the first snapshot that satisfied {@code condition}
     * @throws IllegalStateException with the last snapshot if the timeout expired first
     * @throws InterruptedException if the calling thread was interrupted
     */
    public Stats awaitStats(Predicate<Stats> condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Stats stats = stats();
            if (condition.test(stats)) {
                return stats;
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new IllegalStateException("proxy counters did not reach the expected state within "
                        + timeout + "; last: " + stats);
            }
            lock.lock();
            try {
                changed.awaitNanos(Math.min(remaining, STATS_POLL_NANOS));
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Stops accepting, ends every connection gracefully (FIN to both peers, stalls released, what is still
     * sent discarded), waits up to 10 s for the servers to close their side, closes all sockets and waits
     * for the proxy's threads to end. Idempotent.
     *
     * @throws IllegalStateException if a proxy thread is still alive 10 s after its sockets were closed
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
        } finally {
            lock.unlock();
        }
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        join(acceptor);
        List<ProxiedConnection> remaining = openConnections();
        for (ProxiedConnection connection : remaining) {
            connection.endGracefully();
        }
        long deadline = System.nanoTime() + CLOSE_DRAIN_TIMEOUT.toNanos();
        for (ProxiedConnection connection : remaining) {
            connection.awaitServerSideClosed(deadline);
        }
        for (ProxiedConnection connection : remaining) {
            connection.forceClose();
        }
        List<String> alive = new ArrayList<>();
        for (ProxiedConnection connection : remaining) {
            for (Thread thread : connection.threads()) {
                if (!join(thread)) {
                    alive.add(thread.getName());
                }
            }
        }
        if (!alive.isEmpty() || acceptor.isAlive()) {
            throw new IllegalStateException("proxy threads still alive after close: " + alive);
        }
    }

    /** @return the prefix of the names of all threads of this proxy */
    String threadNamePrefix() {
        return threadPrefix;
    }

    @Override
    public String toString() {
        return "FaultProxy[" + LOOPBACK + ":" + port() + " -> " + target.getHostString() + ":" + target.getPort()
                + "]";
    }

    // ------------------------------------------------------------------ rule builder

    /** First builder step: what triggers the fault. Not thread-safe. */
    public final class TriggerStep {
        private final Direction direction;

        private TriggerStep(Direction direction) {
            this.direction = direction;
        }

        /**
         * The fault offset is {@code offset}: the number of bytes sent in the fault's direction on the
         * connection before the fault acts (0 = from the first byte on).
         *
         * @param offset byte offset, {@code >= 0}
         * @return the next step
         */
        public ActionStep atOffset(long offset) {
            if (offset < 0) {
                throw new IllegalArgumentException("offset must be >= 0: " + offset);
            }
            return new ActionStep(direction, offset, null, null);
        }

        /**
         * The fault offset is counted from the first occurrence of {@code marker} (UTF-8) in
         * {@code markerDirection}, found even when split across reads. In the fault's own direction, the
         * fault offset is the position right after the marker's last byte (plus {@link ActionStep#plusBytes});
         * in the opposite direction, it is the number of bytes that direction had carried when the marker
         * was complete (plus {@link ActionStep#plusBytes}). E.g. a marker in the SQL text of a query, seen
         * {@link Direction#CLIENT_TO_SERVER}, and a fault {@link Direction#SERVER_TO_CLIENT} with
         * {@code plusBytes(5000)}: the fault acts 5000 bytes into the server's answer to that query.
         *
         * @param markerDirection the direction to search
         * @param marker a non-empty string, matched as its UTF-8 bytes
         * @return the next step
         */
        public ActionStep afterMarker(Direction markerDirection, String marker) {
            return afterMarker(markerDirection, marker.getBytes(StandardCharsets.UTF_8));
        }

        /**
         * Like {@link #afterMarker(Direction, String)}, with the marker's raw bytes.
         *
         * @param markerDirection the direction to search
         * @param marker non-empty byte sequence (copied)
         * @return the next step
         */
        public ActionStep afterMarker(Direction markerDirection, byte[] marker) {
            Objects.requireNonNull(markerDirection, "markerDirection");
            if (marker.length == 0) {
                throw new IllegalArgumentException("marker must not be empty");
            }
            return new ActionStep(direction, 0, markerDirection, marker.clone());
        }
    }

    /** Second builder step: optionally move the fault offset, then choose the action. Not thread-safe. */
    public final class ActionStep {
        private final Direction direction;
        private final long offset;
        private final Direction markerDirection;
        private final byte[] marker;

        private ActionStep(Direction direction, long offset, Direction markerDirection, byte[] marker) {
            this.direction = direction;
            this.offset = offset;
            this.markerDirection = markerDirection;
            this.marker = marker;
        }

        /**
         * Moves the fault offset {@code bytes} further.
         *
         * @param bytes byte count, {@code >= 0}
         * @return a step with the moved offset
         */
        public ActionStep plusBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("bytes must be >= 0: " + bytes);
            }
            return new ActionStep(direction, Math.addExact(offset, bytes), markerDirection, marker);
        }

        /**
         * Holds back every chunk (one read of up to 64 KiB) forwarded in the direction from the fault offset
         * on for {@code latency} before writing it; throughput drops to at most one chunk per latency.
         *
         * @param latency added latency per chunk, positive
         * @return the next step
         */
        public ScopeStep delay(Duration latency) {
            if (latency.isNegative() || latency.isZero()) {
                throw new IllegalArgumentException("latency must be positive: " + latency);
            }
            return new ScopeStep(this, Action.DELAY, latency);
        }

        /** @return the next step, for {@link Action#STALL} */
        public ScopeStep stall() {
            return new ScopeStep(this, Action.STALL, null);
        }

        /** @return the next step, for {@link Action#TRUNCATE} */
        public ScopeStep truncate() {
            return new ScopeStep(this, Action.TRUNCATE, null);
        }

        /** @return the next step, for {@link Action#RESET} */
        public ScopeStep reset() {
            return new ScopeStep(this, Action.RESET, null);
        }

        /** @return the next step, for {@link Action#FLIP} */
        public ScopeStep flip() {
            return new ScopeStep(this, Action.FLIP, null);
        }
    }

    /** Last builder step: which connections; installs the rule. Not thread-safe. */
    public final class ScopeStep {
        private final ActionStep trigger;
        private final Action action;
        private final Duration latency;

        private ScopeStep(ActionStep trigger, Action action, Duration latency) {
            this.trigger = trigger;
            this.action = action;
            this.latency = latency;
        }

        /**
         * Fires once overall: on the first connection, open or accepted later, that reaches the fault
         * offset. Then the rule is spent.
         *
         * @return the installed rule
         */
        public FaultRule once() {
            return install(FaultRule.Scope.ONCE, 0);
        }

        /**
         * Fires once on each connection, open or accepted later, that reaches the fault offset, until
         * {@link FaultRule#cancel()}.
         *
         * @return the installed rule
         */
        public FaultRule onEveryConnection() {
            return install(FaultRule.Scope.EVERY, 0);
        }

        /**
         * Fires only on the next connection the proxy accepts after this call, once.
         *
         * @return the installed rule
         */
        public FaultRule onNextConnection() {
            return install(FaultRule.Scope.CONNECTION, -1);
        }

        /**
         * Fires only on the {@code n}-th connection the proxy accepts (1-based, counting from the proxy's
         * start; it may already be open), once.
         *
         * @param n connection number, {@code >= 1}
         * @return the installed rule
         */
        public FaultRule onConnection(long n) {
            if (n < 1) {
                throw new IllegalArgumentException("connection numbers start at 1: " + n);
            }
            return install(FaultRule.Scope.CONNECTION, n);
        }

        private FaultRule install(FaultRule.Scope scope, long connection) {
            List<ProxiedConnection> arm = new ArrayList<>();
            FaultRule rule;
            lock.lock();
            try {
                long number = connection == -1 ? accepted + 1 : connection;
                rule = new FaultRule(FaultProxy.this, trigger.direction, action, latency, trigger.offset,
                        trigger.markerDirection, trigger.marker, scope, number);
                rules.add(rule);
                for (ProxiedConnection c : open) {
                    if (rule.appliesTo(c.number())) {
                        arm.add(c);
                    }
                }
                // arming under the proxy lock: a connection accepted concurrently is armed exactly once
                for (ProxiedConnection c : arm) {
                    c.arm(rule);
                }
            } finally {
                lock.unlock();
            }
            return rule;
        }
    }

    // ------------------------------------------------------------------ internals

    void removeRule(FaultRule rule) {
        lock.lock();
        try {
            rules.remove(rule);
        } finally {
            lock.unlock();
        }
    }

    void countFault(Action action) {
        faultsFired.get(action).incrementAndGet();
        signalChanged();
    }

    void countForwarded(Direction direction, int bytes) {
        (direction == Direction.CLIENT_TO_SERVER ? clientToServerBytes : serverToClientBytes).addAndGet(bytes);
    }

    void connectionEnded(ProxiedConnection connection) {
        lock.lock();
        try {
            open.remove(connection);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void signalChanged() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private List<ProxiedConnection> openConnections() {
        lock.lock();
        try {
            return new ArrayList<>(open);
        } finally {
            lock.unlock();
        }
    }

    private void acceptLoop() {
        while (true) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                if (listener.isClosed()) {
                    return;
                }
                continue;
            }
            Socket server = new Socket();
            try {
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                server.connect(new InetSocketAddress(target.getHostString(), target.getPort()),
                        CONNECT_TIMEOUT_MILLIS);
            } catch (IOException e) {
                closeQuietly(server);
                closeQuietly(client);
                lock.lock();
                try {
                    accepted++;
                    failedConnects.incrementAndGet();
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
                continue;
            }
            ProxiedConnection connection;
            lock.lock();
            try {
                if (closed) {
                    closeQuietly(server);
                    closeQuietly(client);
                    return;
                }
                long number = ++accepted;
                try {
                    connection = new ProxiedConnection(this, number, client, server, threadPrefix + number);
                } catch (IOException e) {
                    failedConnects.incrementAndGet(); // under the lock, with accepted
                    closeQuietly(server);
                    closeQuietly(client);
                    changed.signalAll();
                    continue;
                }
                open.add(connection);
                for (FaultRule rule : rules) {
                    if (rule.appliesTo(number)) {
                        connection.arm(rule);
                    }
                }
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            connection.start();
        }
    }

    private static boolean join(Thread thread) {
        try {
            thread.join(THREAD_JOIN_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
