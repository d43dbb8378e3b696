package dev.clickhousetcp.data;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A Block: named columns with the same number of rows, the unit the native protocol moves data in
 * (ClickHouse {@code src/Core/Block.h}; wire layout per {@code NativeFormat.mdx}).
 *
 * <p>A block handed out by a result stream is borrowed: it is valid until the stream advances or is
 * closed, after which its columns throw {@link IllegalStateException}. {@link #copy()} detaches it.
 * Not thread-safe.
 */
public final class Block {
    private final String[] names;
    private final Column[] columns;
    private final int rows;
    private final Lifetime lifetime;
    /** Bytes of row objects the row tiers would build for this block, charged at decode (see ReadContext). */
    private long rowObjectBytes;
    /** Bytes received for this block. */
    private long receivedBytes;
    /** The decode limit the row objects are weighed against; none for a block not read off the wire. */
    private long maxExpansionBytes = Long.MAX_VALUE;

    /**
     * A block over the given columns, which are bound to {@code lifetime}. The arrays are not copied.
     *
     * @param names    column names, one per column, in order
     * @param columns  the columns, each with {@code rows} rows
     * @param rows     number of rows
     * @param lifetime the lifetime after whose release the columns throw; {@link Lifetime#FOREVER} for a
     *                 detached block
     */
    public Block(String[] names, Column[] columns, int rows, Lifetime lifetime) {
        this.names = names;
        this.columns = columns;
        this.rows = rows;
        this.lifetime = lifetime;
        AbstractColumn.bindAll(lifetime, columns);
    }

    /**
     * Number of rows.
     *
     * @return the row count of every column
     */
    public int rowCount() {
        return rows;
    }

    /**
     * Number of columns.
     *
     * @return the column count
     */
    public int columnCount() {
        return columns.length;
    }

    /**
     * Column names in order.
     *
     * @return an unmodifiable list of the names, index {@code i} naming {@link #column(int) column(i)}
     */
    public List<String> names() {
        return Collections.unmodifiableList(Arrays.asList(names));
    }

    /**
     * Name of the column at {@code index}.
     *
     * @param index 0-based column index, in {@code [0, columnCount())}
     * @return the column's name
     * @throws ArrayIndexOutOfBoundsException if {@code index} is out of range
     */
    public String name(int index) {
        return names[index];
    }

    /**
     * Column at {@code index} (0-based).
     *
     * @param index 0-based column index, in {@code [0, columnCount())}
     * @return the column, borrowed from this block
     * @throws IllegalStateException if the block has been released
     * @throws ArrayIndexOutOfBoundsException if {@code index} is out of range
     */
    public Column column(int index) {
        lifetime.check();
        return columns[index];
    }

    /**
     * Column named {@code name} (exact, case-sensitive match; the first one if names repeat).
     *
     * @param name the column name
     * @return the column, borrowed from this block
     * @throws IllegalArgumentException if no column has that name
     * @throws IllegalStateException if the block has been released
     */
    public Column column(String name) {
        int i = indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("no column '" + name + "' in block with columns " + names());
        }
        return column(i);
    }

    /**
     * Index of the column named {@code name} (exact, case-sensitive match).
     *
     * @param name the column name
     * @return the 0-based index of the first column with that name, or -1 if there is none
     */
    public int indexOf(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether the stream has moved past this block.
     *
     * @return {@code true} once the block's lifetime is released; always {@code false} for a copy
     */
    public boolean isReleased() {
        return lifetime.isReleased();
    }

    /**
     * Checks that objects may be built for every row of this block and every value of its zero-width
     * columns (an empty {@code Tuple()}, also as Array or Map elements), as the row tiers do
     * ({@code queryRows}, {@code forEachRow}, {@code streamRows}, mapped and {@code RowMapper} reads): a
     * block decoded from the wire whose rows and such values are not backed by the bytes received for
     * it (bounded by {@link DecodeLimits#maxExpansionBytes()}, see {@link ReadContext#endBlock}) is
     * refused, before anything is built. The block tier itself may still read it.
     *
     * @throws dev.clickhousetcp.ClickHouseProtocolException naming {@code maxExpansionBytes}, when the
     *         block's row objects exceed what its bytes allow; the connection is then discarded
     */
    public void checkRowObjects() {
        String refusal = ReadContext.overAllowance(rowObjectBytes, receivedBytes, maxExpansionBytes,
                "a block of " + rows + " rows needs", "bytes of row objects (" + ReadContext.ROW_OBJECT_BYTES
                        + " per row and per zero-width value)");
        if (refusal != null) {
            throw new dev.clickhousetcp.ClickHouseProtocolException(refusal);
        }
    }

    /** Records what the row tiers would build for this block and what backs it ({@link ReadContext#endBlock}). */
    void rowObjects(long bytes, long received, long limit) {
        this.rowObjectBytes = bytes;
        this.receivedBytes = received;
        this.maxExpansionBytes = limit;
    }

    long rowObjectBytes() {
        return rowObjectBytes;
    }

    long receivedBytes() {
        return receivedBytes;
    }

    long maxExpansionBytes() {
        return maxExpansionBytes;
    }

    /**
     * A detached copy whose columns stay valid.
     *
     * @return a new block with copied columns and the {@link Lifetime#FOREVER} lifetime
     * @throws IllegalStateException if this block has already been released
     */
    public Block copy() {
        lifetime.check();
        Column[] c = new Column[columns.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = columns[i].copy();
        }
        return new Block(names.clone(), c, rows, Lifetime.FOREVER);
    }

    @Override
    public String toString() {
        return "Block[" + rows + " rows, columns=" + Arrays.toString(names) + "]";
    }
}
