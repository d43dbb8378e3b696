package dev.clickhousetcp.data;

import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** Map(K, V): serialized as Array(Tuple(K, V)) (ClickHouse {@code SerializationMap}). The writer accepts {@code Map}. */
public final class MapType extends DataType {
    private final DataType key;
    private final DataType value;
    private final TupleType entry;
    private final ArrayType entries;

    MapType(String name, DataType key, DataType value) {
        super(name);
        this.key = key;
        this.value = value;
        this.entry = new TupleType("Tuple(" + key.name() + ", " + value.name() + ")", new DataType[] {key, value},
                new String[] {"keys", "values"});
        this.entries = new ArrayType("Array(" + entry.name() + ")", entry);
    }

    /**
     * The key type K of {@code Map(K, V)}.
     *
     * @return the key type
     */
    public DataType keyType() {
        return key;
    }

    /**
     * The value type V of {@code Map(K, V)}.
     *
     * @return the value type
     */
    public DataType valueType() {
        return value;
    }

    @Override
    public DeserializationState readPrefix(BinaryReader in) throws IOException {
        DeserializationState k = key.readPrefix(in);
        return ChildStates.of(new DeserializationState[] {k, value.readPrefix(in)});
    }

    @Override
    public void writePrefix(BinaryWriter out) throws IOException {
        key.writePrefix(out);
        value.writePrefix(out);
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        int[] offsets = ArrayType.readOffsets(in, rows, ctx, name);
        int total = rows == 0 ? 0 : offsets[rows - 1];
        Column k = key.read(in, total, ctx, ChildStates.child(state, 0, 2, this));
        Column v = value.read(in, total, ctx, ChildStates.child(state, 1, 2, this));
        ArrayColumn arr = new ArrayColumn(entries, rows, offsets, new TupleColumn(entry, total, new Column[] {k, v}));
        return new MapColumn(this, rows, arr);
    }

    @Override
    public ColumnWriter newWriter() {
        ColumnWriter kw = key.newWriter();
        ColumnWriter vw = value.newWriter();
        return new ArrayType.OffsetsWriter(this, kw, vw) {
            @Override
            void appendElements(Object v) {
                if (!(v instanceof Map<?, ?> m)) {
                    throw ColumnWriter.cannotConvert(type(), v);
                }
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    kw.append(e.getKey());
                    vw.append(e.getValue());
                }
            }
        };
    }

    @Override
    RowBinaryColumns.Builder rowBinaryBuilder(int depth) {
        return new RowBinaryColumns.ArrayB(RowBinaryColumns.tuple(List.of(keyType(), valueType()), depth), "map size");
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        if (!(v instanceof Map<?, ?> m)) {
            return false;
        }
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!ValueTypes.accepts(keyType(), e.getKey(), strict, depth + 1)
                    || !ValueTypes.accepts(valueType(), e.getValue(), strict, depth + 1)) {
                return false;
            }
        }
        return true;
    }

    @Override
    AggregateStateLayout rowBinaryLayout(String function) {
        return AggregateStateLayout.arrayOf(AggregateStateLayout.seq(keyType().rowBinaryLayout(function),
                valueType().rowBinaryLayout(function)), -1);
    }
}
