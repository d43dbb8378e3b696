package dev.clickhousetcp.data;

import java.util.Arrays;

/**
 * Nullable(T) column: a null map (one byte per row, non-zero = NULL) plus the nested column holding
 * a value (the type's default) at every row. Typed getters read the nested column; check
 * {@link #isNull} first. {@link #getObject} returns {@code null} or the nested column's object.
 */
public final class NullableColumn extends AbstractColumn {
    private final byte[] nullMap;
    private final Column nested;

    /**
     * A column over {@code nullMap} and {@code nested}, which are not copied.
     *
     * @param type    the column's ClickHouse type, Nullable(T)
     * @param rows    number of rows
     * @param nullMap one byte per row, non-zero for NULL, at least {@code rows} long
     * @param nested  the values of type T, {@code rows} rows (the type's default at NULL rows)
     */
    NullableColumn(DataType type, int rows, byte[] nullMap, Column nested) {
        super(type, rows, nested);
        this.nullMap = nullMap;
        this.nested = nested;
    }

    /**
     * The nested column (same row count).
     *
     * @return the T column, holding the type's default value at NULL rows
     */
    public Column nested() {
        checkAccessible();
        return nested;
    }

    /**
     * The raw null map (one byte per row, no copy).
     *
     * @return the array itself, non-zero at NULL rows; may be longer than {@code size()}; must not be modified
     */
    public byte[] nullMap() {
        checkAccessible();
        return nullMap;
    }

    @Override
    public boolean isNull(int row) {
        checkRow(row);
        return nullMap[row] != 0;
    }

    @Override
    public Object getObject(int row) {
        return isNull(row) ? null : nested.getObject(row);
    }

    @Override
    public String getString(int row) {
        return isNull(row) ? null : nested.getString(row);
    }

    @Override
    public long getLong(int row) {
        checkRow(row);
        return nested.getLong(row);
    }

    @Override
    public double getDouble(int row) {
        checkRow(row);
        return nested.getDouble(row);
    }

    @Override
    public boolean getBoolean(int row) {
        checkRow(row);
        return nested.getBoolean(row);
    }

    @Override
    public Column gather(int[] indexes) {
        checkAccessible();
        byte[] nm = new byte[indexes.length];
        for (int i = 0; i < indexes.length; i++) {
            nm[i] = indexes[i] < 0 ? 1 : nullMap[indexes[i]];
        }
        return new NullableColumn(type, indexes.length, nm, nested.gather(indexes));
    }

    @Override
    public Column copy() {
        checkAccessible();
        return new NullableColumn(type, rows, Arrays.copyOf(nullMap, rows), nested.copy());
    }

    @Override
    void appendNested(StringBuilder sb, int row) {
        if (isNull(row)) {
            sb.append("NULL");
        } else {
            TextFormat.appendNested(sb, nested, row);
        }
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        JsonText.appendValue(sb, nested, row);
    }
}
