package dev.clickhousetcp.data;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Map(K, V) column, stored like Array(Tuple(K, V)): end offsets plus flattened key and value columns.
 * {@link #getObject} returns an unmodifiable insertion-ordered {@code Map}.
 */
public final class MapColumn extends AbstractColumn {
    private final ArrayColumn entries;

    /**
     * A column over its Array(Tuple(K, V)) view, which is not copied.
     *
     * @param type    the column's ClickHouse type, Map(K, V)
     * @param rows    number of rows (maps)
     * @param entries the Array(Tuple(keys, values)) view of this column
     */
    MapColumn(DataType type, int rows, ArrayColumn entries) {
        super(type, rows, entries);
        this.entries = entries;
    }

    /**
     * The flattened keys of all rows.
     *
     * @return the K column; row {@code r}'s keys are its rows {@code [start(r), start(r) + length(r))}
     */
    public Column keys() {
        return ((TupleColumn) entries.elements()).element(0);
    }

    /**
     * The flattened values of all rows, aligned with {@link #keys()}.
     *
     * @return the V column; row {@code r}'s values are its rows {@code [start(r), start(r) + length(r))}
     */
    public Column values() {
        return ((TupleColumn) entries.elements()).element(1);
    }

    /**
     * Index in {@link #keys()} and {@link #values()} of row {@code row}'s first entry.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the end offset of the previous row, 0 for row 0
     */
    public int start(int row) {
        return entries.start(row);
    }

    /**
     * Number of entries in row {@code row}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the map's entry count (duplicate keys, which the wire allows, counted each time)
     */
    public int length(int row) {
        return entries.length(row);
    }

    @Override
    public Object getObject(int row) {
        checkRow(row);
        Column k = keys();
        Column v = values();
        int s = entries.start(row);
        int e = s + entries.length(row);
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = s; i < e; i++) {
            m.put(k.getObject(i), v.getObject(i));
        }
        return Collections.unmodifiableMap(m);
    }

    @Override
    public String getString(int row) {
        checkRow(row);
        StringBuilder sb = new StringBuilder();
        appendEntries(sb, row, false);
        return sb.toString();
    }

    @Override
    public Column gather(int[] indexes) {
        return new MapColumn(type, indexes.length, (ArrayColumn) entries.gather(indexes));
    }

    @Override
    public Column copy() {
        return new MapColumn(type, rows, (ArrayColumn) entries.copy());
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        appendEntries(sb, row, true);
    }

    /**
     * Appends row {@code row}'s entries in braces, {@code key:value} separated by commas: in the nested text form,
     * or as a JSON object (each key as the JSON string of its text).
     */
    private void appendEntries(StringBuilder sb, int row, boolean json) {
        Column k = keys();
        Column v = values();
        int s = entries.start(row);
        int e = s + entries.length(row);
        sb.append('{');
        for (int i = s; i < e; i++) {
            if (i > s) {
                sb.append(',');
            }
            if (json) {
                String key = k.getString(i);
                JsonText.appendString(sb, key == null ? "null" : key);
                sb.append(':');
                JsonText.appendValue(sb, v, i);
            } else {
                TextFormat.appendNested(sb, k, i);
                sb.append(':');
                TextFormat.appendNested(sb, v, i);
            }
        }
        sb.append('}');
    }
}
