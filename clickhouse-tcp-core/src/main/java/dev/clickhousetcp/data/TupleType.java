package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.lang.reflect.Array;
import java.util.List;

/**
 * Tuple(T1, T2, ...) (named or not): each element's column in order (ClickHouse
 * {@code SerializationTuple}). The writer accepts {@code List}s, object arrays and records.
 */
public final class TupleType extends DataType {
    private final DataType[] elements;
    private final String[] names;

    TupleType(String name, DataType[] elements, String[] names) {
        super(name);
        this.elements = elements;
        this.names = names;
    }

    /**
     * The element types in order.
     *
     * @return the element types, unmodifiable
     */
    public List<DataType> elements() {
        return List.of(elements);
    }

    /**
     * Element names ({@code null} entries for unnamed elements).
     *
     * @return a copy of the names, parallel to {@link #elements()}
     */
    public String[] names() {
        return names.clone();
    }

    @Override
    public DeserializationState readPrefix(BinaryReader in) throws IOException {
        DeserializationState[] states = new DeserializationState[elements.length];
        for (int i = 0; i < states.length; i++) {
            states[i] = elements[i].readPrefix(in);
        }
        return ChildStates.of(states);
    }

    /**
     * The state of element {@code index} within a state this type's {@link #readPrefix} returned: what
     * that element's own prefix said, for reading the element's column on its own (as a Block does for a
     * Tuple whose elements have their own serialization kinds).
     *
     * @param state what {@link #readPrefix} of this type returned, or {@link DeserializationState#NONE}
     * @param index the element's position, in {@code [0, elements().size())}
     * @return the element's state; {@link DeserializationState#NONE} for every element of {@code NONE}
     * @throws IllegalArgumentException       when {@code state} was read by a type of another shape
     * @throws ArrayIndexOutOfBoundsException when {@code index} is out of range
     */
    public DeserializationState elementState(DeserializationState state, int index) {
        java.util.Objects.checkIndex(index, elements.length);
        return ChildStates.child(state, index, elements.length, this);
    }

    @Override
    public void writePrefix(BinaryWriter out) throws IOException {
        for (DataType e : elements) {
            e.writePrefix(out);
        }
    }

    /**
     * A column of this type over element columns read elsewhere (the block codec reads each element of a
     * Tuple with its own serialization kind, per ClickHouse src/DataTypes/Serializations/SerializationInfoTuple.h).
     *
     * @param rows number of rows
     * @param cols one column per element, in declaration order, each with {@code rows} rows; not copied
     * @return the Tuple column
     * @throws IllegalArgumentException if the number of columns is not the number of elements
     */
    public Column column(int rows, Column[] cols) {
        if (cols.length != elements.length) {
            throw new IllegalArgumentException(name() + " has " + elements.length + " elements, not " + cols.length);
        }
        return new TupleColumn(this, rows, cols);
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        Column[] cols = new Column[elements.length];
        for (int i = 0; i < cols.length; i++) {
            cols[i] = elements[i].read(in, rows, ctx, ChildStates.child(state, i, elements.length, this));
        }
        return new TupleColumn(this, rows, cols);
    }

    @Override
    public ColumnWriter newWriter() {
        ColumnWriter[] ws = CompositeWriter.newWriters(elements);
        return new CompositeWriter(this, ws) {
            @Override
            public void append(Object value) {
                Object[] parts = parts(value);
                if (parts.length != ws.length) {
                    throw new ClickHouseTypeException("expected " + ws.length + " elements for " + name + ", got "
                            + parts.length);
                }
                for (int i = 0; i < ws.length; i++) {
                    ws[i].append(parts[i]);
                }
                count++;
            }

            @Override
            public void appendDefault() {
                for (ColumnWriter w : ws) {
                    w.appendDefault();
                }
                count++;
            }

            @Override
            void writeOwnData(BinaryWriter out) {
                // a Tuple's data is its elements' columns alone
            }
        };
    }

    private Object[] parts(Object value) {
        if (value instanceof List<?> l) {
            return l.toArray();
        }
        if (value instanceof Object[] a) {
            return a;
        }
        if (value != null && value.getClass().isArray()) {
            Object[] a = new Object[Array.getLength(value)];
            for (int i = 0; i < a.length; i++) {
                a[i] = Array.get(value, i);
            }
            return a;
        }
        if (value instanceof Record r) {
            var comps = r.getClass().getRecordComponents();
            Object[] a = new Object[comps.length];
            try {
                for (int i = 0; i < a.length; i++) {
                    java.lang.reflect.Method accessor = comps[i].getAccessor();
                    accessor.trySetAccessible(); // records nested in non-public classes
                    a[i] = accessor.invoke(r);
                }
            } catch (ReflectiveOperationException e) {
                throw new ClickHouseTypeException("cannot read record " + r.getClass().getName() + " as " + name, e);
            }
            return a;
        }
        throw ColumnWriter.cannotConvert(this, value);
    }

    @Override
    RowBinaryColumns.Builder rowBinaryBuilder(int depth) {
        return RowBinaryColumns.tuple(elements(), depth);
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        List<Object> parts = ValueTypes.tupleParts(v);
        List<DataType> types = elements();
        if (parts == null || parts.size() != types.size()) {
            return false;
        }
        for (int i = 0; i < parts.size(); i++) {
            if (!ValueTypes.accepts(types.get(i), parts.get(i), strict, depth + 1)) {
                return false;
            }
        }
        return true;
    }

    @Override
    AggregateStateLayout rowBinaryLayout(String function) {
        List<DataType> el = elements();
        AggregateStateLayout[] parts = new AggregateStateLayout[el.size()];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = el.get(i).rowBinaryLayout(function);
        }
        return AggregateStateLayout.seq(parts);
    }
}
