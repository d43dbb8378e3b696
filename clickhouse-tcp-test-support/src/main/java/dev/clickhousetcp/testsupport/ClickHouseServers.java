package dev.clickhousetcp.testsupport;

import dev.clickhousetcp.testsupport.ClickHouseServer.Kind;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Hands out running ClickHouse servers for tests: {@link #modern()} (ClickHouse 26.7) and
 * {@link #legacy()} (ClickHouse 18.16).
 *
 * <p><b>Where the servers come from.</b> If the environment names a server —
 * {@code CLICKHOUSE_MODERN_TCP} and {@code CLICKHOUSE_MODERN_HTTP}, resp. {@code CLICKHOUSE_LEGACY_TCP},
 * {@code CLICKHOUSE_LEGACY_HTTP} and optionally {@code CLICKHOUSE_LEGACY_TLS} (each {@code host:port}) and
 * {@code CLICKHOUSE_LEGACY_TLS_CERT} (a PEM file) — that server is returned as it is and nothing is
 * started. Otherwise the server is the one {@code scripts/clickhouse-server.sh} runs on {@code 127.0.0.1}
 * (ports from {@code CLICKHOUSE_MODERN_TCP_PORT} etc. as the script reads them, defaults 19000/18123 and
 * 29000/28123/29440): the script is found by walking up from {@code user.dir}, and if the server does
 * not answer {@code /ping}, {@code bash scripts/clickhouse-server.sh start <kind>} is run and waited for
 * (at most 20 minutes; a first start on a fresh machine downloads and installs). Its progress lines are
 * copied to the JVM's native standard error, which Maven Surefire shows on the console.
 *
 * <p><b>Dead servers.</b> Every call pings the server, so a server that died since an earlier call —
 * the embedded 26.7 engine aborts on some malformed input — is started again by the next call. The
 * returned {@link ClickHouseServer} has the same ports as before.
 *
 * <p><b>Private servers.</b> {@link #startPrivate(Kind)} starts a throwaway instance of either kind on its
 * own ports and state directory, for tests that kill, restart or fault a server.
 *
 * <p><b>Thread-safety.</b> All methods are thread-safe; concurrent calls for the same kind are
 * serialized (one start at a time), calls for different kinds do not block each other. The script
 * itself also takes a file lock, so several JVMs may call it at once.
 */
public final class ClickHouseServers {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(20);
    private static final String SCRIPT = "scripts/clickhouse-server.sh";
    private static final String LOOPBACK = "127.0.0.1";
    private static final int OUTPUT_TAIL_LINES = 40;

    private static final Map<Kind, Slot> SLOTS = new EnumMap<>(Kind.class);

    static {
        for (Kind kind : Kind.values()) {
            SLOTS.put(kind, new Slot());
        }
    }

    /** Per-kind state; fields guarded by {@code lock}. */
    private static final class Slot {
        final ReentrantLock lock = new ReentrantLock();
        ClickHouseServer server;
        boolean external;
    }

    private ClickHouseServers() {
    }

    /**
     * @return the running ClickHouse 26.7 server, started first if needed
     * @throws IllegalStateException if the server cannot be started (the message has the script's exit
     *     code and the end of its output) or the environment variables are malformed
     */
    public static ClickHouseServer modern() {
        return get(Kind.MODERN);
    }

    /**
     * @return the running ClickHouse 18.16 server, started first if needed
     * @throws IllegalStateException if the server cannot be started (the message has the script's exit
     *     code and the end of its output) or the environment variables are malformed
     */
    public static ClickHouseServer legacy() {
        return get(Kind.LEGACY);
    }

    /**
     * @param kind which server
     * @return that server, running (unless it was named by environment variables, which are trusted
     *     as they are)
     * @throws IllegalStateException if the server cannot be started or the environment variables are
     *     malformed
     */
    public static ClickHouseServer get(Kind kind) {
        Slot slot = SLOTS.get(kind);
        slot.lock.lock();
        try {
            if (slot.server == null) {
                Map<String, String> env = System.getenv();
                slot.external = isExternal(kind, env);
                slot.server = configured(kind, env);
            }
            if (slot.external || slot.server.isAlive()) {
                return slot.server;
            }
            runScript(List.of("start", kind.scriptName()), Map.of(), kind.scriptName(), true);
            if (!slot.server.isAlive()) {
                throw new IllegalStateException(SCRIPT + " start " + kind.scriptName()
                        + " succeeded, but " + slot.server + " does not answer /ping");
            }
            return slot.server;
        } finally {
            slot.lock.unlock();
        }
    }

    /**
     * Starts a private instance of {@code kind} for tests that kill, restart or fault a server: the same
     * server as {@link #get(Kind)}'s, started by {@code scripts/clickhouse-server.sh} with its own state
     * directory and free loopback ports, never shared with other tests. Blocks until it answers (about
     * 5 s and ~330 MB of memory for {@link Kind#MODERN}, 2-3 s for {@link Kind#LEGACY}). See
     * {@link PrivateServer} for what the handle can do; close it when done.
     *
     * @param kind which server
     * @return the running private server
     * @throws IllegalStateException if it cannot be started (the message has the end of the script's
     *     output)
     * @throws java.io.UncheckedIOException if its state directory cannot be created
     */
    public static PrivateServer startPrivate(Kind kind) {
        return PrivateServer.start(kind);
    }

    // ------------------------------------------------------------------ configuration

    private static String prefix(Kind kind) {
        return "CLICKHOUSE_" + kind.name();
    }

    static boolean isExternal(Kind kind, Map<String, String> env) {
        return value(env, prefix(kind) + "_TCP") != null || value(env, prefix(kind) + "_HTTP") != null;
    }

    /** The server described by {@code env}: external if named there, else the script's local one. */
    static ClickHouseServer configured(Kind kind, Map<String, String> env) {
        String prefix = prefix(kind);
        if (isExternal(kind, env)) {
            String tcp = required(env, prefix + "_TCP");
            String http = required(env, prefix + "_HTTP");
            String tls = value(env, prefix + "_TLS");
            String cert = value(env, prefix + "_TLS_CERT");
            String host = host(tcp, prefix + "_TCP");
            if (!host(http, prefix + "_HTTP").equals(host)
                    || (tls != null && !host(tls, prefix + "_TLS").equals(host))) {
                throw new IllegalStateException(prefix + "_TCP, _HTTP and _TLS must name the same host: "
                        + tcp + ", " + http + ", " + tls);
            }
            return new ClickHouseServer(kind, host, port(tcp, prefix + "_TCP"), port(http, prefix + "_HTTP"),
                    tls == null ? -1 : port(tls, prefix + "_TLS"), cert == null ? null : Path.of(cert));
        }
        if (kind == Kind.MODERN) {
            return new ClickHouseServer(kind, LOOPBACK,
                    intValue(env, "CLICKHOUSE_MODERN_TCP_PORT", 19000),
                    intValue(env, "CLICKHOUSE_MODERN_HTTP_PORT", 18123), -1, null);
        }
        String state = value(env, "CLICKHOUSE_TCP_STATE");
        Path stateDir = Path.of(state == null ? "/tmp/clickhouse-tcp-servers" : state).toAbsolutePath();
        return new ClickHouseServer(kind, LOOPBACK,
                intValue(env, "CLICKHOUSE_LEGACY_TCP_PORT", 29000),
                intValue(env, "CLICKHOUSE_LEGACY_HTTP_PORT", 28123),
                intValue(env, "CLICKHOUSE_LEGACY_TLS_PORT", 29440),
                stateDir.resolve("legacy").resolve("server.crt"));
    }

    private static String value(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : v.strip();
    }

    private static String required(Map<String, String> env, String name) {
        String v = value(env, name);
        if (v == null) {
            throw new IllegalStateException(name + " must be set (host:port) when the other "
                    + name.substring(0, name.lastIndexOf('_')) + "_* variables are");
        }
        return v;
    }

    private static int intValue(Map<String, String> env, String name, int defaultValue) {
        String v = value(env, name);
        if (v == null) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(name + " is not a port number: " + v, e);
        }
    }

    /** Host part of {@code host:port} or {@code [v6]:port}. */
    static String host(String hostPort, String name) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalStateException(name + " must be host:port, not " + hostPort);
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return host;
    }

    /** Port part of {@code host:port}. */
    static int port(String hostPort, String name) {
        String port = hostPort.substring(hostPort.lastIndexOf(':') + 1);
        try {
            return Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(name + " must be host:port, not " + hostPort, e);
        }
    }

    // ------------------------------------------------------------------ running the script

    /** Finds {@code scripts/clickhouse-server.sh} in {@code start} or the nearest parent that has it. */
    static Path locateScript(Path start) {
        for (Path dir = start.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(SCRIPT);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("cannot find " + SCRIPT + " in " + start.toAbsolutePath()
                + " or any parent directory; run the tests inside the repository, or name running servers"
                + " with CLICKHOUSE_MODERN_TCP/CLICKHOUSE_MODERN_HTTP (resp. CLICKHOUSE_LEGACY_*)");
    }

    /**
     * Runs {@code bash scripts/clickhouse-server.sh ARGS} with {@code env} added to this JVM's environment
     * and waits for it (at most 20 minutes).
     *
     * @param args the script's arguments, e.g. {@code start modern}
     * @param env variables added to (or replacing those of) this JVM's environment for the script
     * @param label names the run (in the name of the thread copying its output)
     * @param toConsole whether to copy the script's output to the JVM's native standard error as it comes
     * @throws IllegalStateException if the script fails or times out; the message has its exit code and
     *     the end of its output
     */
    static void runScript(List<String> args, Map<String, String> env, String label, boolean toConsole) {
        Path script = locateScript(Path.of(System.getProperty("user.dir")));
        String command = "bash " + SCRIPT + " " + String.join(" ", args);
        List<String> commandLine = new ArrayList<>(List.of("bash", script.toString()));
        commandLine.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(commandLine)
                .directory(script.getParent().getParent().toFile())
                .redirectErrorStream(true);
        builder.environment().putAll(env);
        OutputTail tail = new OutputTail();
        Process process;
        try {
            process = builder.start();
            process.getOutputStream().close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command + ": " + e.getMessage(), e);
        }
        Thread pump = new Thread(() -> copyOutput(process, tail, toConsole), "clickhouse-server.sh " + label);
        pump.setDaemon(true);
        pump.start();
        try {
            if (!process.waitFor(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(command + " did not finish within " + START_TIMEOUT.toMinutes()
                        + " minutes; last output:\n" + tail);
            }
            pump.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + command, e);
        }
        int exit = process.exitValue();
        if (exit != 0) {
            throw new IllegalStateException(command + " failed with exit code " + exit + "; last output:\n"
                    + tail);
        }
    }

    /**
     * Copies the script's output, line by line, to the JVM's own standard error stream (file descriptor
     * 2, not {@code System.err}): Maven Surefire captures {@code System.out/err} into report files, but
     * shows a forked JVM's native stderr on the console as it comes — so the progress of a slow start is
     * visible. (Letting the child inherit stdout instead would corrupt Surefire's channel to the fork.)
     */
    private static void copyOutput(Process process, OutputTail tail, boolean toConsole) {
        PrintStream console = toConsole
                ? new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8)
                : null;
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (console != null) {
                    console.println("[clickhouse-server.sh] " + line);
                }
                tail.add(line);
            }
        } catch (IOException e) {
            // The process was destroyed; whatever was read so far is in the tail.
        }
    }

    /** The last lines of the script's output, for exception messages. */
    private static final class OutputTail {
        private final ReentrantLock lock = new ReentrantLock();
        private final Deque<String> lines = new ArrayDeque<>();

        void add(String line) {
            lock.lock();
            try {
                lines.addLast(line);
                if (lines.size() > OUTPUT_TAIL_LINES) {
                    lines.removeFirst();
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public String toString() {
            lock.lock();
            try {
                return String.join("\n", lines);
            } finally {
                lock.unlock();
            }
        }
    }
}
