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

    public BufferPool(long maxRetainedBytes) {
        this.maxRetainedBytes = maxRetainedBytes;
    }

    private static int sizeClass(int n) {
        int c = 32 - Integer.numberOfLeadingZeros(Math.max(n, 1) - 1);
        return Math.max(c, MIN_CLASS);
    }

    /** A byte array of at least {@code n} bytes (contents undefined). */
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

    /** An int array of at least {@code n} elements (contents undefined). */
    public int[] ints(int n) {
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

    /** Returns an array obtained from {@link #bytes}; other arrays are ignored. */
    public void release(byte[] b) {
        int len = b.length;
        if (Integer.bitCount(len) != 1 || len < (1 << MIN_CLASS) || retainedBytes + len > maxRetainedBytes) {
            return;
        }
        int c = Integer.numberOfTrailingZeros(len);
        if (bytes[c] == null) {
            bytes[c] = new ArrayDeque<>();
        }
        if (bytes[c].size() < MAX_PER_CLASS) {
            bytes[c].addLast(b);
            retainedBytes += len;
        }
    }

    /** Returns an array obtained from {@link #ints}; other arrays are ignored. */
    public void release(int[] a) {
        int len = a.length;
        if (Integer.bitCount(len) != 1 || len < (1 << (MIN_CLASS - 2)) || retainedBytes + 4L * len > maxRetainedBytes) {
            return;
        }
        int c = Integer.numberOfTrailingZeros(len);
        if (ints[c] == null) {
            ints[c] = new ArrayDeque<>();
        }
        if (ints[c].size() < MAX_PER_CLASS) {
            ints[c].addLast(a);
            retainedBytes += 4L * len;
        }
    }

    /** Most bytes of idle arrays this pool keeps. */
    public long maxRetainedBytes() {
        return maxRetainedBytes;
    }

    /** Bytes currently held idle. */
    public long retainedBytes() {
        return retainedBytes;
    }

    /** Requests served from recycled arrays. */
    public long reusedCount() {
        return reused;
    }

    /** Bytes of arrays served from the pool. */
    public long reusedBytes() {
        return reusedBytes;
    }

    /** Bytes of arrays newly allocated. */
    public long allocatedBytes() {
        return allocatedBytes;
    }

    /** Requests that allocated a new array. */
    public long allocatedCount() {
        return allocated;
    }
}
