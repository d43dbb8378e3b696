package dev.clickhousetcp.jdbc;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A result far larger than the heap streams through a {@code ResultSet}: {@code SELECT number,
 * toString(number) FROM numbers(N)} read row by row in a child JVM with {@code -Xmx128m}, checking the
 * exact row count, the sum of {@code number} and the total length of the strings (each computed from N,
 * not from the server), and that each string is its number (every 1,000th row).
 *
 * <p>N is {@value #ROWS} (about 3.4 GB of native data through a 128 MiB heap): 21 to 43 s on a loaded 2-core
 * machine, of which the child JVM's start is about one; the largest live heap measured there was 14 MiB
 * (12 MiB at 50 million rows: it does not grow with the result).
 *
 * <p>The heap measured is the largest live heap after any garbage collection (the sum of the heap pools'
 * {@code memoryUsageAfterGc} from the collectors' notifications): a peak of {@code used} would count
 * garbage not yet collected, which a 128 MiB heap lets grow to most of its size whatever the reader
 * retains. That live peak must stay under 64 MiB; the child prints it with the raw pool peaks.
 */
@ClickHouseTest
class StreamingResultSetTest {
    static final long ROWS = 200_000_000L;
    private static final long LIVE_HEAP_LIMIT = 64L << 20;

    @Test
    void aResultLargerThanTheHeapStreamsExactly() throws Exception {
        ClickHouseServer modern = ClickHouseServers.modern();
        String out = ChildJvm.run(ChildJvm.thisJava(), List.of("-Xmx128m", "-XX:+ExitOnOutOfMemoryError"),
                Reader.class, 300, JdbcTests.url(modern), String.valueOf(ROWS));
        System.out.println(out.strip());
        String line = out.lines().filter(l -> l.startsWith("READ ")).findFirst().orElseThrow(
                () -> new AssertionError("no result line from the child: " + out));
        String[] f = line.split(" ");
        long rows = Long.parseLong(f[1]);
        BigInteger sum = new BigInteger(f[2]);
        long chars = Long.parseLong(f[3]);
        long liveHeap = Long.parseLong(f[4]);
        assertThat(rows).isEqualTo(ROWS);
        assertThat(sum).isEqualTo(BigInteger.valueOf(ROWS).multiply(BigInteger.valueOf(ROWS - 1)).shiftRight(1));
        assertThat(chars).isEqualTo(digits(ROWS));
        assertThat(liveHeap).as("largest live heap after a GC, bytes").isPositive().isLessThan(LIVE_HEAP_LIMIT);
    }

    /** The total count of decimal digits of 0 .. n-1. */
    private static long digits(long n) {
        long total = 0;
        long low = 0;
        for (int d = 1; low < n; d++) {
            long high = Math.min(n, low == 0 ? 10 : low * 10);
            total += (high - low) * d;
            low = high;
        }
        return total;
    }

    /**
     * The child: arguments are the JDBC URL and N; prints {@code READ rows sum chars liveHeapBytes} and
     * the pools' raw peaks.
     */
    static final class Reader {
        private Reader() {
        }

        public static void main(String[] args) throws Exception {
            AtomicLong liveAfterGc = new AtomicLong();
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                ((NotificationEmitter) gc).addNotificationListener((n, h) -> {
                    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                        return;
                    }
                    GarbageCollectionNotificationInfo info =
                            GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                    long live = 0;
                    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                        MemoryUsage after = info.getGcInfo().getMemoryUsageAfterGc().get(pool.getName());
                        if (pool.getType() == MemoryType.HEAP && after != null) {
                            live += after.getUsed();
                        }
                    }
                    liveAfterGc.accumulateAndGet(live, Math::max);
                }, null, null);
            }
            long rows = 0;
            long chars = 0;
            BigInteger sum = BigInteger.ZERO;
            long partial = 0;
            try (Connection c = DriverManager.getConnection(args[0]); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT number, toString(number) FROM numbers(" + args[1] + ")")) {
                while (rs.next()) {
                    long n = rs.getLong(1);
                    String text = rs.getString(2);
                    if (rows % 1000 == 0 && !text.equals(Long.toString(n))) {
                        throw new AssertionError("row " + rows + ": " + n + " vs '" + text + "'");
                    }
                    chars += text.length();
                    partial += n;
                    if (partial > Long.MAX_VALUE / 2) {
                        sum = sum.add(BigInteger.valueOf(partial));
                        partial = 0;
                    }
                    rows++;
                }
            }
            sum = sum.add(BigInteger.valueOf(partial));
            System.gc();
            StringBuilder peaks = new StringBuilder("pool peaks:");
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) {
                    peaks.append(' ').append(pool.getName()).append('=').append(pool.getPeakUsage().getUsed() >> 20)
                            .append("MiB");
                }
            }
            System.out.println(peaks);
            System.out.println("READ " + rows + " " + sum + " " + chars + " " + liveAfterGc.get());
        }
    }
}
