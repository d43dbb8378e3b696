package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The figures of docs/scaling.md's cost model (not a test; run its main method against the local cluster,
 * {@code scripts/clickhouse-server.sh start cluster}): rows per second of each read tier, per wall second and
 * per second of this process's CPU time (client threads, GC and JIT together), and heap per pooled
 * connection, idle and after a read has filled its block buffers.
 *
 * <p>Arguments: {@code host:port[,host:port...]} (default the cluster's three nodes), rows per read
 * (default 1,000,000), connections for the memory figure (default 120).
 */
public final class ScalingFigures {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    /** One row of the read: the same shape as the benchmarks' (id, text, float). */
    public record Item(long number, String text, double value) {
    }

    private interface Read {
        long run(ClickHouseTcpClient c, String sql);
    }

    private ScalingFigures() {
    }

    public static void main(String[] args) throws Exception {
        List<String> endpoints = List.of((args.length > 0 ? args[0] : "127.0.0.1:19101,127.0.0.1:19102,127.0.0.1:19103")
                .split(","));
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        int connections = args.length > 2 ? Integer.parseInt(args[2]) : 120;
        System.out.printf("java %s, %d available processors, load average %.2f%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), OS.getSystemLoadAverage());
        if (rows > 0) {
            tiers(endpoints.get(0), rows);
        }
        memory(endpoints, connections);
    }

    private static void tiers(String endpoint, int rows) {
        String sql = "SELECT number, toString(number) AS text, toFloat64(number) AS value FROM numbers(" + rows + ")";
        long expected = checksum(rows);
        Read blocks = (c, q) -> {
            long sum = 0;
            try (QueryResult r = c.query(q)) {
                for (Block b : r) {
                    for (int i = 0; i < b.rowCount(); i++) {
                        sum += b.column(0).getLong(i) + b.column(1).getString(i).length()
                                + (long) b.column(2).getDouble(i);
                    }
                }
            }
            return sum;
        };
        Read records = (c, q) -> {
            long[] sum = {0};
            c.forEach(q, Item.class, it -> sum[0] += it.number() + it.text().length() + (long) it.value());
            return sum[0];
        };
        Read objectRows = (c, q) -> {
            long sum = 0;
            for (Object[] row : c.queryRows(q)) {
                sum += ((Number) row[0]).longValue() + ((String) row[1]).length() + (long) (double) (Double) row[2];
            }
            return sum;
        };
        try (ClickHouseTcpClient c = ClickHouseTcpClient.builder().endpoints(List.of(endpoint)).build()) {
            String[] names = {"block tier (columns, getString)", "records (forEach, streamed)", "Object[] rows (queryRows)"};
            Read[] reads = {blocks, records, objectRows};
            for (int t = 0; t < reads.length; t++) {
                for (int i = 0; i < 3; i++) {
                    check(reads[t].run(c, sql), expected);
                }
                double[] wall = new double[7];
                double[] cpu = new double[7];
                for (int i = 0; i < wall.length; i++) {
                    long cpu0 = OS.getProcessCpuTime();
                    long t0 = System.nanoTime();
                    check(reads[t].run(c, sql), expected);
                    long t1 = System.nanoTime();
                    long cpu1 = OS.getProcessCpuTime();
                    wall[i] = rows / ((t1 - t0) / 1e9);
                    cpu[i] = rows / ((cpu1 - cpu0) / 1e9);
                }
                Arrays.sort(wall);
                Arrays.sort(cpu);
                System.out.printf("%-34s %,12.0f rows/s wall (best %,.0f), %,12.0f rows per client CPU second (best %,.0f)%n",
                        names[t], wall[3], wall[6], cpu[3], cpu[6]);
            }
        }
    }

    private static long checksum(long rows) {
        long sum = 0;
        for (long i = 0; i < rows; i++) {
            sum += i + Long.toString(i).length() + i;
        }
        return sum;
    }

    private static void check(long got, long expected) {
        if (got != expected) {
            throw new IllegalStateException("checksum " + got + ", expected " + expected);
        }
    }

    private static long heapAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static void memory(List<String> endpoints, int n) throws Exception {
        try (ClickHouseTcpClient c = ClickHouseTcpClient.builder().endpoints(endpoints)
                .loadBalancing(LoadBalancing.ROUND_ROBIN).maxPoolSize(n).build()) {
            c.ping(); // one connection, so classes are loaded before the baseline
            long base = heapAfterGc();
            List<ConnectionLease> leases = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                leases.add(c.acquire(Budget.NONE));
            }
            leases.forEach(ConnectionLease::close);
            long idle = heapAfterGc();
            System.out.printf("%d idle pooled connections (never read): %,d bytes of heap each (%s)%n", n,
                    (idle - base) / n, c.poolStats());
            leases.clear();
            for (int i = 0; i < n; i++) {
                leases.add(c.acquire(Budget.NONE));
            }
            long retained = 0;
            for (ConnectionLease lease : leases) {
                try (QueryResult r = lease.connection().query(
                        "SELECT number, toString(number), toFloat64(number) FROM numbers(200000)", QueryOptions.DEFAULT)) {
                    for (Block b : r) {
                        b.rowCount();
                    }
                }
                retained = lease.connection().bufferPool().retainedBytes(); // the client's pool, shared
            }
            leases.forEach(ConnectionLease::close);
            long read = heapAfterGc();
            System.out.printf("%d idle pooled connections after a 200,000-row read each: %,d bytes of heap each"
                    + " (the client keeps %,d bytes of block buffers for reuse, shared by them)%n", n, (read - base) / n,
                    retained);
            Thread.sleep(Long.getLong("scaling.pauseMillis", 0));
        }
    }
}
