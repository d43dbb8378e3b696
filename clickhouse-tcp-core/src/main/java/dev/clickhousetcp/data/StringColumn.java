package dev.clickhousetcp.data;

/**
 * String column: the rows' raw bytes back to back plus end offsets ({@code offsets[i]} = end of row
 * {@code i}). Bytes stay as received (usually UTF-8) until {@link #getString} decodes one row.
 * {@link #getObject} returns {@code String}.
 */
public final class StringColumn extends VariableBytesColumn {

    /**
     * A column over {@code data} and {@code offsets}, which are not copied.
     *
     * @param type    the column's ClickHouse type, String
     * @param rows    number of rows
     * @param data    the rows' bytes back to back
     * @param offsets end offset of each row in {@code data}, at least {@code rows} long
     */
    StringColumn(DataType type, int rows, byte[] data, int[] offsets) {
        super(type, rows, data, offsets);
    }

    @Override
    public Object getObject(int row) {
        return getString(row);
    }

    @Override
    protected VariableBytesColumn withData(int rows, byte[] data, int[] offsets) {
        return new StringColumn(type, rows, data, offsets);
    }

    @Override
    boolean quotedWhenNested() {
        return true;
    }
}
