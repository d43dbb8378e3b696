package dev.clickhousetcp.data;

import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Writer base for fixed-width types: values accumulate as little-endian bytes, written in one bulk copy.
 * A whole primitive array handed to an empty writer ({@link #borrow}) is not copied at all: it is
 * serialized straight from the caller's array when the block is written, and copied into the byte
 * buffer only if more values are appended after it.
 */
abstract class FixedWriter implements ColumnWriter {
    static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    final DataType type;
    final int width;
    byte[] buf;
    int count;
    /** A caller's {@code long[]}, {@code int[]}, {@code double[]} or {@code float[]} holding rows {@code [0, count)}, or null. */
    private Object borrowed;

    FixedWriter(DataType type, int width) {
        this.type = type;
        this.width = width;
        this.buf = new byte[Math.max(64, width * 1024)];
    }

    /** A writer of a fixed-width family's values, {@code type.rowBinaryWidth()} bytes each. */
    FixedWriter(FixedWidthType type) {
        this(type, type.rowBinaryWidth());
    }

    @Override
    public DataType type() {
        return type;
    }

    /**
     * Takes {@code values} (a {@code long[]} or {@code double[]} for width 8, an {@code int[]} or
     * {@code float[]} for width 4, already range-checked by the caller) as this empty writer's rows
     * without copying; the caller must not modify the array until the block is written.
     */
    final void borrow(Object values, int length) {
        if (count != 0 || borrowed != null) {
            throw new IllegalStateException("borrow into a non-empty writer");
        }
        borrowed = values;
        count = length;
    }

    /** Whether nothing has been appended yet (so {@link #borrow} may take an array). */
    final boolean isEmpty() {
        return count == 0 && borrowed == null;
    }

    /** Copies a borrowed array into the byte buffer, so that more rows can follow it. */
    private void materialize() {
        Object a = borrowed;
        borrowed = null;
        int n = count;
        if ((long) n * width > buf.length) {
            if ((long) n * width > Integer.MAX_VALUE - 16 - width * 1024L) {
                throw new dev.clickhousetcp.ClickHouseTypeException("column " + type.name() + " exceeds 2 GiB in one block");
            }
            buf = new byte[n * width + width * 1024];
        }
        BinaryWriter.putLittleEndian(a, 0, n, buf, 0);
    }

    /**
     * Reserves {@code n} consecutive slots (growing the buffer at most once) and returns the byte
     * offset of the first.
     */
    final int reserve(int n) {
        if (borrowed != null) {
            materialize();
        }
        int off = count * width;
        long end = (long) off + (long) n * width;
        if (end > buf.length) {
            if (end > Integer.MAX_VALUE - 16) {
                throw new dev.clickhousetcp.ClickHouseTypeException("column " + type.name() + " exceeds 2 GiB in one block");
            }
            buf = Arrays.copyOf(buf, (int) Math.max(Math.min((long) buf.length * 2, Integer.MAX_VALUE - 16), end));
        }
        count += n;
        return off;
    }

    /** Reserves one slot and returns its byte offset. */
    final int slot() {
        if (borrowed != null) {
            materialize();
        }
        int off = count * width;
        if (off + width > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, off + width));
        }
        count++;
        return off;
    }

    final void putLong(long bits) {
        int off = slot();
        switch (width) {
            case 1 -> buf[off] = (byte) bits;
            case 2 -> SHORT.set(buf, off, (short) bits);
            case 4 -> INT.set(buf, off, (int) bits);
            case 8 -> LONG.set(buf, off, bits);
            default -> throw new IllegalStateException("width " + width);
        }
    }

    @Override
    public void appendDefault() {
        int off = slot();
        Arrays.fill(buf, off, off + width, (byte) 0);
    }

    @Override
    public int size() {
        return count;
    }

    @Override
    public void writeData(BinaryWriter out) throws IOException {
        if (borrowed == null) {
            out.writeBytes(buf, 0, count * width);
        } else {
            out.writeLittleEndian(borrowed, 0, count);
        }
    }

    @Override
    public void reset() {
        count = 0;
        borrowed = null;
    }
}
