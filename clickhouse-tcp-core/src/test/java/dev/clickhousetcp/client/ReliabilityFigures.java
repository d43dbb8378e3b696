package dev.clickhousetcp.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The figures of one reliability test class: operations run, faults injected per phase, rows lost and
 * duplicated, wrong results, leaked connections, and exceptions by kind. Thread-safe. {@link #report()}
 * prints one summary line (to the test's output) and writes it to {@code target/reliability/<class>.txt},
 * where {@code docs/reliability.md} and {@code scripts/soak.sh} take their numbers from.
 */
final class ReliabilityFigures {
    private final String name;
    private final AtomicLong operations = new AtomicLong();
    private final AtomicLong rowsLost = new AtomicLong();
    private final AtomicLong rowsDuplicated = new AtomicLong();
    private final AtomicLong wrongResults = new AtomicLong();
    private final AtomicLong leakedConnections = new AtomicLong();
    private final Map<String, AtomicLong> faults = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> exceptions = new ConcurrentHashMap<>();
    private final Map<String, String> notes = new ConcurrentHashMap<>();

    ReliabilityFigures(Class<?> testClass) {
        this.name = testClass.getSimpleName();
    }

    void operation() {
        operations.incrementAndGet();
    }

    void operations(long n) {
        operations.addAndGet(n);
    }

    /** A fault injected (or a server killed or restarted) in {@code phase}. */
    void fault(String phase) {
        fault(phase, 1);
    }

    /** {@code n} faults injected in {@code phase}. */
    void fault(String phase, long n) {
        faults.computeIfAbsent(phase, k -> new AtomicLong()).addAndGet(n);
    }

    /** An exception an operation ended with, as expected or not (violations are counted by the test). */
    void exception(Throwable e) {
        exceptions.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicLong()).incrementAndGet();
    }

    void rowsLost(long n) {
        rowsLost.addAndGet(n);
    }

    void rowsDuplicated(long n) {
        rowsDuplicated.addAndGet(n);
    }

    void wrongResult() {
        wrongResults.incrementAndGet();
    }

    void leakedConnections(long n) {
        leakedConnections.addAndGet(n);
    }

    /** A free-form figure added to the line, e.g. the seed. */
    void note(String key, Object value) {
        notes.put(key, String.valueOf(value));
    }

    long operations() {
        return operations.get();
    }

    long wrongResults() {
        return wrongResults.get();
    }

    private static String render(Map<String, AtomicLong> m) {
        Map<String, Long> sorted = new TreeMap<>();
        m.forEach((k, v) -> sorted.put(k, v.get()));
        return sorted.toString();
    }

    String line() {
        StringBuilder s = new StringBuilder("[reliability] ").append(name);
        new TreeMap<>(notes).forEach((k, v) -> s.append(' ').append(k).append('=').append(v));
        return s.append(" operations=").append(operations.get())
                .append(" faults=").append(render(faults))
                .append(" rowsLost=").append(rowsLost.get())
                .append(" rowsDuplicated=").append(rowsDuplicated.get())
                .append(" wrongResults=").append(wrongResults.get())
                .append(" leakedConnections=").append(leakedConnections.get())
                .append(" exceptions=").append(render(exceptions))
                .toString();
    }

    /** Prints the summary line and writes it to {@code target/reliability/<class>.txt}. */
    void report() {
        String line = line();
        System.out.println(line);
        try {
            Path dir = Path.of("target", "reliability");
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name + ".txt"), line + System.lineSeparator(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
