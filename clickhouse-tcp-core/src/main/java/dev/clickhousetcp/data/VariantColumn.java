package dev.clickhousetcp.data;

import java.util.Arrays;

/**
 * {@code Variant(T1, T2, ...)} (and {@code Geometry}) column: one discriminator per row (the index
 * of the row's variant, {@link #NULL_DISCRIMINATOR} for NULL) plus one column per variant holding
 * only the rows that select it; {@link #offset(int)} is a row's position in its variant's column.
 *
 * <p>Access without boxing: {@link #discriminator(int)}, {@link #variant(int)} and
 * {@link #offset(int)}, then the variant column's typed getters. {@link #getObject} returns the active
 * variant's object (its column's {@code getObject}) or {@code null}, as a plain Java value when the
 * Variant writer would store that value in the same variant, otherwise wrapped in a {@link TypedValue}
 * naming the variant — so every value read inserts back unchanged. Plain values are the common case
 * (a String from {@code Variant(String, UInt64)}, a Point from {@code Geometry}); a
 * {@link TypedValue} comes back where variants share a Java shape: a LineString or Ring (both lists
 * of points), a Polygon or MultiLineString, an empty geometry, a Date from {@code Variant(Date, Date32)},
 * a UInt8 from {@code Variant(UInt8, UInt16)}, or a value of a type the writer does not infer (an
 * AggregateFunction state, a Nested or QBit value). {@link #getTypedValue} always wraps. {@link #getString} is the active value's text as the server's
 * {@code toString} prints it, or {@code null} for NULL (the server prints an empty string there;
 * inside an Array/Tuple/Map the row prints {@code NULL}, and a String variant is quoted). Typed getters
 * ({@link #getLong}, ...) read the active variant and throw on NULL. Lifetime and thread-safety as for
 * every {@link Column}.
 */
public final class VariantColumn extends AbstractColumn {
    /** The discriminator of a NULL row. */
    public static final int NULL_DISCRIMINATOR = 255;

    private final byte[] discriminators;
    private final int[] offsets;
    private final Column[] variants;

    /**
     * A column over the given arrays and columns, which are not copied.
     *
     * @param type           the column's ClickHouse type, {@code Variant(T1, T2, ...)} or {@code Geometry}
     * @param rows           number of rows
     * @param discriminators one per row ({@code rows} used), 255 = NULL
     * @param offsets        per row, the index in its variant's column (ignored for NULL rows)
     * @param variants       one column per variant, in discriminator order
     */
    VariantColumn(DataType type, int rows, byte[] discriminators, int[] offsets, Column[] variants) {
        super(type, rows, variants);
        this.discriminators = discriminators;
        this.offsets = offsets;
        this.variants = variants;
    }

    /**
     * The variant index of row {@code row}, or {@link #NULL_DISCRIMINATOR}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the discriminator, in {@code [0, variantCount())} or 255 for NULL
     */
    public int discriminator(int row) {
        checkRow(row);
        return discriminators[row] & 0xFF;
    }

    /**
     * Position of row {@code row} in its variant's column (meaningless for NULL rows).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the row index in {@link #variant(int) variant(discriminator(row))}
     */
    public int offset(int row) {
        checkRow(row);
        return offsets[row];
    }

    /**
     * Number of variants.
     *
     * @return the number of types in {@code Variant(T1, T2, ...)}
     */
    public int variantCount() {
        return variants.length;
    }

    /**
     * The column of variant {@code discriminator}, holding the rows that select it.
     *
     * @param discriminator the variant index, in {@code [0, variantCount())}
     * @return the variant's column, whose rows are in the order of the rows that select it
     * @throws ArrayIndexOutOfBoundsException if {@code discriminator} is out of range
     */
    public Column variant(int discriminator) {
        checkAccessible();
        return variants[discriminator];
    }

    /**
     * The type name of row {@code row}'s variant.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the variant's ClickHouse type name, or {@code null} for NULL
     */
    public String typeName(int row) {
        int d = discriminator(row);
        return d == NULL_DISCRIMINATOR ? null : variantName(d);
    }

    /** The declared name of variant {@code d} (a SimpleAggregateFunction's column has its value type's name). */
    private String variantName(int d) {
        return type instanceof VariantType vt ? vt.variantName(d) : variants[d].type().name();
    }

    /**
     * The value with its variant's type name, accepted by Variant and Dynamic writers.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the variant's type name and object value, or {@code null} for NULL
     */
    public TypedValue getTypedValue(int row) {
        int d = discriminator(row);
        return d == NULL_DISCRIMINATOR ? null : new TypedValue(variantName(d), variants[d].getObject(offsets[row]));
    }

    private Column active(int row, String what) {
        int d = discriminator(row);
        if (d == NULL_DISCRIMINATOR) {
            throw new IllegalStateException(what + " of a NULL value at row " + row + " of " + type.name());
        }
        return variants[d];
    }

    @Override
    public boolean isNull(int row) {
        return discriminator(row) == NULL_DISCRIMINATOR;
    }

    @Override
    public Object getObject(int row) {
        int d = discriminator(row);
        if (d == NULL_DISCRIMINATOR) {
            return null;
        }
        Object v = variants[d].getObject(offsets[row]);
        if (!(type instanceof VariantType vt) || vt.inferDiscriminator(v) == d) {
            return v;
        }
        return new TypedValue(vt.variantName(d), v);
    }

    @Override
    public String getString(int row) {
        int d = discriminator(row);
        return d == NULL_DISCRIMINATOR ? null : variants[d].getString(offsets[row]);
    }

    @Override
    public long getLong(int row) {
        return active(row, "getLong").getLong(offsets[row]);
    }

    @Override
    public double getDouble(int row) {
        return active(row, "getDouble").getDouble(offsets[row]);
    }

    @Override
    public boolean getBoolean(int row) {
        return active(row, "getBoolean").getBoolean(offsets[row]);
    }

    @Override
    void appendNested(StringBuilder sb, int row) {
        int d = discriminator(row);
        if (d == NULL_DISCRIMINATOR) {
            sb.append("NULL");
        } else {
            TextFormat.appendNested(sb, variants[d], offsets[row]);
        }
    }

    @Override
    public Column gather(int[] indexes) {
        checkAccessible();
        int n = indexes.length;
        byte[] nd = new byte[n];
        int[] no = new int[n];
        int[] counts = new int[variants.length];
        for (int i = 0; i < n; i++) {
            int src = indexes[i];
            int d = src < 0 ? NULL_DISCRIMINATOR : discriminators[src] & 0xFF;
            nd[i] = (byte) d;
            if (d != NULL_DISCRIMINATOR) {
                no[i] = counts[d]++;
            }
        }
        Column[] nv = new Column[variants.length];
        for (int v = 0; v < variants.length; v++) {
            int[] idx = new int[counts[v]];
            int k = 0;
            for (int i = 0; i < n; i++) {
                if ((nd[i] & 0xFF) == v) {
                    idx[k++] = offsets[indexes[i]];
                }
            }
            nv[v] = variants[v].gather(idx);
        }
        return new VariantColumn(type, n, nd, no, nv);
    }

    @Override
    public Column copy() {
        checkAccessible();
        Column[] nv = new Column[variants.length];
        for (int i = 0; i < nv.length; i++) {
            nv[i] = variants[i].copy();
        }
        return new VariantColumn(type, rows, Arrays.copyOf(discriminators, rows), Arrays.copyOf(offsets, rows), nv);
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        JsonText.appendValue(sb, variant(discriminator(row)), offset(row));
    }
}
