package dev.clickhousetcp.client;

import dev.clickhousetcp.testsupport.VirtualThreads;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs a probe (a class with a {@code main}) that needs virtual threads: in this JVM when it is JDK 25
 * or later, else in a child JVM of the first JDK 25+ found ({@code VIRTUAL_THREADS_JDK} in the
 * environment, else a JDK under {@code /usr/lib/jvm}); with none the calling test is skipped, saying
 * so. The build's tests run on Java 17, which has no virtual threads.
 */
final class VirtualThreadProbes {
    private VirtualThreadProbes() {
    }

    /** What a probe runs in this JVM on JDK 25 or later: returns the problems found, none when it passed. */
    @FunctionalInterface
    interface InProcess {
        List<String> run(String[] args) throws Exception;
    }

    /**
     * Runs {@code probe} with {@code args}: in this JVM through {@code inProcess}, or as a child JVM whose
     * output must end with exit code 0 and contain {@code passed}.
     */
    static void run(Class<?> probe, InProcess inProcess, String passed, String... args) throws Exception {
        if (Runtime.version().feature() >= 25) {
            assertThat(inProcess.run(args)).isEmpty();
            return;
        }
        Optional<Path> java = jdk25OrLater();
        Assumptions.assumeTrue(java.isPresent(), "running on Java " + Runtime.version().feature()
                + " and no JDK 25 or later found (set VIRTUAL_THREADS_JDK or install one under /usr/lib/jvm)");
        List<String> command = new ArrayList<>(List.of(java.get().toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), probe.getName()));
        command.addAll(List.of(args));
        Path log = Files.createTempFile("virtual-thread-probe", ".log");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            boolean ended = p.waitFor(5, TimeUnit.MINUTES);
            if (!ended) {
                p.destroyForcibly();
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(ended).as("probe ended within 5 minutes: %s", out).isTrue();
            assertThat(p.exitValue()).as("probe on %s:%n%s", java.get(), out).isZero();
            assertThat(out).contains(passed);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** A probe's {@code main}: prints {@code passed} and exits 0, or prints the problems and exits 1. */
    static void main(InProcess probe, String passed, String[] args) {
        List<String> problems;
        try {
            problems = probe.run(args);
        } catch (Throwable e) {
            problems = List.of(stackTrace(e));
        }
        if (problems.isEmpty()) {
            System.out.println(passed);
            System.exit(0);
        }
        problems.forEach(System.out::println);
        System.exit(1);
    }

    private static String stackTrace(Throwable e) {
        java.io.StringWriter w = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }

    /** Starts {@code task} on a new virtual thread (JDK 21+, reached by reflection from 17 bytecode). */
    static Thread startVirtualThread(Runnable task) throws ReflectiveOperationException {
        return (Thread) Thread.class.getMethod("startVirtualThread", Runnable.class).invoke(null, task);
    }

    static Optional<Path> jdk25OrLater() throws IOException {
        return VirtualThreads.jdk25OrLater();
    }
}
