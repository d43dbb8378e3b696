package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many short, I/O-bound queries ({@code SELECT sleep(0.01), 1}: 10 ms of server time, no client CPU
 * to speak of) through one client whose pool holds {@code pool} connections, in three arms:
 *
 * <ul>
 *   <li>{@code platform}: {@code tasks} tasks on a fixed pool of {@code pool} platform threads;</li>
 *   <li>{@code virtual}: {@code vtasks} tasks, one virtual thread each, all started at once, so all but
 *       {@code pool} of them wait in the connection pool;</li>
 *   <li>{@code width1}: {@code tasks1} tasks on one platform thread with a pool of 1 (the serial floor).</li>
 * </ul>
 *
 * <p>The acquire timeout is 10 minutes: the last of 10,000 tasks waits for all the others.
 *
 * <p>Each arm runs {@code rounds} times, the arms alternating (load on a shared machine hits each
 * alike); printed per arm: queries/s of every round, best and median, and the client process's CPU time
 * per query (all its threads; less sensitive than queries/s to load from other processes). During each arm an in-process
 * JFR recording counts {@code jdk.VirtualThreadPinned} events (threshold 0, with the top frames of
 * the first few) and the peak number of live platform threads is compared with the number before the
 * arm (virtual threads are not counted; the virtual-thread scheduler's carriers are).
 *
 * <p>Needs JDK 21 or later for the virtual arm (the classes are built for 17; virtual threads are
 * reached by reflection). Run: {@code <jdk25>/bin/java -cp benchmarks/target/benchmarks.jar
 * dev.clickhousetcp.benchmarks.VirtualThreadScale}; options as system properties: {@code -Dpool=16
 * -Dtasks=5000 -Dvtasks=10000 -Dtasks1=400 -Drounds=3 -Darms=platform,virtual,width1}, server from
 * {@code -Dclickhouse.host} / {@code -Dclickhouse.port}.
 *
 * <p>Why not JMH: an operation here is one burst of thousands of tasks (seconds long) whose size
 * differs per arm, the figure wanted is queries per second of the burst, and each arm needs a JFR
 * recording and a thread count around it; a plain harness states that directly.
 */
public final class VirtualThreadScale {
    static final String SQL = "SELECT sleep(0.01), 1";

    private VirtualThreadScale() {
    }

    /** Runs the arms; exits non-zero when a query returned a wrong answer. */
    public static void main(String[] args) throws Exception {
        int pool = Integer.getInteger("pool", 16);
        int tasks = Integer.getInteger("tasks", 5_000);
        int vtasks = Integer.getInteger("vtasks", 10_000);
        int tasks1 = Integer.getInteger("tasks1", 400);
        int rounds = Integer.getInteger("rounds", 3);
        List<String> arms = Arrays.asList(System.getProperty("arms", "platform,virtual,width1").split(","));
        System.out.printf(Locale.ROOT, "java %s, %d cores, load average %.2f; pool %d; %s%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), pool, SQL);
        List<List<Double>> rates = new ArrayList<>();
        for (int a = 0; a < arms.size(); a++) {
            rates.add(new ArrayList<>());
        }
        for (int round = -1; round < rounds; round++) { // round -1: warm-up, not counted
            for (int a = 0; a < arms.size(); a++) {
                String arm = arms.get(a);
                int n = switch (arm) {
                    case "platform" -> tasks;
                    case "virtual" -> vtasks;
                    case "width1" -> tasks1;
                    default -> throw new IllegalArgumentException("unknown arm " + arm);
                };
                if (round < 0) {
                    n = Math.min(n, arm.equals("width1") ? 50 : 1_000);
                }
                double qps = runArm(arm, arm.equals("width1") ? 1 : pool, n, round >= 0);
                if (round >= 0) {
                    rates.get(a).add(qps);
                }
            }
        }
        System.out.println();
        for (int a = 0; a < arms.size(); a++) {
            List<Double> r = new ArrayList<>(rates.get(a));
            r.sort(null);
            System.out.printf(Locale.ROOT, "%-8s best %7.1f q/s  median (lower) %7.1f q/s  rounds %s%n", arms.get(a),
                    r.get(r.size() - 1), r.get((r.size() - 1) / 2), rates.get(a));
        }
    }

    static double runArm(String arm, int poolSize, int n, boolean report) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (ClickHouseTcpClient client = BenchmarkServer.track(BenchmarkServer.builder().maxPoolSize(poolSize)
                .acquireTimeout(Duration.ofMinutes(10)).build())) {
            // open the pool's connections first, so the arm measures the hand-off, not the handshakes
            ExecutorService warm = Executors.newFixedThreadPool(poolSize);
            List<Future<Long>> ws = new ArrayList<>();
            for (int i = 0; i < poolSize * 2; i++) {
                ws.add(warm.submit(() -> query(client)));
            }
            for (Future<Long> f : ws) {
                f.get();
            }
            warm.shutdown();
            warm.awaitTermination(1, TimeUnit.MINUTES);
            Set<String> before = platformThreadNames();
            int baseline = threads.getThreadCount();
            threads.resetPeakThreadCount();
            Path jfr = Files.createTempFile("vthreads-" + arm, ".jfr");
            AtomicLong ok = new AtomicLong();
            long cpu0 = processCpuNanos();
            long t0;
            long elapsed;
            try (Recording rec = new Recording()) {
                rec.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
                rec.enable("jdk.VirtualThreadSubmitFailed");
                rec.start();
                ExecutorService ex = switch (arm) {
                    case "virtual" -> virtualThreadPerTask();
                    default -> Executors.newFixedThreadPool(poolSize);
                };
                t0 = System.nanoTime();
                List<Future<Long>> fs = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    fs.add(ex.submit(() -> query(client)));
                }
                for (Future<Long> f : fs) {
                    ok.addAndGet(f.get());
                }
                elapsed = System.nanoTime() - t0;
                ex.shutdown();
                ex.awaitTermination(1, TimeUnit.MINUTES);
                rec.stop();
                rec.dump(jfr);
            }
            long cpu = processCpuNanos() - cpu0;
            int peak = threads.getPeakThreadCount();
            Set<String> added = platformThreadNames();
            added.removeAll(before);
            BenchmarkServer.check(arm + " answers", n, ok.get());
            double qps = n / (elapsed / 1e9);
            if (report) {
                List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
                long pinned = events.stream().filter(e -> e.getEventType().getName().equals("jdk.VirtualThreadPinned")).count();
                long submitFailed = events.stream()
                        .filter(e -> e.getEventType().getName().equals("jdk.VirtualThreadSubmitFailed")).count();
                System.out.printf(Locale.ROOT, "%-8s %6d tasks %8.1f q/s  client CPU %6.1f us/query  pinned events %d, "
                                + "submit failures %d, platform threads %d before, peak %d; new platform threads still alive: %s%n",
                        arm, n, qps, cpu / 1e3 / n, pinned, submitFailed, baseline, peak, added);
                events.stream().filter(e -> e.getEventType().getName().equals("jdk.VirtualThreadPinned")).limit(3)
                        .forEach(e -> {
                            System.out.println("  pinned " + e.getDuration().toNanos() / 1000 + " us at:");
                            if (e.getStackTrace() != null) {
                                for (RecordedFrame f : e.getStackTrace().getFrames().subList(0,
                                        Math.min(12, e.getStackTrace().getFrames().size()))) {
                                    System.out.println("    " + f.getMethod().getType().getName() + "."
                                            + f.getMethod().getName() + ":" + f.getLineNumber());
                                }
                            }
                        });
            }
            Files.deleteIfExists(jfr);
            return qps;
        }
    }

    /** CPU time of this process so far (all threads, JIT and GC included), or 0 when the JVM cannot say. */
    static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    static long query(ClickHouseTcpClient client) {
        long rows = 0;
        try (QueryResult r = client.query(SQL)) {
            Block b;
            while ((b = r.next()) != null) {
                for (int i = 0; i < b.rowCount(); i++) {
                    if (b.column(1).getLong(i) != 1) {
                        throw new IllegalStateException("wrong answer");
                    }
                    rows++;
                }
            }
        }
        return rows;
    }

    /** {@code Executors.newVirtualThreadPerTaskExecutor()} (JDK 21+), reached by reflection from 17 bytecode. */
    static ExecutorService virtualThreadPerTask() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the virtual arm needs JDK 21 or later; running " + Runtime.version(), e);
        }
    }

    private static Set<String> platformThreadNames() {
        Set<String> names = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            names.add(t.getName().replaceAll("\\d+", "N"));
        }
        return names;
    }
}
