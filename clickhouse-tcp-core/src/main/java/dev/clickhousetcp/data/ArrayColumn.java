package dev.clickhousetcp.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Array(T) column: end offsets ({@code offsets[i]} = end of row {@code i} in the flattened elements)
 * plus the flattened elements column. {@link #getObject} returns an unmodifiable {@code List} of the
 * elements' objects; {@link #elements()} with {@link #start}/{@link #length} reads without boxing.
 */
public final class ArrayColumn extends AbstractColumn {
    private final int[] offsets;
    private final Column elements;

    /**
     * A column over {@code offsets} and {@code elements}, which are not copied.
     *
     * @param type     the column's ClickHouse type, Array(T)
     * @param rows     number of rows (arrays)
     * @param offsets  end offset in {@code elements} of each row, non-decreasing, at least {@code rows} long
     * @param elements the flattened elements of type T, {@code offsets[rows - 1]} rows (0 when {@code rows} is 0)
     */
    ArrayColumn(DataType type, int rows, int[] offsets, Column elements) {
        super(type, rows, elements);
        this.offsets = offsets;
        this.elements = elements;
    }

    /**
     * The flattened elements of all rows.
     *
     * @return the elements column; row {@code r}'s elements are its rows {@code [start(r), start(r) + length(r))}
     */
    public Column elements() {
        checkAccessible();
        return elements;
    }

    /**
     * Index in {@link #elements()} of row {@code row}'s first element.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the end offset of the previous row, 0 for row 0
     */
    public int start(int row) {
        checkRow(row);
        return row == 0 ? 0 : offsets[row - 1];
    }

    /**
     * Number of elements in row {@code row}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the array's length, 0 for an empty array
     */
    public int length(int row) {
        return offsets[row] - start(row);
    }

    @Override
    public Object getObject(int row) {
        int s = start(row);
        int e = offsets[row];
        List<Object> out = new ArrayList<>(e - s);
        for (int i = s; i < e; i++) {
            out.add(elements.getObject(i));
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public String getString(int row) {
        int s = start(row);
        int e = offsets[row];
        StringBuilder sb = new StringBuilder().append('[');
        for (int i = s; i < e; i++) {
            if (i > s) {
                sb.append(',');
            }
            TextFormat.appendNested(sb, elements, i);
        }
        return sb.append(']').toString();
    }

    @Override
    public Column gather(int[] indexes) {
        checkAccessible();
        int[] no = new int[indexes.length];
        long total = 0;
        for (int i = 0; i < indexes.length; i++) {
            int src = indexes[i];
            if (src >= 0) {
                total += offsets[src] - (src == 0 ? 0 : offsets[src - 1]);
                if (total > Integer.MAX_VALUE - 16) {
                    throw new dev.clickhousetcp.ClickHouseProtocolException("an " + type.name() + " column of "
                            + indexes.length + " rows expands to more than " + (Integer.MAX_VALUE - 16) + " elements");
                }
            }
            no[i] = (int) total;
        }
        if (elements instanceof TupleColumn t && t.elementCount() == 0) {
            // Tuple() has no data: nothing to gather per element
            return new ArrayColumn(type, indexes.length, no, new TupleColumn(t.type(), (int) total, new Column[0]));
        }
        int[] elementIdx = new int[(int) total];
        int p = 0;
        for (int src : indexes) {
            if (src >= 0) {
                for (int k = src == 0 ? 0 : offsets[src - 1]; k < offsets[src]; k++) {
                    elementIdx[p++] = k;
                }
            }
        }
        return new ArrayColumn(type, indexes.length, no, elements.gather(elementIdx));
    }

    @Override
    public Column copy() {
        checkAccessible();
        return new ArrayColumn(type, rows, Arrays.copyOf(offsets, rows), elements.copy());
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        Column el = elements();
        int s = start(row);
        int e = s + length(row);
        sb.append('[');
        for (int i = s; i < e; i++) {
            if (i > s) {
                sb.append(',');
            }
            JsonText.appendValue(sb, el, i);
        }
        sb.append(']');
    }
}
