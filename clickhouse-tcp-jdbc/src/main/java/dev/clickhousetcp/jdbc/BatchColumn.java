package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.ColumnWriter;

import java.util.Arrays;

/**
 * The values one placeholder of a native-insert batch collected, one per {@code addBatch} row, before the
 * server's insert header types them. A column whose rows all came from {@code setLong} stays {@code long}s
 * (all from {@code setDouble}: {@code double}s), handed to the column writer in bulk where that is the column's
 * own layout (Int64, UInt64, Float64) and through {@link ColumnWriter#appendLong}/{@link ColumnWriter#appendDouble}
 * otherwise, never boxed; any other mix is held as objects (the primitives collected so far boxed once, when the
 * first other value arrives). Not thread-safe.
 */
final class BatchColumn {
    private static final byte EMPTY = 0;
    private static final byte LONGS = 1;
    private static final byte DOUBLES = 2;
    private static final byte OBJECTS = 3;
    /**
     * Rows per chunk: values are kept in chunks of 8,192 (64 KiB for a chunk of primitives), so a growing batch
     * never copies what it holds and no array is large enough to be a humongous allocation.
     */
    private static final int SHIFT = 13;
    private static final int CHUNK = 1 << SHIFT;
    private static final int MASK = CHUNK - 1;

    private byte mode = EMPTY;
    private long[][] bits = new long[1][];
    private double[][] doubles = new double[1][];
    private Object[][] objects = new Object[1][];
    private int size;
    /** The value of the row {@link #appendTo} stopped at, and why; set when it returns less than its end. */
    private Object failedValue;
    private ClickHouseTypeException failure;

    int size() {
        return size;
    }

    void addLong(long v) {
        if (mode == EMPTY) {
            mode = LONGS;
        }
        if (mode == LONGS) {
            addBits(v);
        } else {
            add(Long.valueOf(v));
        }
    }

    void addDouble(double v) {
        if (mode == EMPTY) {
            mode = DOUBLES;
        }
        if (mode == DOUBLES) {
            int c = size >>> SHIFT;
            if (c == doubles.length) {
                doubles = Arrays.copyOf(doubles, c * 2);
            }
            double[] chunk = doubles[c];
            if (chunk == null) {
                chunk = doubles[c] = new double[CHUNK];
            }
            chunk[size++ & MASK] = v;
        } else {
            add(Double.valueOf(v));
        }
    }

    void add(Object v) {
        if (mode != OBJECTS) {
            toObjects();
        }
        int c = size >>> SHIFT;
        if (c == objects.length) {
            objects = Arrays.copyOf(objects, c * 2);
        }
        Object[] chunk = objects[c];
        if (chunk == null) {
            chunk = objects[c] = new Object[CHUNK];
        }
        chunk[size++ & MASK] = v;
    }

    private void addBits(long v) {
        int c = size >>> SHIFT;
        if (c == bits.length) {
            bits = Arrays.copyOf(bits, c * 2);
        }
        long[] chunk = bits[c];
        if (chunk == null) {
            chunk = bits[c] = new long[CHUNK];
        }
        chunk[size++ & MASK] = v;
    }

    /** Boxes the primitive rows collected so far: the column now holds objects. */
    private void toObjects() {
        byte was = mode;
        int n = size;
        mode = OBJECTS;
        size = 0;
        for (int i = 0; i < n; i++) {
            add(was == LONGS ? (Object) bits[i >>> SHIFT][i & MASK] : (Object) doubles[i >>> SHIFT][i & MASK]);
        }
        if (n > 0) {
            bits = new long[1][];
            doubles = new double[1][];
        }
    }

    /** Row {@code row}'s value, boxed. */
    Object get(int row) {
        return switch (mode) {
            case LONGS -> bits[row >>> SHIFT][row & MASK];
            case DOUBLES -> doubles[row >>> SHIFT][row & MASK];
            default -> objects[row >>> SHIFT][row & MASK];
        };
    }

    /**
     * Appends rows {@code [from, to)} to {@code w}; returns {@code to}, or the first row the writer refused
     * (then {@link #failure()} and {@link #failedValue()} say why and what).
     */
    int appendTo(ColumnWriter w, int from, int to) {
        String type = w.type().name();
        // a long[] into Int64 (or UInt64 when no value is negative) and a double[] into Float64 are the
        // columns' own layout: copied in bulk (ColumnWriter.appendAll), the same values appendLong/appendDouble take
        boolean bulk = mode == LONGS && (type.equals("Int64") || type.equals("UInt64"))
                || mode == DOUBLES && type.equals("Float64");
        boolean unsigned = type.equals("UInt64");
        int r = from;
        try {
            while (r < to) {
                int c = r >>> SHIFT;
                int end = Math.min(to, (c + 1) << SHIFT);
                switch (mode) {
                    case LONGS -> {
                        long[] chunk = bits[c];
                        if (bulk && !(unsigned && anyNegative(chunk, r & MASK, end - r))) {
                            w.appendAll(slice(chunk, r & MASK, end - r));
                            r = end;
                        }
                        for (; r < end; r++) {
                            w.appendLong(chunk[r & MASK]);
                        }
                    }
                    case DOUBLES -> {
                        double[] chunk = doubles[c];
                        if (bulk) {
                            w.appendAll(slice(chunk, r & MASK, end - r));
                            r = end;
                        }
                        for (; r < end; r++) {
                            w.appendDouble(chunk[r & MASK]);
                        }
                    }
                    default -> {
                        Object[] chunk = objects[c];
                        for (; r < end; r++) {
                            w.append(chunk[r & MASK]);
                        }
                    }
                }
            }
            return to;
        } catch (ClickHouseTypeException e) {
            failure = e;
            failedValue = get(r);
            return r;
        }
    }

    private static boolean anyNegative(long[] a, int from, int n) {
        for (int i = from; i < from + n; i++) {
            if (a[i] < 0) {
                return true;
            }
        }
        return false;
    }

    /** {@code n} values of a chunk from {@code from}: the chunk itself when that is all of it. */
    private static long[] slice(long[] chunk, int from, int n) {
        return from == 0 && n == chunk.length ? chunk : Arrays.copyOfRange(chunk, from, from + n);
    }

    private static double[] slice(double[] chunk, int from, int n) {
        return from == 0 && n == chunk.length ? chunk : Arrays.copyOfRange(chunk, from, from + n);
    }

    ClickHouseTypeException failure() {
        return failure;
    }

    Object failedValue() {
        return failedValue;
    }

    /**
     * Forgets all rows, keeping the chunks for the next batch (object references are cleared, so their values
     * can be collected).
     */
    void clear() {
        if (mode == OBJECTS) {
            for (int c = 0; c < objects.length && objects[c] != null && (c << SHIFT) < size; c++) {
                Arrays.fill(objects[c], 0, Math.min(CHUNK, size - (c << SHIFT)), null);
            }
        }
        mode = EMPTY;
        size = 0;
        failure = null;
        failedValue = null;
    }
}
