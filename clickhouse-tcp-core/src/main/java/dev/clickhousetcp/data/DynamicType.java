package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code Dynamic} and {@code Dynamic(max_types=N)}, per ClickHouse {@code SerializationDynamic}. The
 * state prefix starts with a UInt64 serialization version:
 * <ul>
 * <li>V2 (2; what a 26.7 server sends over TCP at revision 54473+,
 * {@code ProtocolFeature.V2_DYNAMIC_AND_JSON_SERIALIZATION}) and V1
 * (1; V2 after an extra VarUInt {@code max_types}): VarUInt number of types, their names as strings,
 * then the prefix of the internal {@code Variant(types..., SharedVariant)} (types sorted by name); the
 * data is that Variant's: discriminators, then each type's values, where {@code SharedVariant} is a
 * String column whose values each hold a binary-encoded type ({@code DataTypesBinaryEncoding}) and a
 * value in its binary ({@code RowBinary}) form — the types beyond {@code max_types}.</li>
 * <li>FLATTENED (3; sent when the query sets
 * {@code output_format_native_use_flattened_dynamic_and_json_serialization = 1}): VarUInt number of
 * types, their names, each type's prefix; the data is one type index per row (UInt8 while there are
 * at most 255 types, then UInt16/UInt32/UInt64; the number of types means NULL), then each type's
 * values.</li>
 * <li>V3 (4) is a MergeTree on-disk form the server does not send; it is rejected.</li>
 * </ul>
 * Reads produce a {@link DynamicColumn}. The writer sends FLATTENED (the server reads it back into its
 * own layout); see {@link #newWriter()}. Immutable and thread-safe.
 */
public final class DynamicType extends DataType {
    static final long VERSION_V1 = 1;
    static final long VERSION_V2 = 2;
    static final long VERSION_FLATTENED = 3;
    static final long VERSION_V3 = 4;
    /** ClickHouse's default {@code max_types}. */
    public static final int DEFAULT_MAX_TYPES = 32;
    /** ClickHouse's upper limit for {@code max_types} ({@code ColumnDynamic::MAX_DYNAMIC_TYPES_LIMIT}). */
    static final int MAX_DYNAMIC_TYPES_LIMIT = 254;
    static final String SHARED_VARIANT = "SharedVariant";
    private static final int MAX_FLATTENED_TYPES = 1 << 20;
    private static final StringType SHARED_VARIANT_TYPE = new StringType("String");

    private final int maxTypes;
    private final ZoneId serverZone;

    private DynamicType(String name, int maxTypes, ZoneId serverZone) {
        super(name);
        this.maxTypes = maxTypes;
        this.serverZone = serverZone;
    }

    /** {@code Dynamic} or {@code Dynamic(max_types=N)}. */
    static DynamicType parse(TypeNode n, ZoneId serverZone) {
        int maxTypes = DEFAULT_MAX_TYPES;
        if (!n.params().isEmpty()) {
            String raw = n.params().get(0) instanceof TypeNode.RawParam rp ? rp.text() : n.toString();
            String[] kv = raw.split("=", 2);
            try {
                if (kv.length != 2 || !kv[0].trim().equals("max_types")) {
                    throw new NumberFormatException();
                }
                maxTypes = Integer.parseInt(kv[1].trim());
            } catch (NumberFormatException e) {
                throw new ClickHouseTypeException("Dynamic takes one parameter max_types=N: " + n);
            }
            if (maxTypes < 0 || maxTypes > MAX_DYNAMIC_TYPES_LIMIT) {
                throw new ClickHouseTypeException("max_types of Dynamic must be 0.." + MAX_DYNAMIC_TYPES_LIMIT + ": " + n);
            }
        }
        return new DynamicType(nameFor(maxTypes), maxTypes, serverZone);
    }

    /** The name the server prints for a Dynamic with {@code maxTypes}. */
    static String nameFor(int maxTypes) {
        return maxTypes == DEFAULT_MAX_TYPES ? "Dynamic" : "Dynamic(max_types=" + maxTypes + ")";
    }

    /** Bytes per FLATTENED type index for {@code types} types plus the NULL index. */
    static int indexWidth(long types) {
        return types + 1 <= 0x100L ? 1 : types + 1 <= 0x10000L ? 2 : types + 1 <= 0x100000000L ? 4 : 8;
    }

    /**
     * The {@code max_types} parameter.
     *
     * @return the most types stored as separate variants, 0 to 254 ({@link #DEFAULT_MAX_TYPES} when not given)
     */
    public int maxTypes() {
        return maxTypes;
    }

    @Override
    public boolean isNullable() {
        return true;
    }

    /**
     * Prefix state of the V1/V2 form: the internal Variant's types in discriminator order, the index of
     * its shared variant, its discriminators mode and each type's own state (ClickHouse
     * {@code DeserializeBinaryBulkStateDynamic} with its Variant's state).
     */
    private record VariantState(DataType[] types, String[] names, int shared, boolean compact,
                                DeserializationState[] states) implements DeserializationState {
    }

    /** Prefix state of the FLATTENED form: the types in index order and each type's own state. */
    private record FlatState(DataType[] types, String[] names, DeserializationState[] states)
            implements DeserializationState {
    }

    @Override
    public DeserializationState readPrefix(BinaryReader in) throws IOException {
        long version = in.readInt64();
        if (version == VERSION_V1 || version == VERSION_V2) {
            if (version == VERSION_V1) {
                in.readVarUInt();
            }
            int n = in.readVarUIntBounded(MAX_DYNAMIC_TYPES_LIMIT, "Dynamic type count");
            List<String> names = new ArrayList<>(n + 1);
            for (int i = 0; i < n; i++) {
                names.add(in.readString());
            }
            names.add(SHARED_VARIANT);
            names.sort(TypeNames.UTF8_ORDER);
            DataType[] types = new DataType[names.size()];
            int shared = -1;
            for (int i = 0; i < types.length; i++) {
                if (names.get(i).equals(SHARED_VARIANT) && shared < 0) {
                    shared = i;
                    types[i] = SHARED_VARIANT_TYPE;
                } else {
                    types[i] = resolve(names.get(i));
                }
            }
            long mode = in.readInt64();
            if (mode != VariantType.MODE_BASIC && mode != VariantType.MODE_COMPACT) {
                throw new ClickHouseProtocolException("unknown discriminators serialization mode " + mode + " of " + name);
            }
            DeserializationState[] states = new DeserializationState[types.length];
            for (int i = 0; i < types.length; i++) {
                states[i] = types[i].readPrefix(in);
            }
            return new VariantState(types, names.toArray(new String[0]), shared, mode == VariantType.MODE_COMPACT,
                    states);
        } else if (version == VERSION_FLATTENED) {
            int n = in.readVarUIntBounded(MAX_FLATTENED_TYPES, "Dynamic type count");
            List<DataType> types = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                names.add(in.readString());
                types.add(resolve(names.get(i)));
            }
            DeserializationState[] states = new DeserializationState[n];
            for (int i = 0; i < n; i++) {
                states[i] = types.get(i).readPrefix(in);
            }
            return new FlatState(types.toArray(new DataType[0]), names.toArray(new String[0]), states);
        } else if (version == VERSION_V3) {
            throw new ClickHouseProtocolException("Dynamic serialization V3 is a MergeTree on-disk format; "
                    + "the native protocol does not carry it");
        } else {
            throw new ClickHouseProtocolException("unknown Dynamic serialization version " + version);
        }
    }

    private DataType resolve(String typeName) {
        try {
            return DataTypes.parse(typeName, serverZone);
        } catch (ClickHouseTypeException e) {
            throw new ClickHouseProtocolException("cannot decode values of type " + typeName + " in " + name + ": "
                    + e.getMessage(), e);
        }
    }

    /** The type prefix depends on the values, so only the column writer can write it. */
    @Override
    public void writePrefix(BinaryWriter out) {
        throw new IllegalStateException("the state prefix of " + name + " lists the types of the values; "
                + "it is written by the column writer (ColumnWriter.writePrefix)");
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        if (state == DeserializationState.NONE) {
            if (rows > 0) {
                throw new ClickHouseProtocolException(name + " column data without its state prefix");
            }
            return new DynamicColumn(this, 0, new String[0], new Column[0], new int[0], new int[0]);
        }
        if (state instanceof FlatState f) {
            return readFlattened(in, rows, ctx, f);
        }
        if (!(state instanceof VariantState v)) {
            throw foreignState(this, state);
        }
        DataType[] types = v.types();
        byte[] d = VariantType.readDiscriminators(in, rows, v.compact(), types.length, ctx, name);
        int[] counts = new int[types.length];
        int[] positions = ctx.ints(rows);
        for (int r = 0; r < rows; r++) {
            int x = d[r] & 0xFF;
            positions[r] = x == VariantType.NULL_DISCRIMINATOR ? 0 : counts[x]++;
        }
        Column[] cols = new Column[types.length];
        for (int i = 0; i < types.length; i++) {
            cols[i] = types[i].read(in, counts[i], ctx, v.states()[i]);
        }
        DynamicColumn shared = decodeBinaryValues(this, (StringColumn) cols[v.shared()], serverZone, ctx,
                in.maxStringBytes());
        // slots: the regular types in discriminator order, then the shared variant's types
        int regular = types.length - 1;
        String[] names = new String[regular + shared.typeCount()];
        Column[] slotColumns = new Column[names.length];
        int[] slotOf = new int[types.length];
        for (int i = 0, s = 0; i < types.length; i++) {
            if (i != v.shared()) {
                names[s] = v.names()[i];
                slotColumns[s] = cols[i];
                slotOf[i] = s++;
            }
        }
        for (int i = 0; i < shared.typeCount(); i++) {
            names[regular + i] = shared.typeNames().get(i);
            slotColumns[regular + i] = shared.typeColumn(i);
        }
        int[] typeIndexes = ctx.ints(rows);
        int[] offsets = ctx.ints(rows);
        for (int r = 0; r < rows; r++) {
            int x = d[r] & 0xFF;
            if (x == VariantType.NULL_DISCRIMINATOR) {
                typeIndexes[r] = -1;
            } else if (x == v.shared()) {
                int k = positions[r];
                int t = shared.typeIndex(k);
                typeIndexes[r] = t < 0 ? -1 : regular + t;
                offsets[r] = t < 0 ? 0 : shared.offset(k);
            } else {
                typeIndexes[r] = slotOf[x];
                offsets[r] = positions[r];
            }
        }
        return new DynamicColumn(this, rows, names, slotColumns, typeIndexes, offsets);
    }

    private Column readFlattened(BinaryReader in, int rows, ReadContext ctx, FlatState state) throws IOException {
        DataType[] types = state.types();
        int n = types.length;
        int width = indexWidth(n);
        int[] typeIndexes = ctx.firstInts(rows); // both grow as indexes arrive
        int[] offsets = ctx.firstInts(rows);
        int[] counts = new int[n];
        for (int r = 0; r < rows; r++) {
            if (r == typeIndexes.length) {
                typeIndexes = ctx.grow(typeIndexes, r, rows);
            }
            if (r == offsets.length) {
                offsets = ctx.grow(offsets, r, rows);
            }
            long idx = switch (width) {
                case 1 -> in.readUInt8();
                case 2 -> in.readInt16() & 0xFFFFL;
                case 4 -> in.readInt32() & 0xFFFFFFFFL;
                default -> in.readInt64();
            };
            if (idx == n) {
                typeIndexes[r] = -1;
            } else if (idx >= 0 && idx < n) {
                typeIndexes[r] = (int) idx;
                offsets[r] = counts[(int) idx]++;
            } else {
                throw new ClickHouseProtocolException("type index " + Long.toUnsignedString(idx) + " at row " + r + " of "
                        + name + " with " + n + " types");
            }
        }
        String[] names = new String[n];
        Column[] cols = new Column[n];
        for (int i = 0; i < n; i++) {
            names[i] = state.names()[i];
            cols[i] = types[i].read(in, counts[i], ctx, state.states()[i]);
        }
        return new DynamicColumn(this, rows, names, cols, typeIndexes, offsets);
    }

    /**
     * Decodes values that each hold a binary-encoded type followed by the value in binary form (a
     * Dynamic column's shared variant, a JSON column's shared data) into a {@link DynamicColumn} of
     * {@code owner} with one row per value; type {@code Nothing} is NULL.
     */
    static DynamicColumn decodeBinaryValues(DataType owner, StringColumn values, ZoneId serverZone, ReadContext ctx,
                                            int maxStringBytes) throws IOException {
        int n = values.size();
        int[] typeIndexes = new int[n];
        int[] offsets = new int[n];
        Map<String, RowBinaryColumns> groups = new LinkedHashMap<>();
        Map<String, Integer> positions = new LinkedHashMap<>();
        byte[] raw = n == 0 ? new byte[0] : values.rawData();
        for (int i = 0; i < n; i++) {
            int start = values.start(i);
            Bytes.Cursor c = new Bytes.Cursor(raw, start, start + values.length(i));
            String typeName = BinaryTypes.decode(c);
            if (typeName.equals("Nothing")) {
                typeIndexes[i] = -1;
                continue;
            }
            RowBinaryColumns g = groups.get(typeName);
            if (g == null) {
                try {
                    g = new RowBinaryColumns(typeName, serverZone);
                } catch (ClickHouseTypeException e) {
                    throw new ClickHouseProtocolException("cannot decode a value of type " + typeName + " in "
                            + owner.name() + ": " + e.getMessage(), e);
                }
                positions.put(typeName, groups.size());
                groups.put(typeName, g);
            }
            typeIndexes[i] = positions.get(typeName);
            offsets[i] = g.size();
            g.append(c);
            if (!c.atEnd()) {
                throw new ClickHouseProtocolException("a value of type " + typeName + " in " + owner.name() + " has "
                        + (c.end - c.pos) + " bytes left over");
            }
        }
        String[] names = groups.keySet().toArray(new String[0]);
        Column[] cols = new Column[names.length];
        int i = 0;
        for (RowBinaryColumns g : groups.values()) {
            cols[i++] = g.toColumn(ctx, maxStringBytes);
        }
        return new DynamicColumn(owner, n, names, cols, typeIndexes, offsets);
    }

    /**
     * Whether {@link #newWriter() the writer} stores a plain Java value with type {@code typeName}: the
     * value's natural type (see {@link #newWriter()}) names the same type, spacing ignored.
     * {@code DynamicColumn.getObject} uses it to decide whether a value read with type {@code typeName}
     * inserts back with that type as it is, or must carry its type in a {@link TypedValue}.
     *
     * @param value    a plain Java value ({@code null} or a {@link TypedValue} gives {@code false})
     * @param typeName a ClickHouse type name, e.g. {@code UInt8}
     * @return {@code true} when the writer infers exactly {@code typeName} for {@code value}; {@code false}
     *         when it infers another type or none, or either name does not parse
     */
    boolean infersType(Object value, String typeName) {
        if (value == null || value instanceof TypedValue) {
            return false;
        }
        try {
            return TypeNode.parse(ValueTypes.naturalType(value, serverZone)).toString()
                    .equals(TypeNode.parse(typeName).toString());
        } catch (ClickHouseTypeException e) {
            return false;
        }
    }

    /**
     * A writer that stores each value with its own type and sends the FLATTENED form. The type per
     * value: a {@link TypedValue}'s type; {@code null} or an empty {@code Optional} is NULL; otherwise
     * the Java value's natural type — String/CharSequence/byte[] → String, Byte/Short/Integer/Long →
     * Int8/16/32/64, BigInteger → the smallest of Int64/UInt64/Int128/UInt128/Int256/UInt256 holding it,
     * Float/Double → Float32/Float64, BigDecimal → Decimal(P, S), Boolean → Bool, LocalDate → Date
     * (Date32 outside Date's range), LocalDateTime → DateTime (DateTime64(3|6|9) with a fraction or
     * outside DateTime's range), ZonedDateTime → the same with its region zone, Instant/OffsetDateTime/
     * java.util.Date → the same in UTC, LocalTime → Time, UUID → UUID, Inet4Address/Inet6Address →
     * IPv4/IPv6, arrays/Iterables → Array(T) of the common element type (Nullable(T) with nulls,
     * Dynamic when mixed, Nothing when empty), Map → Map(K, V) likewise, record → named Tuple. Other
     * classes throw {@link ClickHouseTypeException} (wrap them in {@link TypedValue}). Values of types
     * beyond {@code max_types} are moved to the shared variant by the server.
     */
    @Override
    public ColumnWriter newWriter() {
        return new Writer();
    }

    private final class Writer implements ColumnWriter {
        private final Map<String, ColumnWriter> writers = new LinkedHashMap<>();
        private final Map<String, Integer> positions = new LinkedHashMap<>();
        private final Map<String, String> resolved = new java.util.HashMap<>();
        private int[] indexes = new int[1024];
        private int count;

        @Override
        public DataType type() {
            return DynamicType.this;
        }

        @Override
        public void append(Object value) {
            Object v = value instanceof Optional<?> o ? o.orElse(null) : value;
            if (v instanceof TypedValue tv && tv.value() == null) {
                v = null;
            }
            if (v == null) {
                add(-1);
                return;
            }
            String typeName = ValueTypes.naturalType(v, serverZone);
            String key = resolved.get(typeName);
            if (key == null) {
                DataType t = DataTypes.parse(typeName, serverZone);
                if (t instanceof NullableType nt) {
                    t = nt.nested(); // a present value of Nullable(T) is a T value
                }
                if (t instanceof DynamicType) {
                    throw new ClickHouseTypeException("a Dynamic value cannot have type " + typeName);
                }
                // a SimpleAggregateFunction(f, T) is written as T's values under its own name
                key = TypeNames.family(typeName).equals("SimpleAggregateFunction") ? TypeNode.parse(typeName).toString()
                        : t.name();
                if (!writers.containsKey(key)) {
                    positions.put(key, writers.size());
                    writers.put(key, t.newWriter());
                }
                resolved.put(typeName, key);
            }
            writers.get(key).append(v instanceof TypedValue tv ? tv.value() : v);
            add(positions.get(key));
        }

        private void add(int index) {
            if (count == indexes.length) {
                indexes = Arrays.copyOf(indexes, count * 2);
            }
            indexes[count++] = index;
        }

        @Override
        public void appendDefault() {
            add(-1);
        }

        @Override
        public int size() {
            return count;
        }

        @Override
        public void writePrefix(BinaryWriter out) throws IOException {
            out.writeInt64(VERSION_FLATTENED);
            out.writeVarUInt(writers.size());
            for (String typeName : writers.keySet()) {
                out.writeString(typeName);
            }
            for (ColumnWriter w : writers.values()) {
                w.writePrefix(out);
            }
        }

        @Override
        public void writeData(BinaryWriter out) throws IOException {
            int n = writers.size();
            int width = indexWidth(n);
            for (int i = 0; i < count; i++) {
                int idx = indexes[i] < 0 ? n : indexes[i];
                switch (width) {
                    case 1 -> out.writeUInt8(idx);
                    case 2 -> out.writeInt16(idx);
                    default -> out.writeInt32(idx);
                }
            }
            for (ColumnWriter w : writers.values()) {
                w.writeData(out);
            }
        }

        @Override
        public void reset() {
            count = 0;
            writers.clear();
            positions.clear();
            resolved.clear();
        }
    }

    @Override
    RowBinaryColumns.Builder rowBinaryBuilder(int depth) {
        return new RowBinaryColumns.DynamicB(depth);
    }

    @Override
    boolean acceptsNull() {
        return true;
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return true;
    }

    @Override
    boolean acceptsTyped(TypedValue tv, int depth) {
        return true;
    }
}
