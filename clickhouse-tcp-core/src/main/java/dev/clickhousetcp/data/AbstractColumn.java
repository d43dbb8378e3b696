package dev.clickhousetcp.data;

/** Common state of column implementations: type, row count, lifetime. */
public abstract class AbstractColumn implements Column {
    /** The column's ClickHouse type. */
    protected final DataType type;
    /** Number of rows. */
    protected final int rows;
    /** The lifetime of the block this column belongs to; {@link Lifetime#FOREVER} until bound. */
    protected Lifetime lifetime = Lifetime.FOREVER;

    private static final Column[] NO_PARTS = new Column[0];

    /** The columns this column is made of (a composite's nested columns), which {@link #bind} binds with it. */
    private final Column[] parts;

    /**
     * A column not yet bound to a block (its lifetime is {@link Lifetime#FOREVER}).
     *
     * @param type the column's ClickHouse type
     * @param rows number of rows, non-negative
     */
    AbstractColumn(DataType type, int rows) {
        this(type, rows, NO_PARTS);
    }

    /**
     * A composite column not yet bound to a block, made of {@code parts}.
     *
     * @param type  the column's ClickHouse type
     * @param rows  number of rows, non-negative
     * @param parts the nested columns, bound with this one; {@code null} entries are skipped
     */
    AbstractColumn(DataType type, int rows, Column... parts) {
        this.type = type;
        this.rows = rows;
        this.parts = parts;
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

    /**
     * Binds this column (and nested columns) to a block's lifetime.
     *
     * @param l the lifetime after whose release every accessor of this column throws
     */
    public void bind(Lifetime l) {
        this.lifetime = l;
        bindAll(l, parts);
    }

    @Override
    public final void checkAccessible() {
        lifetime.check();
    }

    /**
     * Checks that the column is still accessible and that {@code row} is in range.
     *
     * @param row 0-based row index
     * @throws IllegalStateException     if the owning block has been released
     * @throws IndexOutOfBoundsException if {@code row} is not in {@code [0, size())}
     */
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

    /**
     * Appends row {@code row} as it appears nested inside an Array, Tuple, Map, Variant or Dynamic text form
     * ({@code NULL} for NULL): the family's own nested text form. Quoted families
     * ({@link #quotedWhenNested()}) quote {@link #nestedText}; composites, Nullable, LowCardinality, Variant,
     * Dynamic and JSON override this.
     */
    void appendNested(StringBuilder sb, int row) {
        if (isNull(row)) {
            sb.append("NULL");
        } else if (quotedWhenNested()) {
            TextFormat.appendQuoted(sb, nestedText(row));
        } else {
            sb.append(getString(row));
        }
    }

    /** Per-family fact: whether values are quoted when nested in a composite's text form (as the server prints them). */
    boolean quotedWhenNested() {
        return false;
    }

    /** The text a quoted family quotes in its nested form; the top-level {@link #getString} by default. */
    String nestedText(int row) {
        return getString(row);
    }

    /**
     * Appends row {@code row} as a JSON value ({@code null} for NULL), as ClickHouse's {@code serializeTextJSON}
     * writes it (see {@link JsonText}): {@code null} for NULL, else {@link #appendJsonValue}. JSON overrides
     * this.
     */
    void appendJson(StringBuilder sb, int row) {
        if (isNull(row)) {
            sb.append("null");
        } else {
            appendJsonValue(sb, row);
        }
    }

    /**
     * Per-family JSON form of a non-NULL value: a JSON string of its text by default; numbers and booleans
     * are bare, composites write arrays and objects.
     */
    void appendJsonValue(StringBuilder sb, int row) {
        JsonText.appendString(sb, getString(row));
    }
}
