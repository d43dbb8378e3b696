package dev.clickhousetcp.testsupport;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the virtual-thread checks share: finding a JDK that has them in the form the library targets
 * (25 or later, where a virtual thread blocked in {@code Selector.select} parks instead of pinning), and
 * reading the {@code jdk.VirtualThreadPinned} events of a JFR recording. Stateless; thread-safe.
 */
public final class VirtualThreads {
    private VirtualThreads() {
    }

    /**
     * A {@code bin/java} of JDK 25 or later: {@code VIRTUAL_THREADS_JDK} in the environment, else the first
     * (by name) JDK under {@code /usr/lib/jvm}; the version is read from the JDK's {@code release} file.
     *
     * @return the executable, empty when none is found
     * @throws IOException when a {@code release} file cannot be read
     */
    public static Optional<Path> jdk25OrLater() throws IOException {
        List<Path> homes = new ArrayList<>();
        String env = System.getenv("VIRTUAL_THREADS_JDK");
        if (env != null && !env.isBlank()) {
            homes.add(Path.of(env));
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> s = Files.list(jvms)) {
                s.sorted().forEach(homes::add);
            }
        }
        for (Path home : homes) {
            Path release = home.resolve("release");
            Path java = home.resolve("bin/java");
            if (!Files.isRegularFile(release) || !Files.isExecutable(java)) {
                continue;
            }
            Properties p = new Properties();
            try (var in = Files.newInputStream(release)) {
                p.load(in);
            }
            Matcher m = Pattern.compile("^(\\d+)").matcher(p.getProperty("JAVA_VERSION", "").replace("\"", ""));
            if (m.find() && Integer.parseInt(m.group(1)) >= 25) {
                return Optional.of(java);
            }
        }
        return Optional.empty();
    }

    /**
     * Every event of the recording in {@code jfr} (the caller enabled {@code jdk.VirtualThreadPinned},
     * threshold 0, with stack traces), each as "pinned N us at:" and its frames, one a line.
     *
     * @return the events' descriptions, empty when there were none
     * @throws IOException when the recording cannot be read
     */
    public static List<String> pinnedEvents(Path jfr) throws IOException {
        List<String> found = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            StringBuilder where = new StringBuilder("pinned " + e.getDuration().toNanos() / 1000 + " us at:");
            if (e.getStackTrace() != null) {
                for (RecordedFrame f : e.getStackTrace().getFrames()) {
                    where.append("\n    ").append(f.getMethod().getType().getName()).append('.')
                            .append(f.getMethod().getName()).append(':').append(f.getLineNumber());
                }
            }
            found.add(where.toString());
        }
        return found;
    }
}
