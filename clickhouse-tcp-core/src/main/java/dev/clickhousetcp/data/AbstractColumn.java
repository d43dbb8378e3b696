package dev.clickhousetcp.data;

import dev.clickhousetcp.types.DataType;

/** Common state of column implementations: type, row count, lifetime. */
public abstract class AbstractColumn implements Column {
    protected final DataType type;
    protected final int rows;
    protected Lifetime lifetime = Lifetime.FOREVER;

    protected AbstractColumn(DataType type, int rows) {
        this.type = type;
        this.rows = rows;
    }

    @Override
    public final DataType type() {
        return type;
    }

    @Override
    public final int size() {
        checkAccessible();
        return rows;
    }

    /**
     * Binds each of {@code columns} (skipping {@code null}s and column types without a lifetime) to
     * {@code l}: the one loop composite columns use to pass their block's lifetime to nested columns.
     */
    static void bindAll(Lifetime l, Column... columns) {
        for (Column c : columns) {
            if (c instanceof AbstractColumn a) {
                a.bind(l);
            }
        }
    }

    /** Binds this column (and nested columns) to a block's lifetime. */
    public void bind(Lifetime l) {
        this.lifetime = l;
    }

    @Override
    public final void checkAccessible() {
        lifetime.check();
    }

    protected final void checkRow(int row) {
        lifetime.check();
        if (row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("row " + row + " of a column with " + rows + " rows");
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + type.name() + ", " + rows + " rows]";
    }
}
