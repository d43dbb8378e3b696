package dev.clickhousetcp.data;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Tuple(...) column: one element column per tuple element, each with the tuple's row count.
 * {@link #getObject} returns an unmodifiable {@code List} of the elements' objects.
 */
public final class TupleColumn extends AbstractColumn {
    private final Column[] elements;

    /**
     * A column over {@code elements}, which is not copied.
     *
     * @param type     the column's ClickHouse type, Tuple(...)
     * @param rows     number of rows
     * @param elements one column per tuple element, in declaration order, each with {@code rows} rows; empty for
     *                 {@code Tuple()}
     */
    TupleColumn(DataType type, int rows, Column[] elements) {
        super(type, rows, elements);
        this.elements = elements;
    }

    /**
     * Element column {@code i}.
     *
     * @param i 0-based element index, in {@code [0, elementCount())}
     * @return the column of the tuple's {@code i}-th element, with this column's row count
     */
    public Column element(int i) {
        checkAccessible();
        return elements[i];
    }

    /**
     * Number of tuple elements.
     *
     * @return the element count, 0 for {@code Tuple()}
     */
    public int elementCount() {
        return elements.length;
    }

    @Override
    public Object getObject(int row) {
        checkRow(row);
        List<Object> out = new ArrayList<>(elements.length);
        for (Column c : elements) {
            out.add(c.getObject(row));
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public String getString(int row) {
        checkRow(row);
        StringBuilder sb = new StringBuilder().append('(');
        for (int i = 0; i < elements.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            TextFormat.appendNested(sb, elements[i], row);
        }
        return sb.append(')').toString();
    }

    @Override
    public Column gather(int[] indexes) {
        checkAccessible();
        Column[] ne = new Column[elements.length];
        for (int i = 0; i < ne.length; i++) {
            ne[i] = elements[i].gather(indexes);
        }
        return new TupleColumn(type, indexes.length, ne);
    }

    @Override
    public Column copy() {
        checkAccessible();
        Column[] ne = new Column[elements.length];
        for (int i = 0; i < ne.length; i++) {
            ne[i] = elements[i].copy();
        }
        return new TupleColumn(type, rows, ne);
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        String[] names = type() instanceof TupleType tt ? tt.names() : new String[0];
        boolean named = names.length == elementCount() && names.length > 0;
        for (String n : names) {
            named &= n != null;
        }
        sb.append(named ? '{' : '[');
        for (int i = 0; i < elementCount(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            if (named) {
                JsonText.appendString(sb, names[i]);
                sb.append(':');
            }
            JsonText.appendValue(sb, element(i), row);
        }
        sb.append(named ? '}' : ']');
    }
}
