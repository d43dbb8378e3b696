package dev.clickhousetcp.client;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The pool's hand-off alone, without a server (connections over in-memory bytes): {@code tasks}
 * borrowers each acquire a connection, hold it {@code holdMicros} (parked, as a query waiting on the
 * server would be) and give it back, through a pool of {@code size}; arms: one virtual thread per task,
 * and {@code size} platform threads. Prints acquisitions/s per round and the ideal
 * ({@code size / hold}). Not a test; run its main method on JDK 21+ (virtual threads by reflection):
 * {@code java -cp <test classpath> dev.clickhousetcp.client.PoolHandOffBench [tasks] [size] [holdMicros] [rounds]}.
 */
public final class PoolHandOffBench {
    private PoolHandOffBench() {
    }

    public static void main(String[] args) throws Exception {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        long holdMicros = args.length > 2 ? Long.parseLong(args[2]) : 1_000;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        System.out.printf(Locale.ROOT, "java %s, load %.1f: %d tasks, pool %d, hold %d us, ideal %.0f/s%n",
                Runtime.version(), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), tasks, size,
                holdMicros, holdMicros == 0 ? Double.NaN : size * 1e6 / holdMicros);
        PoolConfig settings = new PoolConfig(size, 0, Duration.ofMinutes(10), Duration.ofMinutes(10), Duration.ofHours(1),
                Duration.ofDays(1), Duration.ZERO, List.of(new Endpoint("127.0.0.1", 9000)), LoadBalancing.IN_ORDER,
                Duration.ofSeconds(10), Duration.ofDays(1));
        double[][] rates = new double[2][rounds];
        try (ConnectionPool pool = new ConnectionPool(ConnectionConfig.builder().build(), settings,
                new ConnectionPoolTest.FakeConnector(), System::nanoTime, b -> ThreadLocalRandom.current().nextLong(b))) {
            for (int round = -1; round < rounds; round++) {
                for (int arm = 0; arm < 2; arm++) {
                    ExecutorService ex = arm == 0
                            ? (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null)
                            : Executors.newFixedThreadPool(size);
                    long t0 = System.nanoTime();
                    List<Future<?>> fs = new ArrayList<>(tasks);
                    for (int i = 0; i < tasks; i++) {
                        fs.add(ex.submit(() -> {
                            ConnectionLease lease = pool.acquire();
                            try {
                                if (holdMicros > 0) {
                                    LockSupport.parkNanos(holdMicros * 1000);
                                }
                            } finally {
                                lease.close();
                            }
                        }));
                    }
                    for (Future<?> f : fs) {
                        f.get();
                    }
                    double rate = tasks / ((System.nanoTime() - t0) / 1e9);
                    ex.shutdown();
                    ex.awaitTermination(1, TimeUnit.MINUTES);
                    if (round >= 0) {
                        rates[arm][round] = rate;
                    }
                }
            }
        }
        String[] names = {"virtual", "platform"};
        for (int arm = 0; arm < 2; arm++) {
            double[] r = rates[arm].clone();
            Arrays.sort(r);
            System.out.printf(Locale.ROOT, "%-8s best %9.0f/s  median %9.0f/s  rounds %s%n", names[arm], r[r.length - 1],
                    r[r.length / 2], Arrays.toString(rates[arm]));
        }
    }
}
