package dev.clickhousetcp.data;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A column of fixed-width values stored as the little-endian bytes read from the wire
 * ({@code rows * width} bytes, no per-row objects). {@link #buffer()} exposes them without copying.
 */
public abstract class FixedWidthColumn extends AbstractColumn {
    /** Little-endian {@code short} view of a byte array, indexed by byte offset. */
    protected static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    /** Little-endian {@code int} view of a byte array, indexed by byte offset. */
    protected static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    /** Little-endian {@code long} view of a byte array, indexed by byte offset. */
    protected static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Little-endian {@code float} view of a byte array, indexed by byte offset. */
    protected static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
    /** Little-endian {@code double} view of a byte array, indexed by byte offset. */
    protected static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

    /** The value bytes; row {@code i} is at {@code [i * width, (i + 1) * width)}; may be longer than needed. */
    protected final byte[] data;
    /** Bytes per value. */
    protected final int width;

    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type  the column's ClickHouse type
     * @param rows  number of rows
     * @param data  the little-endian value bytes, at least {@code rows * width} long
     * @param width bytes per value
     */
    FixedWidthColumn(DataType type, int rows, byte[] data, int width) {
        super(type, rows);
        this.data = data;
        this.width = width;
    }

    /**
     * Bytes per value.
     *
     * @return the value width in bytes, for example 4 for Int32
     */
    public final int width() {
        return width;
    }

    /**
     * A read-only little-endian view of the {@code size() * width()} value bytes (no copy).
     *
     * @return a buffer positioned at row 0, valid only as long as the column is
     * @throws IllegalStateException if the owning block has been released
     */
    public final ByteBuffer buffer() {
        checkAccessible();
        return ByteBuffer.wrap(data, 0, rows * width).slice().asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The backing array (valid bytes {@code [0, size()*width())}); internal use, not a copy.
     *
     * @return the array itself, which may be longer than the valid bytes and must not be modified
     * @throws IllegalStateException if the owning block has been released
     */
    public final byte[] rawBytes() {
        checkAccessible();
        return data;
    }

    /**
     * Copies the {@code size()} integer lanes (1, 2, 4 or 8 bytes wide) into {@code dst} as longs: sign-extended,
     * or zero-extended when {@code unsigned} (an unsigned 8-byte lane keeps its bit pattern).
     *
     * @param dst       destination; needs room for {@code size()} values from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives row 0
     * @param unsigned  whether the lanes are unsigned
     * @throws IllegalStateException if the owning block has been released
     */
    final void widenTo(long[] dst, int dstOffset, boolean unsigned) {
        checkAccessible();
        int n = rows;
        byte[] d = data;
        switch (width * 2 + (unsigned ? 1 : 0)) {
            case 2 -> {
                for (int i = 0; i < n; i++) {
                    dst[dstOffset + i] = d[i];
                }
            }
            case 3 -> {
                for (int i = 0; i < n; i++) {
                    dst[dstOffset + i] = d[i] & 0xFFL;
                }
            }
            case 4 -> {
                for (int i = 0; i < n; i++) {
                    dst[dstOffset + i] = (short) SHORT.get(d, i << 1);
                }
            }
            case 5 -> {
                for (int i = 0; i < n; i++) {
                    dst[dstOffset + i] = ((short) SHORT.get(d, i << 1)) & 0xFFFFL;
                }
            }
            case 8 -> {
                for (int i = 0; i < n; i++) {
                    dst[dstOffset + i] = (int) INT.get(d, i << 2);
                }
            }
            case 9 -> {
                for (int i = 0; i < n; i++) {
                    dst[dstOffset + i] = ((int) INT.get(d, i << 2)) & 0xFFFFFFFFL;
                }
            }
            case 16, 17 -> ByteBuffer.wrap(d, 0, n * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(dst, dstOffset, n);
            default -> throw new IllegalStateException("integer width " + width);
        }
    }

    /**
     * Creates a column of the same class and type over other bytes.
     *
     * @param data the little-endian value bytes, at least {@code rows * width()} long; not copied
     * @param rows number of rows
     * @return the new, unbound column
     */
    protected abstract FixedWidthColumn withData(byte[] data, int rows);

    @Override
    public Column gather(int[] indexes) {
        checkAccessible();
        byte[] out = new byte[indexes.length * width];
        for (int i = 0; i < indexes.length; i++) {
            int src = indexes[i];
            if (src >= 0) {
                System.arraycopy(data, src * width, out, i * width, width);
            }
        }
        return withData(out, indexes.length);
    }

    @Override
    public Column copy() {
        checkAccessible();
        return withData(Arrays.copyOf(data, rows * width), rows);
    }
}
