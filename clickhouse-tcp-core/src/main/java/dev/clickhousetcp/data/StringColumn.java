package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * String column: the rows' raw bytes back to back plus end offsets ({@code offsets[i]} = end of row
 * {@code i}). Bytes stay as received (usually UTF-8) until {@link #getString} decodes one row.
 * {@link #getObject} returns {@code String}.
 */
public final class StringColumn extends AbstractColumn {
    private final byte[] data;
    private final int[] offsets;

    public StringColumn(DataType type, int rows, byte[] data, int[] offsets) {
        super(type, rows);
        this.data = data;
        this.offsets = offsets;
    }

    /** Start of row {@code row} in {@link #rawData()}. */
    public int start(int row) {
        checkRow(row);
        return row == 0 ? 0 : offsets[row - 1];
    }

    /** Byte length of row {@code row}. */
    public int length(int row) {
        checkRow(row);
        return offsets[row] - (row == 0 ? 0 : offsets[row - 1]);
    }

    /** The shared byte array holding every row (no copy); rows are at {@link #start}/{@link #length}. */
    public byte[] rawData() {
        checkAccessible();
        return data;
    }

    /** A read-only view of one row's bytes (no copy). */
    public ByteBuffer getByteBuffer(int row) {
        int s = start(row);
        return ByteBuffer.wrap(data, s, offsets[row] - s).slice().asReadOnlyBuffer();
    }

    /** A copy of one row's bytes. */
    public byte[] getBytes(int row) {
        int s = start(row);
        return Arrays.copyOfRange(data, s, offsets[row]);
    }

    @Override
    public String getString(int row) {
        int s = start(row);
        return new String(data, s, offsets[row] - s, StandardCharsets.UTF_8);
    }

    @Override
    public Object getObject(int row) {
        return getString(row);
    }

    @Override
    public Column gather(int[] indexes) {
        checkAccessible();
        int[] no = new int[indexes.length];
        long total = 0;
        for (int i = 0; i < indexes.length; i++) {
            int src = indexes[i];
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
        return new StringColumn(type, indexes.length, nd, no);
    }

    @Override
    public Column copy() {
        checkAccessible();
        int used = rows == 0 ? 0 : offsets[rows - 1];
        return new StringColumn(type, rows, Arrays.copyOf(data, used), Arrays.copyOf(offsets, rows));
    }
}
