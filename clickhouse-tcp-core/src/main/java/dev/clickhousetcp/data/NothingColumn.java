package dev.clickhousetcp.data;

/** Nothing column (the type of a bare NULL literal's nested values): every value is absent. */
public final class NothingColumn extends AbstractColumn {
    /**
     * A column of {@code rows} absent values (Nothing has no bytes on the wire to hold).
     *
     * @param type the column's ClickHouse type, Nothing
     * @param rows number of rows
     */
    NothingColumn(DataType type, int rows) {
        super(type, rows);
    }

    @Override
    public boolean isNull(int row) {
        checkRow(row);
        return true;
    }

    @Override
    public Object getObject(int row) {
        checkRow(row);
        return null;
    }

    @Override
    public String getString(int row) {
        checkRow(row);
        return null;
    }

    @Override
    public Column gather(int[] indexes) {
        return new NothingColumn(type, indexes.length);
    }

    @Override
    public Column copy() {
        return new NothingColumn(type, rows);
    }
}
