package dev.clickhousetcp.data;

import java.util.Arrays;
import java.util.List;

/**
 * {@code Dynamic} column: every row holds a value of its own type, or NULL. Stored as one column per
 * distinct type present in the block ({@link #typeCount()}, {@link #typeColumn(int)}) plus, per row,
 * the index of its type ({@link #typeIndex(int)}, -1 for NULL) and its position in that type's column
 * ({@link #offset(int)}). Values the server kept in the column's shared variant (types beyond
 * {@code max_types}) are decoded into such per-type columns too, so both kinds read the same way.
 *
 * <p>{@link #typeName(int)} is the row's type as the server's {@code dynamicType()} names it.
 * {@link #getObject} returns the value's object (the type column's {@code getObject}) or {@code null},
 * as a plain Java value when the Dynamic writer would store that value with the row's own type (an
 * Int64 as {@code Long}, a String, a Float64, an {@code Array(Int64)} as a {@code List<Long>}, ...),
 * otherwise wrapped in a {@link TypedValue} with the row's type (a UInt8 read as {@code Short}, a
 * {@code Decimal(10, 2)}, a {@code DateTime('UTC')}, an Enum, a geo value, a JSON object, an empty
 * array, ...), so every value read inserts back into a Dynamic column with its type;
 * {@link #getTypedValue} always wraps.
 * {@link #getString} is the value's text as the server's {@code toString} prints it, {@code null} for
 * NULL (the server prints an empty string; inside an Array/Tuple/Map a NULL prints {@code NULL}).
 * Typed getters read the row's type column and throw on NULL. Lifetime and thread-safety as for every
 * {@link Column}.
 */
public final class DynamicColumn extends AbstractColumn {
    private final String[] typeNames;
    private final Column[] columns;
    private final int[] typeIndexes;
    private final int[] offsets;

    /**
     * A column over the given arrays and columns, which are not copied.
     *
     * @param type        the column's ClickHouse type, {@code Dynamic[(max_types=N)]}
     * @param rows        number of rows
     * @param typeNames   names of the types present, as the server prints them
     * @param columns     one column per type, holding that type's rows
     * @param typeIndexes per row the index into {@code typeNames}, -1 for NULL ({@code rows} used)
     * @param offsets     per row the position in its type's column
     */
    DynamicColumn(DataType type, int rows, String[] typeNames, Column[] columns, int[] typeIndexes,
                         int[] offsets) {
        super(type, rows, columns);
        this.typeNames = typeNames;
        this.columns = columns;
        this.typeIndexes = typeIndexes;
        this.offsets = offsets;
    }

    /**
     * Number of distinct types in this block.
     *
     * @return the number of type columns, 0 when every row is NULL
     */
    public int typeCount() {
        return typeNames.length;
    }

    /**
     * Names of the types in this block, in {@link #typeIndex} order, as the server prints them.
     *
     * @return an unmodifiable list of the type names, index {@code i} naming {@link #typeColumn(int) typeColumn(i)}
     */
    public List<String> typeNames() {
        return List.of(typeNames);
    }

    /**
     * Column of type {@code index}, holding the rows of that type in row order.
     *
     * @param index the type index, in {@code [0, typeCount())}
     * @return the type's column
     * @throws ArrayIndexOutOfBoundsException if {@code index} is out of range
     */
    public Column typeColumn(int index) {
        checkAccessible();
        return columns[index];
    }

    /**
     * Index of row {@code row}'s type ({@link #typeColumn}), or -1 for NULL.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the type index, in {@code [0, typeCount())}, or -1 for NULL
     */
    public int typeIndex(int row) {
        checkRow(row);
        return typeIndexes[row];
    }

    /**
     * Position of row {@code row} in its type's column (meaningless for NULL rows).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the row index in {@link #typeColumn(int) typeColumn(typeIndex(row))}
     */
    public int offset(int row) {
        checkRow(row);
        return offsets[row];
    }

    /**
     * Row {@code row}'s type name as {@code dynamicType()} prints it.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the type name, or {@code null} for NULL
     */
    public String typeName(int row) {
        int t = typeIndex(row);
        return t < 0 ? null : typeNames[t];
    }

    /**
     * The value with its type name, so that a Dynamic writer stores it with the same type.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the type name and object value, or {@code null} for NULL
     */
    public TypedValue getTypedValue(int row) {
        int t = typeIndex(row);
        return t < 0 ? null : new TypedValue(typeNames[t], columns[t].getObject(offsets[row]));
    }

    private Column active(int row, String what) {
        int t = typeIndex(row);
        if (t < 0) {
            throw new IllegalStateException(what + " of a NULL value at row " + row + " of " + type.name());
        }
        return columns[t];
    }

    @Override
    public boolean isNull(int row) {
        return typeIndex(row) < 0;
    }

    @Override
    public Object getObject(int row) {
        int t = typeIndex(row);
        if (t < 0) {
            return null;
        }
        Object v = columns[t].getObject(offsets[row]);
        if (!(type instanceof DynamicType dt) || dt.infersType(v, typeNames[t])) {
            return v;
        }
        return new TypedValue(typeNames[t], v);
    }

    /**
     * The row's value as its type column's {@code getObject} gives it, never wrapped: the leaves of a
     * JSON object, whose writer infers the types itself.
     */
    Object plainObject(int row) {
        int t = typeIndex(row);
        return t < 0 ? null : columns[t].getObject(offsets[row]);
    }

    @Override
    public String getString(int row) {
        int t = typeIndex(row);
        return t < 0 ? null : columns[t].getString(offsets[row]);
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
        int t = typeIndex(row);
        if (t < 0) {
            sb.append("NULL");
        } else {
            TextFormat.appendNested(sb, columns[t], offsets[row]);
        }
    }

    @Override
    public Column gather(int[] indexes) {
        checkAccessible();
        int n = indexes.length;
        int[] nt = new int[n];
        int[] no = new int[n];
        int[] counts = new int[columns.length];
        for (int i = 0; i < n; i++) {
            int src = indexes[i];
            int t = src < 0 ? -1 : typeIndexes[src];
            nt[i] = t;
            if (t >= 0) {
                no[i] = counts[t]++;
            }
        }
        Column[] nc = new Column[columns.length];
        for (int t = 0; t < columns.length; t++) {
            int[] idx = new int[counts[t]];
            int k = 0;
            for (int i = 0; i < n; i++) {
                if (nt[i] == t) {
                    idx[k++] = offsets[indexes[i]];
                }
            }
            nc[t] = columns[t].gather(idx);
        }
        return new DynamicColumn(type, n, typeNames, nc, nt, no);
    }

    @Override
    public Column copy() {
        checkAccessible();
        Column[] nc = new Column[columns.length];
        for (int i = 0; i < nc.length; i++) {
            nc[i] = columns[i].copy();
        }
        return new DynamicColumn(type, rows, typeNames, nc, Arrays.copyOf(typeIndexes, rows), Arrays.copyOf(offsets, rows));
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        JsonText.appendValue(sb, typeColumn(typeIndex(row)), offset(row));
    }
}
