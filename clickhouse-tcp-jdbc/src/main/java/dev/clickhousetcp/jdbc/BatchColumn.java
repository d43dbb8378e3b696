package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.ColumnWriter;

import java.util.Arrays;

/**
 * The values one placeholder of a native-insert batch collected, one per {@code addBatch} row, before the
 * server's insert header types them. A column whose rows all came from {@code setLong} (or all from
 * {@code setDouble}) stays a {@code long[]} of values (doubles as their raw IEEE-754 bits) and is handed to
 * the column writer through {@link ColumnWriter#appendLong}/{@link ColumnWriter#appendDouble}, without boxing;
 * any other mix is held as objects (the primitives collected so far boxed once, when the first other value
 * arrives). Not thread-safe.
 */
final class BatchColumn {
    private static final byte EMPTY = 0;
    private static final byte LONGS = 1;
    private static final byte DOUBLES = 2;
    private static final byte OBJECTS = 3;
    private static final long[] NO_BITS = {};
    private static final Object[] NO_OBJECTS = {};

    private byte mode = EMPTY;
    private long[] bits = NO_BITS;
    private Object[] objects = NO_OBJECTS;
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
            addBits(Double.doubleToRawLongBits(v));
        } else {
            add(Double.valueOf(v));
        }
    }

    void add(Object v) {
        if (mode != OBJECTS) {
            toObjects();
        }
        if (size == objects.length) {
            objects = Arrays.copyOf(objects, grown(size));
        }
        objects[size++] = v;
    }

    private void addBits(long v) {
        if (size == bits.length) {
            bits = Arrays.copyOf(bits, grown(size));
        }
        bits[size++] = v;
    }

    private static int grown(int n) {
        return Math.max(16, n + (n >> 1));
    }

    /** Boxes the primitive rows collected so far: the column now holds objects. */
    private void toObjects() {
        if (objects.length <= size) {
            objects = new Object[grown(size)];
        }
        for (int i = 0; i < size; i++) {
            objects[i] = mode == LONGS ? (Object) bits[i] : (Object) Double.longBitsToDouble(bits[i]);
        }
        if (size > 0) {
            bits = NO_BITS;
        }
        mode = OBJECTS;
    }

    /** Row {@code row}'s value, boxed. */
    Object get(int row) {
        return switch (mode) {
            case LONGS -> bits[row];
            case DOUBLES -> Double.longBitsToDouble(bits[row]);
            default -> objects[row];
        };
    }

    /**
     * Appends rows {@code [from, to)} to {@code w}; returns {@code to}, or the first row the writer refused
     * (then {@link #failure()} and {@link #failedValue()} say why and what).
     */
    int appendTo(ColumnWriter w, int from, int to) {
        int r = from;
        try {
            switch (mode) {
                case LONGS -> {
                    for (; r < to; r++) {
                        w.appendLong(bits[r]);
                    }
                }
                case DOUBLES -> {
                    for (; r < to; r++) {
                        w.appendDouble(Double.longBitsToDouble(bits[r]));
                    }
                }
                default -> {
                    for (; r < to; r++) {
                        w.append(objects[r]);
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

    ClickHouseTypeException failure() {
        return failure;
    }

    Object failedValue() {
        return failedValue;
    }

    /** Forgets all rows, keeping the capacity (object references are cleared, so their values can be collected). */
    void clear() {
        if (mode == OBJECTS) {
            Arrays.fill(objects, 0, size, null);
        }
        mode = EMPTY;
        size = 0;
        failure = null;
        failedValue = null;
    }
}
