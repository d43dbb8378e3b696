package dev.clickhousetcp.client;

import java.util.Arrays;

/**
 * A snapshot of a connection pool's state.
 *
 * @param active            connections lent out
 * @param idle              connections waiting in the pool
 * @param pending           threads waiting for a connection
 * @param total             connections open or being opened (active + idle + opening)
 * @param maxSize           configured maximum
 * @param created           connections opened since start
 * @param destroyed         connections closed since start (broken, expired, evicted or at shutdown)
 * @param acquireTimeouts   acquisitions that timed out
 * @param totalAcquireNanos sum of time spent acquiring, nanoseconds
 * @param acquisitions      successful acquisitions
 * @param maxAcquireNanos   longest successful acquisition, nanoseconds
 * @param acquireHistogram  counts of acquisitions taking at most 100 µs, 1 ms, 10 ms, 100 ms, 1 s, and more
 *                          (see {@link #ACQUIRE_BUCKET_BOUNDS_MICROS})
 * @param leaksReported     connections reported by leak detection
 */
public record PoolStats(int active, int idle, int pending, int total, int maxSize, long created, long destroyed,
                        long acquireTimeouts, long totalAcquireNanos, long acquisitions, long maxAcquireNanos,
                        long[] acquireHistogram, long leaksReported) {

    /** Upper bounds in microseconds of all histogram buckets but the last (which is unbounded). */
    public static final long[] ACQUIRE_BUCKET_BOUNDS_MICROS = ConnectionPool.ACQUIRE_BUCKETS_MICROS.clone();

    /**
     * Copies the histogram, so the record does not share the caller's array.
     *
     * @param active            connections lent out
     * @param idle              connections waiting in the pool
     * @param pending           threads waiting for a connection
     * @param total             connections open or being opened
     * @param maxSize           configured maximum
     * @param created           connections opened since start
     * @param destroyed         connections closed since start
     * @param acquireTimeouts   acquisitions that timed out
     * @param totalAcquireNanos sum of time spent acquiring, nanoseconds
     * @param acquisitions      successful acquisitions
     * @param maxAcquireNanos   longest successful acquisition, nanoseconds
     * @param acquireHistogram  counts per bucket of {@link #ACQUIRE_BUCKET_BOUNDS_MICROS}, plus one for the
     *                          rest; copied
     * @param leaksReported     connections reported by leak detection
     */
    public PoolStats {
        acquireHistogram = acquireHistogram.clone();
    }

    /**
     * A copy of the histogram counts.
     *
     * @return a new array of {@code ACQUIRE_BUCKET_BOUNDS_MICROS.length + 1} counts, the last one for
     *         acquisitions above the largest bound
     */
    @Override
    public long[] acquireHistogram() {
        return acquireHistogram.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PoolStats p && active == p.active && idle == p.idle && pending == p.pending && total == p.total
                && maxSize == p.maxSize && created == p.created && destroyed == p.destroyed
                && acquireTimeouts == p.acquireTimeouts && totalAcquireNanos == p.totalAcquireNanos
                && acquisitions == p.acquisitions && maxAcquireNanos == p.maxAcquireNanos
                && Arrays.equals(acquireHistogram, p.acquireHistogram) && leaksReported == p.leaksReported;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(new long[] {active, idle, pending, total, created, destroyed, acquisitions})
                + Arrays.hashCode(acquireHistogram);
    }

    @Override
    public String toString() {
        return "PoolStats[active=" + active + ", idle=" + idle + ", pending=" + pending + ", total=" + total + ", maxSize="
                + maxSize + ", created=" + created + ", destroyed=" + destroyed + ", acquireTimeouts=" + acquireTimeouts
                + ", acquisitions=" + acquisitions + ", maxAcquireNanos=" + maxAcquireNanos + ", acquireHistogram="
                + Arrays.toString(acquireHistogram) + ", leaksReported=" + leaksReported + "]";
    }
}
