package dev.clickhousetcp.data;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Nested(a T, b U, ...) column, as the server sends it when a table keeps Nested unflattened
 * ({@code flatten_nested = 0}): stored exactly like Array(Tuple(a T, b U, ...)), i.e. end offsets plus
 * one flattened column per field (ClickHouse {@code DataTypeNested}, serialized by
 * {@code SerializationArray} over {@code SerializationTuple}).
 *
 * <p>{@link #getObject} returns an unmodifiable {@code List} with one unmodifiable, field-ordered
 * {@code Map<String, Object>} (field name to the field's object value) per nested row.
 * {@link #getString} prints like the server: {@code [(1,'x'),(2,'y')]}. Columnar access:
 * {@link #field(int)} / {@link #field(String)} with {@link #start}/{@link #length}.
 */
public final class NestedColumn extends AbstractColumn {
    private final ArrayColumn array;
    private final List<String> fieldNames;

    /**
     * A column over its Array(Tuple(...)) view, which is not copied.
     *
     * @param type       the column's ClickHouse type, Nested(...)
     * @param rows       number of rows
     * @param array      the Array(Tuple(...)) view of this column (same rows)
     * @param fieldNames the field names in declaration order, one per tuple element; copied
     */
    NestedColumn(DataType type, int rows, ArrayColumn array, List<String> fieldNames) {
        super(type, rows, array);
        this.array = array;
        this.fieldNames = List.copyOf(fieldNames);
    }

    /**
     * The Array(Tuple(...)) view of this column.
     *
     * @return the array column whose elements are a {@link TupleColumn} of the fields
     */
    public ArrayColumn array() {
        checkAccessible();
        return array;
    }

    /**
     * Field names in declaration order.
     *
     * @return an unmodifiable list, index {@code i} naming {@link #field(int) field(i)}
     */
    public List<String> fieldNames() {
        return fieldNames;
    }

    /**
     * The flattened values of field {@code i} across all rows.
     *
     * @param i 0-based field index, in {@code [0, fieldNames().size())}
     * @return the field's column; row {@code r}'s values are its rows {@code [start(r), start(r) + length(r))}
     */
    public Column field(int i) {
        return ((TupleColumn) array.elements()).element(i);
    }

    /**
     * The flattened values of the named field.
     *
     * @param name the field name (exact, case-sensitive)
     * @return the field's column; row {@code r}'s values are its rows {@code [start(r), start(r) + length(r))}
     * @throws IllegalArgumentException if the type has no field of that name
     */
    public Column field(String name) {
        int i = fieldNames.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("no field '" + name + "' in " + type.name());
        }
        return field(i);
    }

    /**
     * Index of row {@code row}'s first nested element in the field columns.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the end offset of the previous row, 0 for row 0
     */
    public int start(int row) {
        return array.start(row);
    }

    /**
     * Number of nested elements in row {@code row}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the nested row count of row {@code row}, possibly 0
     */
    public int length(int row) {
        return array.length(row);
    }

    @Override
    public Object getObject(int row) {
        checkRow(row);
        TupleColumn t = (TupleColumn) array.elements();
        int s = array.start(row);
        int e = s + array.length(row);
        List<Object> out = new ArrayList<>(e - s);
        for (int i = s; i < e; i++) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int f = 0; f < fieldNames.size(); f++) {
                m.put(fieldNames.get(f), t.element(f).getObject(i));
            }
            out.add(Collections.unmodifiableMap(m));
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public String getString(int row) {
        checkRow(row);
        return array.getString(row);
    }

    @Override
    public Column gather(int[] indexes) {
        checkAccessible();
        return new NestedColumn(type, indexes.length, (ArrayColumn) array.gather(indexes), fieldNames);
    }

    @Override
    public Column copy() {
        checkAccessible();
        return new NestedColumn(type, rows, (ArrayColumn) array.copy(), fieldNames);
    }
}
