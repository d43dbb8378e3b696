package dev.clickhousetcp.client;

/**
 * A snapshot of a connection pool's state.
 *
 * @param active        connections lent out
 * @param idle          connections waiting in the pool
 * @param pending       threads waiting for a connection
 * @param total         active + idle
 * @param maxSize       configured maximum
 * @param created       connections opened since start
 * @param destroyed     connections closed since start (broken, expired or at shutdown)
 * @param acquireTimeouts acquisitions that timed out
 * @param totalAcquireNanos sum of time spent acquiring, nanoseconds
 * @param acquisitions  successful acquisitions
 */
public record PoolStats(int active, int idle, int pending, int total, int maxSize, long created, long destroyed,
                        long acquireTimeouts, long totalAcquireNanos, long acquisitions) {
}
