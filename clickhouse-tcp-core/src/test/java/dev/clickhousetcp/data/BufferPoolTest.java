package dev.clickhousetcp.data;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BufferPool}: one pool shared by the threads of a client's connections keeps within its budget
 * in all, and within half of it in one size class, while they take and give back arrays at once, and
 * its count of retained bytes matches the arrays it holds.
 */
class BufferPoolTest {

    private static final int MIB = 1 << 20;

    @Test
    void oneSizeClassKeepsAtMostHalfTheBudgetAndTheRestIsDropped() {
        BufferPool pool = new BufferPool(4 * MIB);
        List<byte[]> taken = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            taken.add(pool.bytes(MIB));
        }
        taken.forEach(pool::release);
        assertThat(pool.retainedBytes()).isEqualTo(2L * MIB);
        // another class fills the rest of the budget, and no more
        List<int[]> ints = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ints.add(pool.ints(1 << 17)); // 512 KiB each
        }
        ints.forEach(pool::release);
        assertThat(pool.retainedBytes()).isEqualTo(4L * MIB);
        assertThat(pool.bytes(MIB)).isSameAs(taken.get(1)); // the last kept comes back first
        assertThat(pool.retainedBytes()).isEqualTo(3L * MIB);
        // nothing is kept with a budget of 0
        BufferPool none = new BufferPool(0);
        none.release(none.bytes(MIB));
        assertThat(none.retainedBytes()).isZero();
        assertThat(none.bytes(MIB)).hasSize(MIB);
        assertThat(none.reusedCount()).isZero();
    }

    @Test
    void threadsSharingThePoolStayWithinItsBudgetAndItsCountMatchesWhatItHolds() throws Exception {
        long budget = 8L * MIB;
        BufferPool pool = new BufferPool(budget);
        int threads = 4;
        AtomicLong highest = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(executor.submit(() -> {
                    start.await();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < 20_000; i++) {
                        int size = 4096 << random.nextInt(8); // 4 KiB to 512 KiB
                        byte[] b = pool.bytes(size - random.nextInt(2048));
                        int[] a = pool.ints(size / 4);
                        highest.accumulateAndGet(pool.retainedBytes(), Math::max);
                        pool.release(b);
                        pool.release(a);
                        highest.accumulateAndGet(pool.retainedBytes(), Math::max);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            executor.shutdownNow();
        }
        assertThat(highest.get()).isPositive().isLessThanOrEqualTo(budget);
        assertThat(pool.reusedCount()).isPositive();
        // take back everything the pool holds: its count then comes to exactly 0
        for (int c = 12; c <= 19; c++) {
            long allocated = pool.allocatedCount();
            while (pool.allocatedCount() == allocated) {
                pool.bytes(1 << c);
            }
            allocated = pool.allocatedCount();
            while (pool.allocatedCount() == allocated) {
                pool.ints(1 << c);
            }
        }
        assertThat(pool.retainedBytes()).isZero();
    }
}
