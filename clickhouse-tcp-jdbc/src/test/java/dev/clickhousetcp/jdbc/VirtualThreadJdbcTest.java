package dev.clickhousetcp.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.VirtualThreads;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@value #THREADS} virtual threads run {@value #QUERIES} JdbcTemplate queries ({@code SELECT ?} with a bound
 * {@code Int64}, each answer checked) through HikariCP with 16 connections over this driver, in a child
 * JVM of JDK 25 or later ({@code VIRTUAL_THREADS_JDK} in the environment, else a JDK under
 * {@code /usr/lib/jvm}; skipped, saying so, when there is none: the build's Java 17 has no virtual
 * threads): no query fails or answers wrongly, and a JFR recording with threshold 0 sees no
 * {@code jdk.VirtualThreadPinned} event. A warm-up burst runs first, not recorded: a virtual thread that
 * waits for another thread's class initialization pins on every JDK. A control afterwards proves the
 * recording sees pinning: a virtual thread that sleeps in a class initializer must record an event.
 *
 * <p>The 50,000 queries of the acceptance list took 64 s on a 2-core machine (client, pool and server sharing the
 * cores, about 780 queries a second), 94 s at a load average of 19 and 191 s at 22, where a 2-minute connection
 * timeout let 907 of 5,000 starving waiters fail: the pool's timeout is now near the child's 10-minute limit.
 */
@ClickHouseTest
class VirtualThreadJdbcTest {
    static final int THREADS = 5_000;
    static final int QUERIES = 50_000;
    private static final String PASSED = "no errors, no pinning";

    @Test
    void virtualThreadsThroughHikariNeitherFailNorPin() throws Exception {
        Optional<Path> java = VirtualThreads.jdk25OrLater();
        Assumptions.assumeTrue(java.isPresent(), "no JDK 25 or later found (set VIRTUAL_THREADS_JDK or install one"
                + " under /usr/lib/jvm)");
        String out = ChildJvm.run(java.get(), List.of("--enable-native-access=ALL-UNNAMED", "-Xmx512m"), Probe.class,
                600, JdbcTests.url(ClickHouseServers.modern()));
        System.out.println(out.strip());
        assertThat(out).contains(PASSED);
    }

    /** The child: the argument is the JDBC URL; prints {@link #PASSED} and exits 0, or the problems and exits 1. */
    static final class Probe {
        private Probe() {
        }

        public static void main(String[] args) {
            List<String> problems;
            try {
                problems = run(args[0]);
            } catch (Throwable e) {
                java.io.StringWriter w = new java.io.StringWriter();
                e.printStackTrace(new java.io.PrintWriter(w));
                problems = List.of(w.toString());
            }
            if (problems.isEmpty()) {
                System.out.println(PASSED);
                System.exit(0);
            }
            problems.stream().limit(20).forEach(System.out::println);
            System.exit(1);
        }

        static List<String> run(String url) throws Exception {
            List<String> problems = new ArrayList<>();
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(url);
            config.setDriverClassName(ClickHouseDriver.class.getName());
            config.setMaximumPoolSize(16);
            config.setMinimumIdle(16);
            // 5,000 waiters on 16 connections: HikariCP's hand-off is not first-come first-served, so on a loaded
            // machine a waiter can wait most of the run; only the child's own limit bounds it
            config.setConnectionTimeout(Duration.ofMinutes(9).toMillis());
            Path jfr = Files.createTempFile("virtual-thread-jdbc", ".jfr");
            try (HikariDataSource ds = new HikariDataSource(config); Recording rec = new Recording()) {
                burst(ds, 200, 1_000, problems);
                rec.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
                rec.start();
                long started = System.nanoTime();
                burst(ds, THREADS, QUERIES, problems);
                long millis = (System.nanoTime() - started) / 1_000_000;
                rec.stop();
                rec.dump(jfr);
                System.out.println(THREADS + " virtual threads, " + QUERIES + " queries in " + millis + " ms");
                problems.addAll(VirtualThreads.pinnedEvents(jfr));
            } finally {
                Files.deleteIfExists(jfr);
            }
            controlPins(problems);
            return problems;
        }

        /** The control: a virtual thread that sleeps in a class initializer pins, and the same recording sees it. */
        private static void controlPins(List<String> problems) throws Exception {
            Path jfr = Files.createTempFile("virtual-thread-control", ".jfr");
            try (Recording rec = new Recording()) {
                rec.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
                rec.start();
                ExecutorService vt = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                        .invoke(null);
                vt.submit(SlowInit::touch).get();
                vt.shutdown();
                rec.stop();
                rec.dump(jfr);
                if (VirtualThreads.pinnedEvents(jfr).isEmpty()) {
                    problems.add("the control that pins recorded no jdk.VirtualThreadPinned event");
                }
            } finally {
                Files.deleteIfExists(jfr);
            }
        }

        /** Sleeps in its initializer: a virtual thread that initializes it pins its carrier meanwhile. */
        private static final class SlowInit {
            static {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            static void touch() {
            }
        }

        /** {@code threads} virtual threads share {@code queries} queries, each borrowing a connection per query. */
        private static void burst(HikariDataSource ds, int threads, int queries, List<String> problems)
                throws Exception {
            ExecutorService vt = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                    .invoke(null);
            JdbcTemplate jdbc = new JdbcTemplate(ds);
            AtomicLong answered = new AtomicLong();
            ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
            List<Future<?>> fs = new ArrayList<>(threads);
            int perThread = queries / threads;
            for (int t = 0; t < threads; t++) {
                long base = (long) t * perThread;
                fs.add(vt.submit(() -> {
                    for (long q = base; q < base + perThread; q++) {
                        try {
                            List<Long> got = jdbc.query("SELECT ?", (rs, n) -> rs.getLong(1), q);
                            if (got.size() != 1 || got.get(0) != q) {
                                errors.add("query " + q + " answered " + got);
                            } else {
                                answered.incrementAndGet();
                            }
                        } catch (Exception e) {
                            errors.add("query " + q + ": " + e);
                        }
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            vt.shutdown();
            if (!vt.awaitTermination(2, TimeUnit.MINUTES)) {
                problems.add("virtual threads still running");
            }
            if (!errors.isEmpty()) {
                problems.add(errors.size() + " errors, first: " + errors.peek());
            }
            if (answered.get() != (long) threads * perThread) {
                problems.add(threads * perThread + " queries answered " + answered.get() + " times");
            }
        }
    }
}
