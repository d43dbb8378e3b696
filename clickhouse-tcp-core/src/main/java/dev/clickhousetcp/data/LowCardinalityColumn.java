package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

import java.util.Arrays;

/**
 * LowCardinality(T) column: a dictionary of distinct values (decoded once per block) plus one key per
 * row. For LowCardinality(Nullable(T)) key 0 means NULL. Getters read through the dictionary.
 */
public final class LowCardinalityColumn extends AbstractColumn {
    private final Column dictionary;
    private final int[] keys;
    private final boolean nullable;

    public LowCardinalityColumn(DataType type, int rows, Column dictionary, int[] keys, boolean nullable) {
        super(type, rows);
        this.dictionary = dictionary;
        this.keys = keys;
        this.nullable = nullable;
    }

    /** The dictionary column (values of the non-nullable inner type). */
    public Column dictionary() {
        checkAccessible();
        return dictionary;
    }

    /** Dictionary index of row {@code row}. */
    public int key(int row) {
        checkRow(row);
        return keys[row];
    }

    @Override
    public void bind(Lifetime l) {
        super.bind(l);
        bindAll(l, dictionary);
    }

    @Override
    public boolean isNull(int row) {
        return nullable && key(row) == 0;
    }

    @Override
    public Object getObject(int row) {
        return isNull(row) ? null : dictionary.getObject(keys[row]);
    }

    @Override
    public String getString(int row) {
        return isNull(row) ? null : dictionary.getString(keys[row]);
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
}
