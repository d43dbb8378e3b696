package dev.clickhousetcp.data;

import java.util.Arrays;

/**
 * LowCardinality(T) column: a dictionary of distinct values (decoded once per block) plus one key per
 * row. For LowCardinality(Nullable(T)) key 0 means NULL. Getters read through the dictionary; each
 * dictionary entry's {@code String} is decoded at most once per column (on first use) and shared by
 * every row holding it, so {@link #getString} and, for String dictionaries, {@link #getObject}
 * allocate nothing per row after that.
 */
public final class LowCardinalityColumn extends AbstractColumn {
    private final Column dictionary;
    private final int[] keys;
    private final boolean nullable;
    /** Decoded dictionary strings by key, filled on first use; null until then. */
    private String[] strings;

    /**
     * A column over {@code dictionary} and {@code keys}, which are not copied.
     *
     * @param type       the column's ClickHouse type, LowCardinality(T)
     * @param rows       number of rows
     * @param dictionary the distinct values, of T's non-nullable type
     * @param keys       one dictionary index per row, at least {@code rows} long
     * @param nullable   whether T is Nullable, so that key 0 means NULL
     */
    LowCardinalityColumn(DataType type, int rows, Column dictionary, int[] keys, boolean nullable) {
        super(type, rows, dictionary);
        this.dictionary = dictionary;
        this.keys = keys;
        this.nullable = nullable;
    }

    /**
     * The dictionary column (values of the non-nullable inner type).
     *
     * @return the dictionary, indexed by {@link #key(int)}
     */
    public Column dictionary() {
        checkAccessible();
        return dictionary;
    }

    /**
     * Dictionary index of row {@code row}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the row's index in {@link #dictionary()}; 0 is NULL for LowCardinality(Nullable(T))
     */
    public int key(int row) {
        checkRow(row);
        return keys[row];
    }

    @Override
    public boolean isNull(int row) {
        return nullable && key(row) == 0;
    }

    @Override
    public Object getObject(int row) {
        if (dictionary instanceof StringColumn) {
            return getString(row);
        }
        return isNull(row) ? null : dictionary.getObject(keys[row]);
    }

    @Override
    public String getString(int row) {
        checkRow(row);
        int k = keys[row];
        if (nullable && k == 0) {
            return null;
        }
        String[] c = strings;
        if (c == null) {
            c = new String[dictionary.size()];
            strings = c;
        }
        String s = c[k];
        if (s == null) {
            s = dictionary.getString(k);
            c[k] = s;
        }
        return s;
    }

    @Override
    public long getLong(int row) {
        return dictionary.getLong(key(row));
    }

    @Override
    public double getDouble(int row) {
        return dictionary.getDouble(key(row));
    }

    @Override
    public Column gather(int[] indexes) {
        checkAccessible();
        int[] nk = new int[indexes.length];
        for (int i = 0; i < indexes.length; i++) {
            nk[i] = indexes[i] < 0 ? 0 : keys[indexes[i]];
        }
        return new LowCardinalityColumn(type, indexes.length, dictionary, nk, nullable);
    }

    @Override
    public Column copy() {
        checkAccessible();
        return new LowCardinalityColumn(type, rows, dictionary.copy(), Arrays.copyOf(keys, rows), nullable);
    }

    @Override
    void appendNested(StringBuilder sb, int row) {
        if (isNull(row)) {
            sb.append("NULL");
        } else {
            TextFormat.appendNested(sb, dictionary, key(row));
        }
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        JsonText.appendValue(sb, dictionary, key(row));
    }
}
