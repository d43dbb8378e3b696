package dev.clickhousetcp.data;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Base of columns whose rows are byte runs of varying length stored back to back with end offsets
 * ({@code offsets[i]} = end of row {@code i}; row {@code i} starts at {@code offsets[i-1]}, 0 for row 0):
 * String and AggregateFunction states. Access, gathering and copying of the bytes live here; subclasses
 * say what a row means.
 */
public abstract class VariableBytesColumn extends AbstractColumn {
    /** All rows' bytes back to back; may be longer than {@code offsets[rows - 1]}. */
    protected final byte[] data;
    /** End offset in {@link #data} of each row ({@code offsets[i]} = end of row {@code i}). */
    protected final int[] offsets;

    /**
     * A column over {@code data} and {@code offsets}, which are not copied.
     *
     * @param type    the column's ClickHouse type
     * @param rows    number of rows
     * @param data    the rows' bytes back to back
     * @param offsets end offset of each row in {@code data}, non-decreasing, at least {@code rows} long
     */
    VariableBytesColumn(DataType type, int rows, byte[] data, int[] offsets) {
        super(type, rows);
        this.data = data;
        this.offsets = offsets;
    }

    /**
     * A column of the same class and type over other bytes and offsets.
     *
     * @param rows    number of rows
     * @param data    the rows' bytes back to back; not copied
     * @param offsets end offset of each row in {@code data}; not copied
     * @return the new, unbound column
     */
    protected abstract VariableBytesColumn withData(int rows, byte[] data, int[] offsets);

    /**
     * Start of row {@code row} in {@link #rawData()}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the byte offset of the row's first byte
     */
    public final int start(int row) {
        checkRow(row);
        return row == 0 ? 0 : offsets[row - 1];
    }

    /**
     * Byte length of row {@code row}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the number of bytes of the row (0 for an empty string)
     */
    public final int length(int row) {
        checkRow(row);
        return offsets[row] - (row == 0 ? 0 : offsets[row - 1]);
    }

    /**
     * The shared byte array holding every row (no copy); rows are at {@link #start}/{@link #length}.
     *
     * @return the array itself, which must not be modified and may be longer than the rows' bytes
     * @throws IllegalStateException if the owning block has been released
     */
    public final byte[] rawData() {
        checkAccessible();
        return data;
    }

    /**
     * A read-only view of one row's bytes (no copy).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return a buffer whose position 0 is the row's first byte and whose limit is its length; valid only as long
     *         as the column is
     */
    public final ByteBuffer getByteBuffer(int row) {
        int s = start(row);
        return ByteBuffer.wrap(data, s, offsets[row] - s).slice().asReadOnlyBuffer();
    }

    /**
     * A copy of one row's bytes.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return a new array of {@code length(row)} bytes
     */
    public final byte[] getBytes(int row) {
        int s = start(row);
        return Arrays.copyOfRange(data, s, offsets[row]);
    }

    /** The row's bytes decoded as UTF-8. */
    @Override
    public String getString(int row) {
        int s = start(row);
        return new String(data, s, offsets[row] - s, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public final Column gather(int[] indexes) {
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
        return withData(indexes.length, nd, no);
    }

    @Override
    public final Column copy() {
        checkAccessible();
        int used = rows == 0 ? 0 : offsets[rows - 1];
        return withData(rows, Arrays.copyOf(data, used), Arrays.copyOf(offsets, rows));
    }
}
