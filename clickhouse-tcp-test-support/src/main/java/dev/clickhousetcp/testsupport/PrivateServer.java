package dev.clickhousetcp.testsupport;

import dev.clickhousetcp.testsupport.ClickHouseServer.Kind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * A private, throwaway ClickHouse server of either kind, for tests that kill, restart or fault a server
 * (which must never happen to the shared servers of {@link ClickHouseServers#modern()} and
 * {@link ClickHouseServers#legacy()}). Obtain one with {@link ClickHouseServers#startPrivate(Kind)}.
 *
 * <p><b>What it is.</b> The same server the shared one of its kind is, started by
 * {@code scripts/clickhouse-server.sh} with its own state directory ({@code CLICKHOUSE_TCP_STATE} =
 * {@code <java.io.tmpdir>/clickhouse-tcp-private/<kind>-<random>}) and its own free ports on
 * {@code 127.0.0.1}, chosen below the kernel's ephemeral port range (so client sockets never take them
 * while the server is down). The ports stay the same for the handle's lifetime: after {@link #kill()} or
 * {@link #stop()}, {@link #start()} brings the server back on them and pooled clients can reconnect. The
 * users, configuration, TLS material (legacy) and log files are the shared server's, under
 * {@link #stateDirectory()}; tables in {@code default} survive restarts, the modern server's system log
 * tables do not.
 *
 * <p><b>Cleanup.</b> {@link #close()} kills the server and deletes its state. A JVM that exits with
 * handles still open kills their servers in a shutdown hook; servers left behind by a JVM that was
 * killed are killed and their state deleted by the next {@link ClickHouseServers#startPrivate(Kind)}
 * of any JVM.
 *
 * <p><b>Thread-safety.</b> All methods are thread-safe; lifecycle methods ({@code start}, {@code stop},
 * {@code restart}, {@code kill}, {@code close}) are serialized per handle.
 */
public final class PrivateServer implements AutoCloseable {

    private static final String BASE_DIRECTORY = "clickhouse-tcp-private";
    private static final String OWNER_FILE = "owner";
    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(30);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** A state directory without an owner file is left alone this long (it may be being created). */
    private static final Duration UNOWNED_GRACE = Duration.ofMinutes(10);
    private static final int START_ATTEMPTS = 3;
    private static final int LOWEST_PORT = 20_000;
    private static final Set<Integer> SHARED_PORTS = Set.of(18123, 19000, 28123, 29000, 29440);

    private static final Set<PrivateServer> OPEN = ConcurrentHashMap.newKeySet();

    static {
        Thread hook = new Thread(() -> {
            for (PrivateServer server : OPEN) {
                try {
                    server.close();
                } catch (RuntimeException e) {
                    // best effort while the JVM exits
                }
            }
        }, "private-clickhouse-server-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private final Kind kind;
    private final Path stateRoot;
    private final ClickHouseServer server;
    private final Map<String, String> environment;

    private final ReentrantLock lock = new ReentrantLock();
    private volatile long pid = -1;
    private volatile Instant pidStart;
    private boolean closed; // guarded by lock

    private PrivateServer(Kind kind, Path stateRoot, int[] ports) {
        this.kind = kind;
        this.stateRoot = stateRoot;
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CLICKHOUSE_TCP_STATE", stateRoot.toString());
        if (kind == Kind.MODERN) {
            env.put("CLICKHOUSE_MODERN_TCP_PORT", Integer.toString(ports[0]));
            env.put("CLICKHOUSE_MODERN_HTTP_PORT", Integer.toString(ports[1]));
            this.server = new ClickHouseServer(kind, FaultProxy.LOOPBACK, ports[0], ports[1], -1, null);
        } else {
            env.put("CLICKHOUSE_LEGACY_TCP_PORT", Integer.toString(ports[0]));
            env.put("CLICKHOUSE_LEGACY_HTTP_PORT", Integer.toString(ports[1]));
            env.put("CLICKHOUSE_LEGACY_TLS_PORT", Integer.toString(ports[2]));
            this.server = new ClickHouseServer(kind, FaultProxy.LOOPBACK, ports[0], ports[1], ports[2],
                    stateRoot.resolve(kind.scriptName()).resolve("server.crt"));
        }
        this.environment = Map.copyOf(env);
    }

    /** See {@link ClickHouseServers#startPrivate(Kind)}. */
    static PrivateServer start(Kind kind) {
        Path base = baseDirectory();
        sweepAbandoned(base);
        IllegalStateException last = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            PrivateServer server = new PrivateServer(kind, createStateRoot(base, kind),
                    freePorts(kind == Kind.MODERN ? 2 : 3));
            OPEN.add(server);
            try {
                server.start();
                return server;
            } catch (IllegalStateException e) {
                last = e;
                server.close();
                // another process took a chosen port between the check and the start: new ports
                if (e.getMessage() == null || !e.getMessage().contains("already in use")) {
                    throw e;
                }
            }
        }
        throw last;
    }

    /** @return which server this is */
    public Kind kind() {
        return kind;
    }

    /** @return the server's address (its ports stay the same across restarts); valid while it is down, too */
    public ClickHouseServer server() {
        return server;
    }

    /**
     * @return the server's state directory ({@code <state>/modern} or {@code <state>/legacy}): its
     *     configuration, data, logs and, for the legacy server, TLS certificates and keys (see
     *     docs/servers.md); deleted by {@link #close()}
     */
    public Path stateDirectory() {
        return stateRoot.resolve(kind.scriptName());
    }

    /**
     * @return the process id of the server as last started by this handle (still the old one after
     *     {@link #kill()} or {@link #stop()}, so a test can check that process is gone), or -1 if it was
     *     never started
     */
    public long pid() {
        return pid;
    }

    /**
     * Whether the server process is running and answers {@code /ping} (2 s timeout). Never throws.
     *
     * @return true if both hold
     */
    public boolean isAlive() {
        return processAlive(pid, pidStart) && server.isAlive();
    }

    /**
     * Starts the server on its ports, or leaves it alone if it is running and answering; a dead or hung
     * one is replaced. Blocks until it answers.
     *
     * @throws IllegalStateException if it cannot be started (the message has the end of the script's
     *     output), or the handle is closed
     */
    public void start() {
        runLocked("start");
    }

    /**
     * Stops the server: SIGTERM to its process group (SIGKILL after 30 s), then waits until its ports are
     * closed. A stopped server is left alone.
     *
     * @throws IllegalStateException if the script fails, or the handle is closed
     */
    public void stop() {
        runLocked("stop");
    }

    /**
     * {@link #stop()}, then {@link #start()} on the same ports.
     *
     * @throws IllegalStateException as those do
     */
    public void restart() {
        runLocked("restart");
    }

    /**
     * Kills the server process (and any child) with SIGKILL, as a crash would, and waits until it is gone;
     * its ports are closed then. Does nothing if it is not running. {@link #start()} brings it back.
     *
     * @throws IllegalStateException if the process is still alive 30 s after SIGKILL
     */
    public void kill() {
        lock.lock();
        try {
            killProcess(pid, pidStart);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Kills the server (SIGKILL: its state is deleted anyway, nothing needs flushing) and deletes its state
     * directory. Idempotent; after it, the other lifecycle methods throw.
     *
     * @throws IllegalStateException if the process survived SIGKILL for 30 s
     * @throws UncheckedIOException if the state directory cannot be deleted
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            killProcess(pid, pidStart);
            // a server launched by a start that then failed
            readPidFile(stateRoot, kind).filter(p -> commandLineMentions(p, stateRoot))
                    .ifPresent(p -> killProcess(p, null));
            deleteRecursively(stateRoot);
        } finally {
            OPEN.remove(this);
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "PrivateServer[" + server + " pid=" + pid + " state=" + stateRoot + "]";
    }

    // ------------------------------------------------------------------ internals

    private void runLocked(String action) {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException(this + " is closed");
            }
            ClickHouseServers.runScript(List.of(action, kind.scriptName()), environment,
                    kind.scriptName() + " " + stateRoot.getFileName(), false);
            if (!action.equals("stop")) {
                long started = readPidFile(stateRoot, kind).orElseThrow(() -> new IllegalStateException(
                        "clickhouse-server.sh " + action + " succeeded, but " + stateDirectory()
                                + "/server.pid is missing"));
                if (started != pid) {
                    pid = started;
                    pidStart = ProcessHandle.of(started).flatMap(h -> h.info().startInstant()).orElse(null);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private static Optional<Long> readPidFile(Path stateRoot, Kind kind) {
        Path file = stateRoot.resolve(kind.scriptName()).resolve("server.pid");
        try {
            return Optional.of(Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).strip()));
        } catch (NoSuchFileException | NumberFormatException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * Whether process {@code pid} runs (a zombie only while some of its threads still exit) and, if
     * {@code started} is known, is the process started then (not a reused pid).
     */
    static boolean processAlive(long pid, Instant started) {
        if (pid <= 0) {
            return false;
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return false;
        }
        if (started != null) {
            Optional<Instant> actual = handle.get().info().startInstant();
            if (actual.isPresent() && !actual.get().equals(started)) {
                return false;
            }
        }
        Path proc = Path.of("/proc", Long.toString(pid));
        try {
            String stat = Files.readString(proc.resolve("stat"), StandardCharsets.UTF_8);
            // the state follows the parenthesized command name, which may contain spaces
            int close = stat.lastIndexOf(')');
            boolean zombie = close > 0 && close + 2 < stat.length() && stat.charAt(close + 2) == 'Z';
            if (!zombie) {
                return true;
            }
            // a zombie leader whose other threads are still exiting still holds the process's files
            // (its listening sockets among them): it is gone only when no other thread is left
            try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
                return tasks.anyMatch(task -> !task.getFileName().toString().equals(Long.toString(pid)));
            }
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException | UncheckedIOException e) {
            return handle.get().isAlive();
        }
    }

    private static void killProcess(long pid, Instant started) {
        if (!processAlive(pid, started)) {
            return;
        }
        ProcessHandle handle = ProcessHandle.of(pid).orElse(null);
        if (handle == null) {
            return;
        }
        List<ProcessHandle> tree = new ArrayList<>();
        handle.descendants().forEach(tree::add);
        tree.add(handle);
        tree.forEach(ProcessHandle::destroyForcibly);
        long deadline = System.nanoTime() + KILL_TIMEOUT.toNanos();
        for (ProcessHandle p : tree) {
            Instant start = p.info().startInstant().orElse(null);
            while (processAlive(p.pid(), start)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("process " + p.pid() + " still alive " + KILL_TIMEOUT
                            + " after SIGKILL");
                }
                LockSupport.parkNanos(POLL_NANOS);
            }
        }
    }

    // ------------------------------------------------------------------ state directories

    private static Path baseDirectory() {
        Path base = Path.of(System.getProperty("java.io.tmpdir"), BASE_DIRECTORY).toAbsolutePath();
        try {
            Files.createDirectories(base);
            // the legacy server runs as the clickhouse user when tests run as root: it must reach its state
            Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException | UnsupportedOperationException e) {
            if (!Files.isDirectory(base)) {
                throw new UncheckedIOException(new IOException("cannot create " + base, e));
            }
        }
        return base;
    }

    static Path createStateRoot(Path base, Kind kind) {
        try {
            Path root = Files.createTempDirectory(base, kind.scriptName() + "-");
            Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
            ProcessHandle self = ProcessHandle.current();
            String owner = self.pid() + " " + self.info().startInstant().map(Instant::toEpochMilli).orElse(0L) + "\n";
            Files.writeString(root.resolve(OWNER_FILE), owner, StandardCharsets.US_ASCII);
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a private state directory in " + base, e);
        }
    }

    /** Kills the servers and deletes the state of private servers whose JVM is gone. */
    static void sweepAbandoned(Path base) {
        List<Path> roots = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(base, Files::isDirectory)) {
            dirs.forEach(roots::add);
        } catch (IOException e) {
            return; // nothing to sweep
        }
        for (Path root : roots) {
            try {
                if (!abandoned(root)) {
                    continue;
                }
                for (Kind kind : Kind.values()) {
                    Optional<Long> serverPid = readPidFile(root, kind);
                    if (serverPid.isPresent() && commandLineMentions(serverPid.get(), root)) {
                        killProcess(serverPid.get(), null);
                    }
                }
                deleteRecursively(root);
            } catch (RuntimeException | IOException e) {
                // another JVM may be sweeping the same directory; leave it
            }
        }
    }

    private static boolean abandoned(Path root) throws IOException {
        Path ownerFile = root.resolve(OWNER_FILE);
        if (!Files.exists(ownerFile)) {
            FileTime modified = Files.getLastModifiedTime(root);
            return modified.toInstant().isBefore(Instant.now().minus(UNOWNED_GRACE));
        }
        String[] owner = Files.readString(ownerFile, StandardCharsets.US_ASCII).strip().split(" ");
        long ownerPid = Long.parseLong(owner[0]);
        long ownerStart = owner.length > 1 ? Long.parseLong(owner[1]) : 0;
        Optional<ProcessHandle> handle = ProcessHandle.of(ownerPid);
        if (handle.isEmpty() || !processAlive(ownerPid, null)) {
            return true;
        }
        long actualStart = handle.get().info().startInstant().map(Instant::toEpochMilli).orElse(0L);
        return ownerStart != 0 && actualStart != 0 && actualStart != ownerStart;
    }

    private static boolean commandLineMentions(long pid, Path root) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').contains(root.toString() + "/");
        } catch (IOException e) {
            return false;
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    // ------------------------------------------------------------------ ports

    /**
     * Picks {@code count} distinct ports on 127.0.0.1 that are free now, at random between 20000 and the
     * start of the ephemeral range (never the shared servers' default ports).
     */
    static int[] freePorts(int count) {
        int high = ephemeralRangeStart();
        Set<Integer> chosen = new HashSet<>();
        int[] ports = new int[count];
        int found = 0;
        for (int tries = 0; found < count && tries < 10_000; tries++) {
            int port = high - LOWEST_PORT > 1000
                    ? ThreadLocalRandom.current().nextInt(LOWEST_PORT, high)
                    : anyEphemeralPort();
            if (port > 0 && !SHARED_PORTS.contains(port) && chosen.add(port) && bindable(port)) {
                ports[found++] = port;
            }
        }
        if (found < count) {
            throw new IllegalStateException("cannot find " + count + " free ports on " + FaultProxy.LOOPBACK);
        }
        return ports;
    }

    private static int ephemeralRangeStart() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range"), StandardCharsets.US_ASCII);
            return Integer.parseInt(range.strip().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }

    private static int anyEphemeralPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(FaultProxy.LOOPBACK))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            return -1;
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(FaultProxy.LOOPBACK), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
