package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * AggregateFunction(f, T...) column: each row's serialized aggregation state as opaque bytes, exactly as
 * the server wrote it (ClickHouse {@code SerializationAggregateFunction}); the states are stored back to
 * back with end offsets, like a String column. The bytes round-trip unchanged: insert them into a column
 * of the same type and {@code finalizeAggregation} / {@code fMerge} on the server give the original
 * result.
 *
 * <p>{@link #getBytes} / {@link #getObject} return a copy of one state ({@code byte[]});
 * {@link #getByteBuffer} a read-only view. {@link #getString} decodes the state bytes as UTF-8 (the
 * server's {@code toString} of a state is its raw bytes; states are binary, so only ASCII-only states
 * compare equal as text).
 */
public final class AggregateFunctionColumn extends AbstractColumn {
    private final byte[] data;
    private final int[] offsets;

    public AggregateFunctionColumn(DataType type, int rows, byte[] data, int[] offsets) {
        super(type, rows);
        this.data = data;
        this.offsets = offsets;
    }

    /** Start of row {@code row}'s state in {@link #rawData()}. */
    public int start(int row) {
        checkRow(row);
        return row == 0 ? 0 : offsets[row - 1];
    }

    /** Byte length of row {@code row}'s state. */
    public int length(int row) {
        checkRow(row);
        return offsets[row] - (row == 0 ? 0 : offsets[row - 1]);
    }

    /** The shared array holding every state (no copy). */
    public byte[] rawData() {
        checkAccessible();
        return data;
    }

    /** A copy of row {@code row}'s state bytes. */
    public byte[] getBytes(int row) {
        int s = start(row);
        return Arrays.copyOfRange(data, s, offsets[row]);
    }

    /** A read-only view of row {@code row}'s state bytes (no copy). */
    public ByteBuffer getByteBuffer(int row) {
        int s = start(row);
        return ByteBuffer.wrap(data, s, offsets[row] - s).slice().asReadOnlyBuffer();
    }

    @Override
    public Object getObject(int row) {
        return getBytes(row);
    }

    @Override
    public String getString(int row) {
        int s = start(row);
        return new String(data, s, offsets[row] - s, StandardCharsets.UTF_8);
    }

    @Override
    public Column gather(int[] indexes) {
        checkAccessible();
        int[] no = new int[indexes.length];
        long total = 0;
        for (int src : indexes) {
            if (src >= 0) {
                total += offsets[src] - (src == 0 ? 0 : offsets[src - 1]);
            }
        }
        byte[] nd = new byte[(int) total];
        int pos = 0;
        for (int i = 0; i < indexes.length; i++) {
            int src = indexes[i];
            if (src >= 0) {
                int s = src == 0 ? 0 : offsets[src - 1];
                int len = offsets[src] - s;
                System.arraycopy(data, s, nd, pos, len);
                pos += len;
            }
            no[i] = pos;
        }
        return new AggregateFunctionColumn(type, indexes.length, nd, no);
    }

    @Override
    public Column copy() {
        checkAccessible();
        int used = rows == 0 ? 0 : offsets[rows - 1];
        return new AggregateFunctionColumn(type, rows, Arrays.copyOf(data, used), Arrays.copyOf(offsets, rows));
    }
}
