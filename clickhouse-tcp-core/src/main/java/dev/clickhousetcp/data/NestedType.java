package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.List;

/**
 * Nested(a T, b U, ...): on the wire exactly Array(Tuple(a T, b U, ...)) (ClickHouse
 * {@code DataTypeNested}; the server sends such columns when a table is created with
 * {@code flatten_nested = 0}). The writer accepts, per row, a {@code List}/array/{@code Iterable} of
 * elements, each element what the named {@code Tuple} of its fields takes: a {@code Map} keyed by
 * exactly the field names, a record or JavaBean whose properties are the fields (by name), or a
 * {@code List} or {@code Object[]} of the field values in order.
 */
public final class NestedType extends DataType {
    private final List<String> fieldNames;
    private final TupleType tuple;
    private final ArrayType array;

    NestedType(String name, DataType[] fields, String[] names) {
        super(name);
        for (String n : names) {
            if (n == null) {
                throw new ClickHouseTypeException("every field of a Nested type needs a name: " + name);
            }
        }
        this.fieldNames = List.of(names);
        StringBuilder t = new StringBuilder("Tuple(");
        for (int i = 0; i < fields.length; i++) {
            t.append(i == 0 ? "" : ", ").append(names[i]).append(' ').append(fields[i].name());
        }
        this.tuple = new TupleType(t.append(')').toString(), fields, names);
        this.array = new ArrayType("Array(" + tuple.name() + ")", tuple);
    }

    /** Resolves {@code Nested(a T, b U, ...)}. */
    static NestedType of(TypeNode n, java.time.ZoneId zone) {
        if (n.params().isEmpty()) {
            throw new ClickHouseTypeException("Nested needs at least one field: " + n);
        }
        DataType[] fields = new DataType[n.params().size()];
        String[] names = new String[fields.length];
        for (int i = 0; i < fields.length; i++) {
            if (!(n.params().get(i) instanceof TypeNode.NamedTypeParam np)) {
                throw new ClickHouseTypeException("every field of a Nested type needs a name: " + n);
            }
            names[i] = np.name();
            fields[i] = DataTypes.resolve(np.type(), zone);
        }
        return new NestedType(n.toString(), fields, names);
    }

    /**
     * Field names in declaration order.
     *
     * @return the field names, one per field
     */
    public List<String> fieldNames() {
        return fieldNames;
    }

    /**
     * Field types in declaration order.
     *
     * @return the field types, parallel to {@link #fieldNames()}
     */
    public List<DataType> fieldTypes() {
        return tuple.elements();
    }

    @Override
    public DeserializationState readPrefix(BinaryReader in) throws IOException {
        return array.readPrefix(in);
    }

    @Override
    public void writePrefix(BinaryWriter out) throws IOException {
        array.writePrefix(out);
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        return new NestedColumn(this, rows, (ArrayColumn) array.read(in, rows, ctx, state), fieldNames);
    }

    @Override
    public ColumnWriter newWriter() {
        ColumnWriter inner = tuple.newWriter();
        return new ArrayType.OffsetsWriter(this, inner) {
            @Override
            void appendElements(Object value) {
                if (value instanceof Iterable<?> it) {
                    for (Object e : it) {
                        inner.append(e);
                    }
                } else if (value instanceof Object[] a) {
                    for (Object e : Arrays.asList(a)) {
                        inner.append(e);
                    }
                } else if (value != null && value.getClass().isArray()) {
                    int n = Array.getLength(value);
                    for (int i = 0; i < n; i++) {
                        inner.append(Array.get(value, i));
                    }
                } else {
                    throw ColumnWriter.cannotConvert(type(), value);
                }
            }
        };
    }

    @Override
    RowBinaryColumns.Builder rowBinaryBuilder(int depth) {
        return new RowBinaryColumns.ArrayB(RowBinaryColumns.tuple(fieldTypes(), depth), "array size");
    }
}
