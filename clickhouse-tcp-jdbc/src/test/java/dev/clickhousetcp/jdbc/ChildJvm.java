package dev.clickhousetcp.jdbc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs a class's {@code main} in a JVM of its own (a small heap, another JDK) on this JVM's test class
 * path ({@code surefire.test.class.path}, else {@code java.class.path}) and returns its output once it
 * exited 0; the calling test fails with the output otherwise.
 */
final class ChildJvm {
    private ChildJvm() {
    }

    /** This JVM's {@code bin/java}. */
    static Path thisJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /**
     * Runs {@code main} with {@code jvmArgs} and {@code args} under {@code java}, waiting at most
     * {@code timeoutSeconds}.
     *
     * @return the child's standard output and error, merged
     */
    static String run(Path java, List<String> jvmArgs, Class<?> main, long timeoutSeconds, String... args)
            throws IOException, InterruptedException {
        return run(java, jvmArgs, testClassPath(), main, timeoutSeconds, args);
    }

    /** This JVM's test class path, entries separated by {@code File.pathSeparator}. */
    static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    /** As {@link #run(Path, List, Class, long, String...)} on another class path. */
    static String run(Path java, List<String> jvmArgs, String classPath, Class<?> main, long timeoutSeconds,
            String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", classPath, main.getName()));
        command.addAll(List.of(args));
        Path log = Files.createTempFile("child-jvm", ".log");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            boolean ended = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly().waitFor();
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(ended).as("child JVM ended within %d s: %s", timeoutSeconds, out).isTrue();
            assertThat(p.exitValue()).as("exit code of the child JVM on %s:%n%s", java, out).isZero();
            return out;
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
