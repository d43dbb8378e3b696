package dev.clickhousetcp.data;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Recycles the byte and int arrays that column data is decoded into, so a long result stream reuses
 * a handful of buffers instead of allocating per block. Arrays come in power-of-two size classes
 * from 4 KiB up; smaller requests are plain allocations. The pool keeps at most
 * {@code maxRetainedBytes} of idle arrays in all, and at most half of that in any one size class of
 * either kind, so arrays of one size left by an unusual result cannot take the whole budget; an array
 * given back beyond either bound is dropped (left to the garbage collector).
 *
 * <p>Thread-safe and lock-free: a client's connections share one pool, so the idle arrays of the whole
 * client stay within one budget however many connections it has (none is kept per connection).
 */
public final class BufferPool {
    private static final int MIN_CLASS = 12; // 4 KiB
    private static final int MAX_CLASS = 30; // 1 GiB

    @SuppressWarnings({"unchecked", "rawtypes"})
    private final ConcurrentLinkedDeque<byte[]>[] bytes = new ConcurrentLinkedDeque[MAX_CLASS + 1];
    @SuppressWarnings({"unchecked", "rawtypes"})
    private final ConcurrentLinkedDeque<int[]>[] ints = new ConcurrentLinkedDeque[MAX_CLASS + 1];
    /** Idle bytes per size class: byte arrays at {@code [c]}, int arrays at {@code [MAX_CLASS + 1 + c]}. */
    private final AtomicLongArray classBytes = new AtomicLongArray(2 * (MAX_CLASS + 1));
    private final long maxRetainedBytes;
    private final long maxClassBytes;
    private final AtomicLong retainedBytes = new AtomicLong();
    private final LongAdder reused = new LongAdder();
    private final LongAdder allocated = new LongAdder();
    private final LongAdder reusedBytes = new LongAdder();
    private final LongAdder allocatedBytes = new LongAdder();

    /**
     * An empty pool.
     *
     * @param maxRetainedBytes most bytes of idle arrays to keep (byte arrays count their length, int arrays four
     *                         bytes per element); 0 keeps none, so every request allocates
     */
    public BufferPool(long maxRetainedBytes) {
        this.maxRetainedBytes = maxRetainedBytes;
        this.maxClassBytes = maxRetainedBytes / 2;
        for (int c = MIN_CLASS; c <= MAX_CLASS; c++) {
            bytes[c] = new ConcurrentLinkedDeque<>();
            ints[c] = new ConcurrentLinkedDeque<>();
        }
    }

    private static int sizeClass(int n) {
        int c = 32 - Integer.numberOfLeadingZeros(Math.max(n, 1) - 1);
        return Math.max(c, MIN_CLASS);
    }

    /**
     * A byte array of at least {@code n} bytes (contents undefined).
     *
     * @param n the number of bytes needed, non-negative
     * @return an array of exactly {@code n} bytes when {@code n} is below 4 KiB or above 1 GiB, else a recycled or
     *         new array whose length is the next power of two at or above {@code n}
     */
    public byte[] bytes(int n) {
        if (n < (1 << MIN_CLASS) || n > (1 << MAX_CLASS)) {
            countAllocation(n);
            return new byte[n];
        }
        int c = sizeClass(n);
        byte[] b = bytes[c].pollLast();
        if (b != null) {
            countReuse(c, b.length);
            return b;
        }
        countAllocation(1L << c);
        return new byte[1 << c];
    }

    /**
     * An int array of at least {@code n} elements (contents undefined).
     *
     * @param n the number of elements needed, non-negative
     * @return an array of exactly {@code n} elements when {@code n} is below 1024 or above 2^28, else a recycled
     *         or new array whose length is a power of two of at least {@code max(n, 4096)}
     */
    int[] ints(int n) {
        if (n < (1 << (MIN_CLASS - 2)) || n > (1 << (MAX_CLASS - 2))) {
            countAllocation(4L * n);
            return new int[n];
        }
        int c = sizeClass(n);
        int[] a = ints[c].pollLast();
        if (a != null) {
            countReuse(MAX_CLASS + 1 + c, 4L * a.length);
            return a;
        }
        countAllocation(4L << c);
        return new int[1 << c];
    }

    private void countAllocation(long size) {
        allocated.increment();
        allocatedBytes.add(size);
    }

    private void countReuse(int slot, long size) {
        classBytes.addAndGet(slot, -size);
        retainedBytes.addAndGet(-size);
        reused.increment();
        reusedBytes.add(size);
    }

    /**
     * Returns an array obtained from {@link #bytes}; other arrays are ignored. The array is kept only while
     * the pool stays within {@link #maxRetainedBytes()} and its size class within half of it; the caller
     * must not use it afterwards.
     *
     * @param b the array to recycle; arrays whose length is not a power of two of at least 4 KiB are dropped
     */
    public void release(byte[] b) {
        int len = b.length;
        if (Integer.bitCount(len) != 1 || len < (1 << MIN_CLASS) || len > (1 << MAX_CLASS)) {
            return;
        }
        int c = Integer.numberOfTrailingZeros(len);
        if (reserve(c, len)) {
            bytes[c].addLast(b);
        }
    }

    /**
     * Returns an array obtained from {@link #ints}; other arrays are ignored. The array is kept only while
     * the pool stays within {@link #maxRetainedBytes()} and its size class within half of it; the caller
     * must not use it afterwards.
     *
     * @param a the array to recycle; arrays whose length is not a power of two of at least 1024 are dropped
     */
    public void release(int[] a) {
        int len = a.length;
        if (Integer.bitCount(len) != 1 || len < (1 << (MIN_CLASS - 2)) || len > (1 << (MAX_CLASS - 2))) {
            return;
        }
        int c = Integer.numberOfTrailingZeros(len);
        if (c < MIN_CLASS) { // 1 Ki to 2 Ki elements: ints(n) hands out at least 4 Ki, so these are not ours
            return;
        }
        if (reserve(MAX_CLASS + 1 + c, 4L * len)) {
            ints[c].addLast(a);
        }
    }

    /**
     * Counts {@code size} more idle bytes in {@code slot} and in the pool when both stay within their
     * bounds; whether it did (the array may then be kept).
     */
    private boolean reserve(int slot, long size) {
        long total;
        do {
            total = retainedBytes.get();
            if (total + size > maxRetainedBytes) {
                return false;
            }
        } while (!retainedBytes.compareAndSet(total, total + size));
        long inClass;
        do {
            inClass = classBytes.get(slot);
            if (inClass + size > maxClassBytes) {
                retainedBytes.addAndGet(-size);
                return false;
            }
        } while (!classBytes.compareAndSet(slot, inClass, inClass + size));
        return true;
    }

    /**
     * Most bytes of idle arrays this pool keeps.
     *
     * @return the limit given to the constructor, in bytes
     */
    public long maxRetainedBytes() {
        return maxRetainedBytes;
    }

    /**
     * Bytes currently held idle (a moment's reading while other threads use the pool).
     *
     * @return the total size of the arrays waiting for reuse, in bytes, at most {@link #maxRetainedBytes()}
     */
    public long retainedBytes() {
        return retainedBytes.get();
    }

    /**
     * Requests served from recycled arrays.
     *
     * @return the number of {@link #bytes} and {@link #ints} calls answered from the pool since it was created
     */
    public long reusedCount() {
        return reused.sum();
    }

    /**
     * Bytes of arrays served from the pool.
     *
     * @return the total size of the recycled arrays handed out since the pool was created, in bytes
     */
    public long reusedBytes() {
        return reusedBytes.sum();
    }

    /**
     * Bytes of arrays newly allocated.
     *
     * @return the total size of the arrays allocated by {@link #bytes} and {@link #ints}, in bytes
     */
    public long allocatedBytes() {
        return allocatedBytes.sum();
    }

    /**
     * Requests that allocated a new array.
     *
     * @return the number of {@link #bytes} and {@link #ints} calls that allocated, pooled size or not
     */
    public long allocatedCount() {
        return allocated.sum();
    }
}
