package dev.clickhousetcp.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code JSON} column. Holds what the server sent: either the object form — one column per typed path
 * (declared in the type), one {@link DynamicColumn} per dynamic path, and the shared data (paths beyond
 * {@code max_dynamic_paths}, per row a list of path/value pairs) — or, when the server was asked to
 * send JSON as text ({@code output_format_native_write_json_as_string = 1}), one JSON text per row.
 *
 * <p>{@link #getString} is the object's JSON text exactly as the server's {@code toString} prints it:
 * keys sorted, dotted paths nested into objects, values in ClickHouse's JSON form (see
 * {@link JsonText}); a typed path always appears (NULL as {@code null}), a dynamic path only when not
 * NULL. Inside an Array/Tuple/Map the text is quoted. {@link #getObject} returns that object as an
 * unmodifiable tree of {@code Map<String, Object>} (insertion-ordered as in the text) whose leaves are
 * the values' {@code getObject} (Long, BigInteger, Double, String, Boolean, LocalDate, ZonedDateTime,
 * List, ...; a nested {@code Array(JSON)} gives a List of such maps); in text form the leaves are what
 * {@link JsonText#parse} gives. Path access: {@link #paths(int)}, {@link #getPathObject},
 * {@link #getPathString}, and per-path columns via {@link #typedPath}/{@link #dynamicPath}. Lifetime and
 * thread-safety as for every {@link Column}.
 */
public final class JsonColumn extends AbstractColumn {
    private final StringColumn text;
    private final String[] typedPaths;
    private final Column[] typedColumns;
    private final String[] dynamicPaths;
    private final DynamicColumn[] dynamicColumns;
    private final int[] sharedEnds;
    private final StringColumn sharedPaths;
    private final DynamicColumn sharedValues;

    /**
     * The object form. The arrays and columns are not copied.
     *
     * @param type           the column's ClickHouse type, {@code JSON(...)}
     * @param rows           number of rows
     * @param typedPaths     the typed paths declared in the type, sorted
     * @param typedColumns   one column per typed path, in the order of {@code typedPaths}, each with {@code rows} rows
     * @param dynamicPaths   the dynamic paths of this block, sorted
     * @param dynamicColumns one Dynamic column per dynamic path, in the order of {@code dynamicPaths}
     * @param sharedEnds   per row the end of its shared-data entries (cumulative), or {@code null} when none
     * @param sharedPaths  the shared-data entries' paths
     * @param sharedValues the shared-data entries' values, one row per entry
     */
    JsonColumn(DataType type, int rows, String[] typedPaths, Column[] typedColumns, String[] dynamicPaths,
                      DynamicColumn[] dynamicColumns, int[] sharedEnds, StringColumn sharedPaths,
                      DynamicColumn sharedValues) {
        super(type, rows, parts(typedColumns, dynamicColumns, sharedPaths, sharedValues));
        this.text = null;
        this.typedPaths = typedPaths;
        this.typedColumns = typedColumns;
        this.dynamicPaths = dynamicPaths;
        this.dynamicColumns = dynamicColumns;
        this.sharedEnds = sharedEnds;
        this.sharedPaths = sharedPaths;
        this.sharedValues = sharedValues;
    }

    /** The typed, dynamic and shared-data columns of the object form, one array. */
    private static Column[] parts(Column[] typedColumns, DynamicColumn[] dynamicColumns, StringColumn sharedPaths,
                                  DynamicColumn sharedValues) {
        int typed = typedColumns.length;
        int dynamic = dynamicColumns.length;
        Column[] out = Arrays.copyOf(typedColumns, typed + dynamic + 2, Column[].class);
        System.arraycopy(dynamicColumns, 0, out, typed, dynamic);
        out[typed + dynamic] = sharedPaths;
        out[typed + dynamic + 1] = sharedValues;
        return out;
    }

    /**
     * The text form: one JSON object text per row.
     *
     * @param type the column's ClickHouse type, {@code JSON(...)}
     * @param rows number of rows
     * @param text one JSON object text per row, as the server sent it; not copied
     */
    JsonColumn(DataType type, int rows, StringColumn text) {
        super(type, rows, text);
        this.text = text;
        this.typedPaths = new String[0];
        this.typedColumns = new Column[0];
        this.dynamicPaths = new String[0];
        this.dynamicColumns = new DynamicColumn[0];
        this.sharedEnds = null;
        this.sharedPaths = null;
        this.sharedValues = null;
    }

    /**
     * Whether the server sent this column as JSON text rather than in the object form.
     *
     * @return {@code true} for the text form ({@code output_format_native_write_json_as_string = 1})
     */
    public boolean isText() {
        return text != null;
    }

    /**
     * Typed paths (declared in the type), sorted; empty in text form.
     *
     * @return an unmodifiable list of the dotted path names
     */
    public List<String> typedPaths() {
        return List.of(typedPaths);
    }

    /**
     * Column of typed path {@code path}.
     *
     * @param path the dotted path name, exactly as declared in the type
     * @return the path's column with one row per row of this column, or {@code null} if it is not a typed path
     */
    public Column typedPath(String path) {
        return pathColumn(typedPaths, typedColumns, path);
    }

    /**
     * Dynamic paths of this block (each a Dynamic column), sorted; empty in text form.
     *
     * @return an unmodifiable list of the dotted path names; paths kept in the shared data are not included
     */
    public List<String> dynamicPaths() {
        return List.of(dynamicPaths);
    }

    /**
     * Column of dynamic path {@code path}.
     *
     * @param path the dotted path name
     * @return the path's Dynamic column with one row per row of this column (NULL where a row lacks the path),
     *         or {@code null} if it is not a dynamic path of this block
     */
    public DynamicColumn dynamicPath(String path) {
        return pathColumn(dynamicPaths, dynamicColumns, path);
    }

    /** The column of {@code path} among {@code paths} (the same index in {@code columns}), or {@code null}. */
    private <C extends Column> C pathColumn(String[] paths, C[] columns, String path) {
        checkAccessible();
        int i = Arrays.asList(paths).indexOf(path);
        return i < 0 ? null : columns[i];
    }

    /** One path of one row: its column and the row in it. */
    private record Entry(String path, Column column, int index) {
    }

    /** The paths with a value at {@code row} (typed paths always), sorted as the server sorts them. */
    private List<Entry> entries(int row) {
        checkRow(row);
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < typedPaths.length; i++) {
            out.add(new Entry(typedPaths[i], typedColumns[i], row));
        }
        for (int i = 0; i < dynamicPaths.length; i++) {
            if (!dynamicColumns[i].isNull(row)) {
                out.add(new Entry(dynamicPaths[i], dynamicColumns[i], row));
            }
        }
        if (sharedEnds != null) {
            for (int k = row == 0 ? 0 : sharedEnds[row - 1]; k < sharedEnds[row]; k++) {
                if (!sharedValues.isNull(k)) {
                    out.add(new Entry(sharedPaths.getString(k), sharedValues, k));
                }
            }
        }
        out.sort((a, b) -> TypeNames.compareUtf8(a.path(), b.path()));
        return out;
    }

    /** Splits a path at every dot, keeping empty parts ({@code a..b} is a, "", b). */
    private static List<String> split(String path) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < path.length(); i++) {
            if (path.charAt(i) == '.') {
                parts.add(path.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(path.substring(start));
        return parts;
    }

    private String textAt(int row) {
        String s = text.getString(row);
        return s.isEmpty() ? "{}" : s;
    }

    /** The JSON object text, as the server's {@code toString} prints it (built like ClickHouse's SerializationJSON). */
    @Override
    public String getString(int row) {
        if (text != null) {
            checkRow(row);
            return textAt(row);
        }
        StringBuilder sb = new StringBuilder().append('{');
        List<String> prefix = new ArrayList<>();
        List<Boolean> prefixFirst = new ArrayList<>();
        boolean rootFirst = true;
        for (Entry e : entries(row)) {
            List<String> parts = split(e.path());
            int common = 0;
            while (common < prefix.size() && common < parts.size() - 1 && prefix.get(common).equals(parts.get(common))) {
                common++;
            }
            for (int i = prefix.size(); i > common; i--) {
                sb.append('}');
                prefix.remove(i - 1);
                prefixFirst.remove(i - 1);
            }
            for (int i = common; i < parts.size() - 1; i++) {
                if (prefix.isEmpty() ? !rootFirst : !prefixFirst.get(prefixFirst.size() - 1)) {
                    sb.append(',');
                } else if (prefix.isEmpty()) {
                    rootFirst = false;
                } else {
                    prefixFirst.set(prefixFirst.size() - 1, false);
                }
                JsonText.appendString(sb, parts.get(i));
                sb.append(":{");
                prefix.add(parts.get(i));
                prefixFirst.add(true);
            }
            if (prefix.isEmpty() ? !rootFirst : !prefixFirst.get(prefixFirst.size() - 1)) {
                sb.append(',');
            } else if (prefix.isEmpty()) {
                rootFirst = false;
            } else {
                prefixFirst.set(prefixFirst.size() - 1, false);
            }
            JsonText.appendString(sb, parts.get(parts.size() - 1));
            sb.append(':');
            JsonText.appendValue(sb, e.column(), e.index());
        }
        for (int i = 0; i < prefix.size(); i++) {
            sb.append('}');
        }
        return sb.append('}').toString();
    }

    @Override
    void appendNested(StringBuilder sb, int row) {
        TextFormat.appendQuoted(sb, getString(row));
    }

    /**
     * The object as a tree of {@code Map<String, Object>}; see the class description.
     *
     * @throws dev.clickhousetcp.ClickHouseProtocolException when the server sent the object as text that
     *                                                     is not valid JSON
     */
    @Override
    public Object getObject(int row) {
        if (text != null) {
            checkRow(row);
            try {
                return freeze(JsonText.parse(textAt(row)));
            } catch (IllegalArgumentException e) { // the server's text is not JSON: malformed wire data
                throw new dev.clickhousetcp.ClickHouseProtocolException("JSON value in row " + row
                        + " is not valid JSON text: " + e.getMessage(), e);
            }
        }
        Map<String, Object> root = new LinkedHashMap<>();
        for (Entry e : entries(row)) {
            List<String> parts = split(e.path());
            Map<String, Object> m = root;
            for (int i = 0; i < parts.size() - 1; i++) {
                Object child = m.get(parts.get(i));
                if (!(child instanceof Map<?, ?>)) {
                    child = new LinkedHashMap<String, Object>();
                    m.put(parts.get(i), child);
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> next = (Map<String, Object>) child;
                m = next;
            }
            m.put(parts.get(parts.size() - 1), leaf(e.column(), e.index()));
        }
        return freeze(root);
    }

    /** A leaf value: a dynamic path's value as its type's plain Java object (no TypedValue). */
    private static Object leaf(Column c, int row) {
        return c instanceof DynamicColumn d ? d.plainObject(row) : c.getObject(row);
    }

    private static Object freeze(Object o) {
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                copy.put((String) e.getKey(), freeze(e.getValue()));
            }
            return Collections.unmodifiableMap(copy);
        }
        if (o instanceof List<?> l) {
            List<Object> copy = new ArrayList<>(l.size());
            for (Object x : l) {
                copy.add(freeze(x));
            }
            return Collections.unmodifiableList(copy);
        }
        return o;
    }

    /**
     * The paths that have a value at {@code row} (typed paths always), sorted.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return a new list of dotted path names (typed, dynamic and shared-data paths), sorted by their UTF-8 bytes
     * @throws IllegalArgumentException in text form, if the row's text is not valid JSON
     */
    public List<String> paths(int row) {
        List<String> out = new ArrayList<>();
        if (text != null) {
            flatten("", JsonText.parse(textAt(row)), null, out);
            out.sort(TypeNames.UTF8_ORDER);
            return out;
        }
        for (Entry e : entries(row)) {
            out.add(e.path());
        }
        return out;
    }

    /**
     * The value of {@code path} at {@code row} as a Java object.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @param path the dotted path name, e.g. {@code a.b}
     * @return the value's {@code getObject} (in text form: what {@link JsonText#parse} gives for the leaf), or
     *         {@code null} when absent or NULL
     * @throws IllegalArgumentException in text form, if the row's text is not valid JSON
     */
    public Object getPathObject(int row, String path) {
        if (text != null) {
            Map<String, Object> leaves = new LinkedHashMap<>();
            flatten("", JsonText.parse(textAt(row)), leaves, null);
            return leaves.get(path);
        }
        for (Entry e : entries(row)) {
            if (e.path().equals(path)) {
                return leaf(e.column(), e.index());
            }
        }
        return null;
    }

    /**
     * The value of {@code path} at {@code row} as the server's {@code toString} of that subcolumn would
     * print it (for text-form columns: the JSON text of the value), or {@code null} when absent or NULL.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @param path the dotted path name, e.g. {@code a.b}
     * @return the value's text, or {@code null} when absent or NULL
     * @throws IllegalArgumentException in text form, if the row's text is not valid JSON
     */
    public String getPathString(int row, String path) {
        if (text != null) {
            Map<String, Object> leaves = new LinkedHashMap<>();
            flatten("", JsonText.parse(textAt(row)), leaves, null);
            Object v = leaves.get(path);
            if (v == null) {
                return null;
            }
            if (v instanceof String s) {
                return s;
            }
            if (v instanceof Double d) {
                return TextFormat.formatDouble(d);
            }
            StringBuilder sb = new StringBuilder();
            JsonText.appendJava(sb, v, java.time.ZoneOffset.UTC);
            return sb.toString();
        }
        for (Entry e : entries(row)) {
            if (e.path().equals(path)) {
                return e.column().getString(e.index());
            }
        }
        return null;
    }

    private static void flatten(String prefix, Object v, Map<String, Object> leaves, List<String> paths) {
        if (v instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                flatten(prefix.isEmpty() ? (String) e.getKey() : prefix + "." + e.getKey(), e.getValue(), leaves, paths);
            }
        } else if (!prefix.isEmpty()) {
            if (leaves != null) {
                leaves.put(prefix, v);
            }
            if (paths != null && v != null) {
                paths.add(prefix);
            }
        }
    }

    @Override
    public Column gather(int[] indexes) {
        checkAccessible();
        if (text != null) {
            return new JsonColumn(type, indexes.length, (StringColumn) text.gather(indexes));
        }
        Column[] typed = new Column[typedColumns.length];
        for (int i = 0; i < typed.length; i++) {
            typed[i] = typedColumns[i].gather(indexes);
        }
        DynamicColumn[] dyn = new DynamicColumn[dynamicColumns.length];
        for (int i = 0; i < dyn.length; i++) {
            dyn[i] = (DynamicColumn) dynamicColumns[i].gather(indexes);
        }
        if (sharedEnds == null) {
            return new JsonColumn(type, indexes.length, typedPaths, typed, dynamicPaths, dyn, null, null, null);
        }
        int[] ends = new int[indexes.length];
        List<Integer> entries = new ArrayList<>();
        for (int i = 0; i < indexes.length; i++) {
            int src = indexes[i];
            if (src >= 0) {
                for (int k = src == 0 ? 0 : sharedEnds[src - 1]; k < sharedEnds[src]; k++) {
                    entries.add(k);
                }
            }
            ends[i] = entries.size();
        }
        int[] idx = entries.stream().mapToInt(Integer::intValue).toArray();
        return new JsonColumn(type, indexes.length, typedPaths, typed, dynamicPaths, dyn, ends,
                (StringColumn) sharedPaths.gather(idx), (DynamicColumn) sharedValues.gather(idx));
    }

    @Override
    public Column copy() {
        checkAccessible();
        if (text != null) {
            return new JsonColumn(type, rows, (StringColumn) text.copy());
        }
        Column[] typed = new Column[typedColumns.length];
        for (int i = 0; i < typed.length; i++) {
            typed[i] = typedColumns[i].copy();
        }
        DynamicColumn[] dyn = new DynamicColumn[dynamicColumns.length];
        for (int i = 0; i < dyn.length; i++) {
            dyn[i] = (DynamicColumn) dynamicColumns[i].copy();
        }
        return new JsonColumn(type, rows, typedPaths, typed, dynamicPaths, dyn,
                sharedEnds == null ? null : Arrays.copyOf(sharedEnds, rows),
                sharedEnds == null ? null : (StringColumn) sharedPaths.copy(),
                sharedEnds == null ? null : (DynamicColumn) sharedValues.copy());
    }

    @Override
    void appendJson(StringBuilder sb, int row) {
        sb.append(getString(row));
    }
}
