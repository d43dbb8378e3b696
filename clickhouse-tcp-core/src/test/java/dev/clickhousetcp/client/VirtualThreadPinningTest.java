package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.VirtualThreads;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bursts of virtual threads through small pools (plain and TLS) never pin their carrier once the
 * classes are loaded (a warm-up burst first: a virtual thread that waits for another thread's class
 * initialization pins on every JDK): a JFR recording in the JVM that runs them sees no
 * {@code jdk.VirtualThreadPinned} event (threshold 0),
 * every query answers, and the platform threads grow by no more than the virtual-thread scheduler's
 * carriers and the JDK's pollers (no thread per task or per waiter).
 *
 * <p>On JDK 25 or later the probe runs in this JVM. On an older JVM (the build's Java 17) it runs in
 * a child JVM of the first JDK 25+ found ({@code VIRTUAL_THREADS_JDK} in the environment, else a JDK
 * under {@code /usr/lib/jvm}); with none the test is skipped, saying so. Not on JDK 21 to 24: there
 * the JDK's own {@code Selector.select}, which every socket wait of the transport goes through, holds
 * the selector's monitors and blocks its carrier in {@code epoll_wait} (JDK 25 parks the virtual
 * thread instead), a known limit documented in docs/client.md, not something this check could pass.
 */
@ClickHouseTest
class VirtualThreadPinningTest {
    @Test
    void burstsOfVirtualThreadsThroughSmallPoolsNeverPin() throws Exception {
        ClickHouseServer modern = ClickHouseServers.modern();
        ClickHouseServer legacy = ClickHouseServers.legacy();
        String[] args = {modern.host(), String.valueOf(modern.tcpPort()), legacy.host(),
            String.valueOf(legacy.tlsPort()),
            legacy.serverCertificatePem().orElseThrow().getParent().resolve("ca.crt").toString()};
        VirtualThreadProbes.run(Probe.class, Probe::run, "no pinning", args);
    }

    /**
     * No {@code synchronized} block or method and no {@code Object.wait} in the library's sources: on
     * JDK 21 to 23 a virtual thread that blocks inside a monitor pins its carrier, which the JFR check
     * above cannot see on JDK 24 or later.
     */
    @Test
    void theLibraryHoldsNoMonitors() throws IOException {
        Path sources = Path.of("src/main/java");
        Assumptions.assumeTrue(Files.isDirectory(sources), "sources not found from " + Path.of("").toAbsolutePath());
        Pattern monitor = Pattern.compile("\\bsynchronized\\s*[({]|\\bsynchronized\\s+\\w|\\.wait\\(\\s*\\d*\\s*\\)");
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path f : (Iterable<Path>) files.filter(x -> x.toString().endsWith(".java"))::iterator) {
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    String code = lines.get(i).replaceFirst("//.*", "");
                    String t = code.trim();
                    if (t.startsWith("*") || t.startsWith("/*")) {
                        continue; // Javadoc and block comments
                    }
                    if (monitor.matcher(code).find()) {
                        found.add(sources.relativize(f) + ":" + (i + 1) + ": " + t);
                    }
                }
            }
        }
        assertThat(found).isEmpty();
    }

    /** A {@code bin/java} of JDK 25 or later: {@code VIRTUAL_THREADS_JDK}, else one under /usr/lib/jvm. */
    /**
     * The check, run in a JVM of version 25 or later: arguments are the plain server's host and port,
     * the TLS server's host and TLS port and its CA certificate. Prints "no pinning" and exits 0, or
     * prints the problems and exits 1.
     */
    static final class Probe {
        private Probe() {
        }

        public static void main(String[] args) {
            VirtualThreadProbes.main(Probe::run, "no pinning", args);
        }

        static List<String> run(String[] args) throws Exception {
            List<String> problems = new ArrayList<>();
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            ClickHouseTcpClient plain = ClickHouseTcpClient.builder().host(args[0]).port(Integer.parseInt(args[1]))
                    .maxPoolSize(4).acquireTimeout(Duration.ofMinutes(2)).connectTimeout(Duration.ofSeconds(5)).build();
            ClickHouseTcpClient tls = ClickHouseTcpClient.builder().host(args[2]).port(Integer.parseInt(args[3]))
                    .tls(TlsConfig.builder().trustedCertificates(Path.of(args[4])).serverName("localhost").build())
                    .maxPoolSize(2).acquireTimeout(Duration.ofMinutes(2)).connectTimeout(Duration.ofSeconds(5))
                    .handshakeTimeout(Duration.ofSeconds(10)).build();
            Path jfr = Files.createTempFile("virtual-thread-pinning", ".jfr");
            try (plain; tls; Recording rec = new Recording()) {
                // warm-up, not recorded: the first queries load and initialize classes, and a virtual
                // thread waiting for another thread's class initialization pins its carrier (on every JDK)
                burst(plain, 50, "SELECT sleep(0.002), 1", problems);
                burst(tls, 20, "SELECT sleep(0.002), 1", problems);
                int baseline = mx.getThreadCount();
                mx.resetPeakThreadCount();
                rec.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
                rec.start();
                burst(plain, 400, "SELECT sleep(0.002), 1", problems);
                burst(tls, 100, "SELECT sleep(0.002), 1", problems);
                rec.stop();
                rec.dump(jfr);
                int grown = mx.getPeakThreadCount() - baseline;
                // carriers (one per core), the JDK's read/write pollers and timer, the pools' housekeepers
                int allowed = Runtime.getRuntime().availableProcessors() + 8;
                if (grown > allowed) {
                    problems.add("platform threads grew by " + grown + " (allowed " + allowed + ")");
                }
                problems.addAll(VirtualThreads.pinnedEvents(jfr));
            } finally {
                Files.deleteIfExists(jfr);
            }
            return problems;
        }

        private static void burst(ClickHouseTcpClient client, int tasks, String sql, List<String> problems)
                throws Exception {
            ExecutorService vt = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                    .invoke(null);
            List<Future<Long>> fs = new ArrayList<>(tasks);
            for (int i = 0; i < tasks; i++) {
                fs.add(vt.submit(() -> {
                    long one = 0;
                    try (QueryResult r = client.query(sql)) {
                        Block b;
                        while ((b = r.next()) != null) {
                            for (int row = 0; row < b.rowCount(); row++) {
                                one += b.column(1).getLong(row);
                            }
                        }
                    }
                    return one;
                }));
            }
            long answered = 0;
            for (Future<Long> f : fs) {
                answered += f.get();
            }
            vt.shutdown();
            if (!vt.awaitTermination(2, TimeUnit.MINUTES)) {
                problems.add("virtual threads still running");
            }
            if (answered != tasks) {
                problems.add(tasks + " queries answered " + answered + " times");
            }
        }
    }
}
