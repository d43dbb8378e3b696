package dev.clickhousetcp.data;

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
public final class AggregateFunctionColumn extends VariableBytesColumn {

    /**
     * A column over {@code data} and {@code offsets}, which are not copied.
     *
     * @param type    the column's ClickHouse type, AggregateFunction(f, T...)
     * @param rows    number of rows
     * @param data    the rows' serialized states back to back
     * @param offsets end offset of each row's state in {@code data}, at least {@code rows} long
     */
    AggregateFunctionColumn(DataType type, int rows, byte[] data, int[] offsets) {
        super(type, rows, data, offsets);
    }

    /** A copy of the row's state bytes. */
    @Override
    public Object getObject(int row) {
        return getBytes(row);
    }

    @Override
    protected VariableBytesColumn withData(int rows, byte[] data, int[] offsets) {
        return new AggregateFunctionColumn(type, rows, data, offsets);
    }
}
