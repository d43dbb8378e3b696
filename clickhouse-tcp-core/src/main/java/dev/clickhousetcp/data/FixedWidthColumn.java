package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

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
    protected static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    protected static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    protected static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    protected static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
    protected static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

    protected final byte[] data;
    protected final int width;

    protected FixedWidthColumn(DataType type, int rows, byte[] data, int width) {
        super(type, rows);
        this.data = data;
        this.width = width;
    }

    /** Bytes per value. */
    public final int width() {
        return width;
    }

    /** A read-only little-endian view of the {@code size() * width()} value bytes (no copy). */
    public final ByteBuffer buffer() {
        checkAccessible();
        return ByteBuffer.wrap(data, 0, rows * width).slice().asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The backing array (valid bytes {@code [0, size()*width())}); internal use, not a copy. */
    public final byte[] rawBytes() {
        checkAccessible();
        return data;
    }

    /** Creates a column of the same class over other bytes. */
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
