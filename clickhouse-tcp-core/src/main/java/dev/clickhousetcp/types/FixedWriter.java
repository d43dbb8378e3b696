package dev.clickhousetcp.types;

import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Writer base for fixed-width types: values accumulate as little-endian bytes, written in one bulk copy. */
abstract class FixedWriter implements ColumnWriter {
    static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    final DataType type;
    final int width;
    byte[] buf;
    int count;

    FixedWriter(DataType type, int width) {
        this.type = type;
        this.width = width;
        this.buf = new byte[Math.max(64, width * 1024)];
    }

    @Override
    public DataType type() {
        return type;
    }

    /** Reserves one slot and returns its byte offset. */
    final int slot() {
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
        out.writeBytes(buf, 0, count * width);
    }

    @Override
    public void reset() {
        count = 0;
    }
}
