package dev.clickhousetcp.sample;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Headless Chromium for the dashboard test: loads a page with a fresh profile, lets its scripts run for up
 * to 10 s of virtual time (fetches included), and returns the DOM or takes a screenshot. The binary is
 * {@code $CHROMIUM} or {@code chromium} on the PATH ({@code .ci/run} installs Debian's package). When it is
 * missing the test is skipped on a developer's machine, and fails where {@code CI} is set.
 */
final class Chromium {

    private final Path binary;

    private Chromium(Path binary) {
        this.binary = binary;
    }

    /** @return the browser; skips the calling test when it is missing and CI is unset, else fails it */
    static Chromium require() {
        Path found = find();
        if (found == null) {
            String message = "headless Chromium is needed for the dashboard test: install Debian's chromium package "
                    + "(apt-get install chromium) or set CHROMIUM to its binary";
            assertThat(System.getenv("CI")).as(message + " (it is required where CI is set)").isNull();
            assumeTrue(false, message);
        }
        return new Chromium(found);
    }

    private static Path find() {
        String configured = System.getenv("CHROMIUM");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "chromium");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /**
     * @param url the page
     * @return the page's DOM after its scripts ran, serialized
     * @throws Exception if the browser fails or runs for more than a minute
     */
    String dumpDom(String url) throws Exception {
        return run(List.of("--dump-dom", url));
    }

    /**
     * @param url the page
     * @param png where the 1280x900 screenshot goes
     * @throws Exception if the browser fails or runs for more than a minute
     */
    void screenshot(String url, Path png) throws Exception {
        Files.createDirectories(png.toAbsolutePath().getParent());
        run(List.of("--screenshot=" + png.toAbsolutePath(), "--window-size=1280,900", "--hide-scrollbars", url));
    }

    private String run(List<String> args) throws Exception {
        Path profile = Files.createTempDirectory("chromium-profile");
        Path stdout = Files.createTempFile("chromium", ".out");
        Path stderr = Files.createTempFile("chromium", ".err");
        try {
            List<String> command = new ArrayList<>(List.of(this.binary.toString(), "--headless", "--no-sandbox",
                    "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
                    "--virtual-time-budget=10000"));
            command.addAll(args);
            Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile()).start();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException("chromium did not finish within 60 s: " + Files.readString(stderr));
            }
            assertThat(process.exitValue()).as("chromium's exit code; its stderr: %s", Files.readString(stderr))
                .isZero();
            return Files.readString(stdout, StandardCharsets.UTF_8);
        }
        finally {
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
            deleteTree(profile);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
