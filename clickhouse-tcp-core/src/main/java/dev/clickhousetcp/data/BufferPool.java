package dev.clickhousetcp.data;

import java.util.ArrayDeque;

/**
 * Recycles the byte and int arrays that column data is decoded into, so a long result stream reuses
 * a handful of buffers instead of allocating per block. Arrays come in power-of-two size classes
 * from 4 KiB up; smaller requests are plain allocations. The pool keeps at most
 * {@code maxRetainedBytes} of idle arrays.
 *
 * <p>Not thread-safe: one pool belongs to one connection, used by the thread reading its results.
 */
public final class BufferPool {
    private static final int MIN_CLASS = 12; // 4 KiB
    private static final int MAX_CLASS = 30; // 1 GiB
    private static final int MAX_PER_CLASS = 8;

    @SuppressWarnings({"unchecked", "rawtypes"})
    private final ArrayDeque<byte[]>[] bytes = new ArrayDeque[MAX_CLASS + 1];
    @SuppressWarnings({"unchecked", "rawtypes"})
    private final ArrayDeque<int[]>[] ints = new ArrayDeque[MAX_CLASS + 1];
    private final long maxRetainedBytes;
    private long retainedBytes;
    private long reused;
    private long allocated;
    private long reusedBytes;
    private long allocatedBytes;

    /**
     * An empty pool.
     *
     * @param maxRetainedBytes most bytes of idle arrays to keep (byte arrays count their length, int arrays four
     *                         bytes per element); 0 keeps none, so every request allocates
     */
    public BufferPool(long maxRetainedBytes) {
        this.maxRetainedBytes = maxRetainedBytes;
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
            allocated++;
            allocatedBytes += n;
            return new byte[n];
        }
        int c = sizeClass(n);
        ArrayDeque<byte[]> q = bytes[c];
        if (q != null && !q.isEmpty()) {
            byte[] b = q.pollLast();
            retainedBytes -= b.length;
            reused++;
            reusedBytes += b.length;
            return b;
        }
        allocated++;
        allocatedBytes += 1L << c;
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
            allocated++;
            allocatedBytes += 4L * n;
            return new int[n];
        }
        int c = sizeClass(n);
        ArrayDeque<int[]> q = ints[c];
        if (q != null && !q.isEmpty()) {
            int[] a = q.pollLast();
            retainedBytes -= 4L * a.length;
            reused++;
            reusedBytes += 4L * a.length;
            return a;
        }
        allocated++;
        allocatedBytes += 4L << c;
        return new int[1 << c];
    }

    /**
     * Returns an array obtained from {@link #bytes}; other arrays are ignored. The array is kept only while
     * its size class has fewer than 8 idle arrays and the pool stays within {@link #maxRetainedBytes()};
     * the caller must not use it afterwards.
     *
     * @param b the array to recycle; arrays whose length is not a power of two of at least 4 KiB are dropped
     */
    public void release(byte[] b) {
        int len = b.length;
        if (Integer.bitCount(len) != 1 || len < (1 << MIN_CLASS) || retainedBytes + len > maxRetainedBytes) {
            return;
        }
        retain(bytes, b, len, len);
    }

    /**
     * Returns an array obtained from {@link #ints}; other arrays are ignored. The array is kept only while
     * its size class has fewer than 8 idle arrays and the pool stays within {@link #maxRetainedBytes()};
     * the caller must not use it afterwards.
     *
     * @param a the array to recycle; arrays whose length is not a power of two of at least 1024 are dropped
     */
    public void release(int[] a) {
        int len = a.length;
        if (Integer.bitCount(len) != 1 || len < (1 << (MIN_CLASS - 2)) || retainedBytes + 4L * len > maxRetainedBytes) {
            return;
        }
        retain(ints, a, len, 4L * len);
    }

    /** Keeps {@code a}, of {@code len} elements and {@code size} bytes, in its size class while that has room. */
    private <A> void retain(ArrayDeque<A>[] classes, A a, int len, long size) {
        int c = Integer.numberOfTrailingZeros(len);
        if (classes[c] == null) {
            classes[c] = new ArrayDeque<>();
        }
        if (classes[c].size() < MAX_PER_CLASS) {
            classes[c].addLast(a);
            retainedBytes += size;
        }
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
     * Bytes currently held idle.
     *
     * @return the total size of the arrays waiting for reuse, in bytes
     */
    public long retainedBytes() {
        return retainedBytes;
    }

    /**
     * Requests served from recycled arrays.
     *
     * @return the number of {@link #bytes} and {@link #ints} calls answered from the pool since it was created
     */
    public long reusedCount() {
        return reused;
    }

    /**
     * Bytes of arrays served from the pool.
     *
     * @return the total size of the recycled arrays handed out since the pool was created, in bytes
     */
    public long reusedBytes() {
        return reusedBytes;
    }

    /**
     * Bytes of arrays newly allocated.
     *
     * @return the total size of the arrays allocated by {@link #bytes} and {@link #ints}, in bytes
     */
    public long allocatedBytes() {
        return allocatedBytes;
    }

    /**
     * Requests that allocated a new array.
     *
     * @return the number of {@link #bytes} and {@link #ints} calls that allocated, pooled size or not
     */
    public long allocatedCount() {
        return allocated;
    }
}
