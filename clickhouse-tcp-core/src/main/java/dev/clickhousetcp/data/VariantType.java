package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code Variant(T1, T2, ...)} and {@code Geometry}, per ClickHouse {@code SerializationVariant}: the
 * state prefix is a UInt64 discriminators mode (0 = BASIC, 1 = COMPACT) followed by each variant's own
 * prefix; the data is one UInt8 discriminator per row (255 = NULL; in COMPACT mode granules of VarUInt
 * row count, UInt8 format and either one discriminator for all rows or one per row), then, for each
 * variant in discriminator order, that variant's column holding only the rows that select it.
 *
 * <p>Discriminator order: the server sorts a Variant's types by name (byte order), so
 * {@code Variant(UInt64, String)} is {@code Variant(String, UInt64)} with String = 0; this class does
 * the same for names it parses. {@code Geometry} is a Variant of the geo types with a fixed order kept
 * for compatibility: 0 LineString, 1 MultiLineString, 2 MultiPolygon, 3 Point, 4 Polygon, 5 Ring
 * (checked against ClickHouse 26.7, whose Geometry has no MultiPoint).
 *
 * <p>Writer: picks a variant per value — see {@link #newWriter()}. Immutable and thread-safe.
 */
public final class VariantType extends DataType {
    /** The discriminator of a NULL row. */
    public static final int NULL_DISCRIMINATOR = 255;
    static final long MODE_BASIC = 0;
    static final long MODE_COMPACT = 1;
    private static final int GRANULE_PLAIN = 0;
    private static final int GRANULE_COMPACT = 1;

    private final DataType[] variants;
    private final TypeNode[] nodes;
    private final String[] normalized;

    private VariantType(String name, DataType[] variants, String[] declared) {
        super(name);
        if (variants.length == 0 || variants.length >= NULL_DISCRIMINATOR) {
            throw new ClickHouseTypeException("Variant takes 1 to 254 types: " + name);
        }
        this.variants = variants;
        this.nodes = new TypeNode[variants.length];
        this.normalized = new String[variants.length];
        for (int i = 0; i < variants.length; i++) {
            nodes[i] = TypeNode.parse(declared[i]);
            normalized[i] = nodes[i].toString();
        }
    }

    /**
     * {@code Variant} of {@code types}, ordered by name as the server orders them; {@code names} are the
     * declared names (a {@code SimpleAggregateFunction(f, T)} resolves to T's type but keeps its name).
     */
    static VariantType of(List<DataType> types, List<String> names) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            order.add(i);
        }
        order.sort((a, b) -> TypeNames.compareUtf8(names.get(a), names.get(b)));
        DataType[] sorted = new DataType[types.size()];
        String[] declared = new String[types.size()];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = types.get(order.get(i));
            declared[i] = names.get(order.get(i));
            if (i > 0 && declared[i].equals(declared[i - 1])) {
                throw new ClickHouseTypeException("Variant has the type " + declared[i] + " twice");
            }
            DataType t = sorted[i];
            if (t instanceof NullableType || t instanceof DynamicType
                    || t instanceof LowCardinalityType lc && lc.inner() instanceof NullableType) {
                throw new ClickHouseTypeException("type " + t.name() + " cannot be inside Variant");
            }
        }
        return new VariantType("Variant(" + String.join(", ", declared) + ")", sorted, declared);
    }

    /**
     * {@code Geometry}: the geo types in the server's fixed discriminator order (ClickHouse
     * {@code DataTypeGeometry}; 26.7 has no MultiPoint): LineString, MultiLineString, MultiPolygon,
     * Point, Polygon, Ring.
     */
    static VariantType geometry(java.time.ZoneId serverZone) {
        String[] names = {"LineString", "MultiLineString", "MultiPolygon", "Point", "Polygon", "Ring"};
        DataType[] types = new DataType[names.length];
        for (int i = 0; i < names.length; i++) {
            types[i] = DataTypes.resolve(TypeNode.parse(names[i]), serverZone);
        }
        return new VariantType("Geometry", types, names);
    }

    /** The zone a LocalDateTime is read in by this Variant's date-time variants (UTC when it has none). */
    private java.time.ZoneId wallClockZone() {
        for (DataType t : variants) {
            if (t instanceof DateTimeType dt) {
                return dt.zone();
            }
            if (t instanceof DateTime64Type dt) {
                return dt.zone();
            }
        }
        return java.time.ZoneOffset.UTC;
    }

    /**
     * The variant types in discriminator order.
     *
     * @return the variants, unmodifiable; index {@code i} is the type of discriminator {@code i}
     */
    public List<DataType> variants() {
        return List.of(variants);
    }

    /**
     * The declared type name of variant {@code discriminator}: the name the server uses for it, which
     * differs from {@code variants().get(discriminator).name()} for a {@code SimpleAggregateFunction(f, T)}
     * variant (its values are T's).
     *
     * @param discriminator the variant index, in {@code [0, variants().size())}
     * @return the variant's type name, e.g. {@code LineString} or {@code SimpleAggregateFunction(sum, UInt64)}
     * @throws ArrayIndexOutOfBoundsException if {@code discriminator} is out of range
     */
    public String variantName(int discriminator) {
        return nodes[discriminator].toString();
    }

    /**
     * The discriminator of the variant named {@code typeName} (spacing ignored), or -1.
     *
     * @param typeName a ClickHouse type name, e.g. {@code Array(UInt8)}
     * @return the variant's discriminator, or -1 when no variant has that name or the name does not parse
     */
    public int discriminatorOf(String typeName) {
        String n;
        try {
            n = TypeNode.parse(typeName).toString();
        } catch (ClickHouseTypeException e) {
            return -1;
        }
        for (int i = 0; i < normalized.length; i++) {
            if (normalized[i].equals(n)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public boolean isNullable() {
        return true;
    }

    /**
     * Prefix state: the discriminators mode and each variant's own state, in discriminator order (ClickHouse
     * {@code DeserializeBinaryBulkStateVariant}).
     */
    record State(boolean compact, DeserializationState[] variants) implements DeserializationState {
    }

    @Override
    public DeserializationState readPrefix(BinaryReader in) throws IOException {
        long mode = in.readInt64();
        if (mode != MODE_BASIC && mode != MODE_COMPACT) {
            throw new ClickHouseProtocolException("unknown discriminators serialization mode " + mode + " of " + name);
        }
        DeserializationState[] states = new DeserializationState[variants.length];
        for (int i = 0; i < variants.length; i++) {
            states[i] = variants[i].readPrefix(in);
        }
        return new State(mode == MODE_COMPACT, states);
    }

    @Override
    public void writePrefix(BinaryWriter out) throws IOException {
        out.writeInt64(MODE_BASIC);
        for (DataType v : variants) {
            v.writePrefix(out);
        }
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        State s = ownState(this, state, State.class);
        if (s == null && rows > 0) {
            throw new ClickHouseProtocolException(name + " column data without its state prefix");
        }
        if (s != null && s.variants().length != variants.length) {
            throw foreignState(this, state);
        }
        byte[] d = readDiscriminators(in, rows, s != null && s.compact(), variants.length, ctx, name);
        int[] counts = new int[variants.length];
        int[] offsets = ctx.ints(rows);
        for (int r = 0; r < rows; r++) {
            int x = d[r] & 0xFF;
            offsets[r] = x == NULL_DISCRIMINATOR ? 0 : counts[x]++;
        }
        Column[] cols = new Column[variants.length];
        for (int i = 0; i < cols.length; i++) {
            cols[i] = variants[i].read(in, counts[i], ctx, s == null ? DeserializationState.NONE : s.variants()[i]);
        }
        return new VariantColumn(this, rows, d, offsets, cols);
    }

    /**
     * Reads {@code rows} discriminators (BASIC: one byte each; COMPACT: granules) and checks each is
     * below {@code variants} or NULL.
     */
    static byte[] readDiscriminators(BinaryReader in, int rows, boolean compact, int variants, ReadContext ctx,
                                     String what) throws IOException {
        byte[] d;
        if (!compact) {
            d = ctx.readDeclared(in, rows); // grows as the discriminators arrive
        } else {
            d = ctx.firstBytes(rows);
            int filled = 0;
            while (filled < rows) {
                long granule = in.readVarUInt();
                if (granule <= 0 || granule > rows - filled) {
                    throw new ClickHouseProtocolException("discriminators granule of " + granule + " rows with "
                            + (rows - filled) + " rows left in " + what);
                }
                int format = in.readUInt8();
                if (format == GRANULE_COMPACT) {
                    // one discriminator for the whole granule: its rows' discriminators and offsets (4 bytes
                    // each) are built from 2 bytes
                    ctx.chargeExpansion(5 * granule, "compact discriminators granule of " + granule + " rows in " + what);
                }
                while (filled + granule > d.length) {
                    d = ctx.grow(d, filled, rows);
                }
                if (format == GRANULE_COMPACT) {
                    Arrays.fill(d, filled, filled + (int) granule, (byte) in.readUInt8());
                } else if (format == GRANULE_PLAIN) {
                    in.readFully(d, filled, (int) granule);
                } else {
                    throw new ClickHouseProtocolException("unknown discriminators granule format " + format + " in " + what);
                }
                filled += (int) granule;
            }
        }
        for (int r = 0; r < rows; r++) {
            int x = d[r] & 0xFF;
            if (x != NULL_DISCRIMINATOR && x >= variants) {
                throw new ClickHouseProtocolException("discriminator " + x + " at row " + r + " of " + what + " with "
                        + variants + " variants");
            }
        }
        return d;
    }

    /**
     * A writer that picks the variant for each value:
     * <ol>
     * <li>{@code null} (or an empty {@code Optional}) is NULL;</li>
     * <li>a {@link TypedValue} goes to the variant with that type name (error if there is none);</li>
     * <li>otherwise the candidates are the variants whose type accepts the value's Java class and shape
     * strictly: integers (Byte/Short/Integer/Long/BigInteger) into integer types whose range holds them,
     * Float/Double into Float32/Float64, BigDecimal into Decimal, String/CharSequence/byte[] into
     * String/FixedString (and Enum when it is one of the names), Boolean into Bool, LocalDate into
     * Date/Date32, LocalDateTime/Instant/ZonedDateTime/OffsetDateTime/java.util.Date into
     * DateTime/DateTime64, UUID into UUID, Inet4Address/Inet6Address into IPv4/IPv6, arrays and
     * Iterables into Array types (and Ring, LineString, Polygon, ...) whose element type accepts every
     * element, Lists/records into Tuples of the same size, Maps into Map and JSON; when none accepts
     * strictly, any number also goes into Float/Decimal types and a String into JSON;</li>
     * <li>one candidate: it is used; several: the one whose name equals the value's own type (Long →
     * Int64, Integer → Int32, String → String, ...; the Dynamic inference rules) is used, otherwise
     * the value is ambiguous.</li>
     * </ol>
     * No candidate or an ambiguous value throws {@link ClickHouseTypeException} naming the candidates,
     * before anything is sent; wrap the value in {@link TypedValue} to choose explicitly.
     */
    @Override
    public ColumnWriter newWriter() {
        return new Writer();
    }

    /**
     * The discriminator {@link #newWriter() the writer} picks for {@code value}.
     *
     * @param value a value as given to the writer: a plain Java value, an {@link Optional}, a {@link TypedValue}
     *              or {@code null}
     * @return the chosen variant's discriminator, or {@link #NULL_DISCRIMINATOR} for {@code null}, an empty
     *         {@link Optional} or a {@link TypedValue} holding {@code null}
     * @throws ClickHouseTypeException when no variant accepts the value, it is ambiguous, or a
     *                                 {@link TypedValue} names a type that is not a variant
     */
    public int discriminatorFor(Object value) {
        if (value == null || value instanceof Optional<?> o && o.isEmpty()) {
            return NULL_DISCRIMINATOR;
        }
        Object v = value instanceof Optional<?> o ? o.get() : value;
        if (v instanceof TypedValue tv) {
            int d = discriminatorOf(tv.type());
            if (d < 0) {
                throw new ClickHouseTypeException("no variant " + tv.type() + " in " + name);
            }
            return tv.value() == null ? NULL_DISCRIMINATOR : d;
        }
        List<Integer> candidates = candidates(v);
        int d = pick(v, candidates);
        if (d >= 0) {
            return d;
        }
        if (candidates.isEmpty()) {
            throw new ClickHouseTypeException("no variant of " + name + " accepts a " + v.getClass().getName()
                    + " value; wrap it in TypedValue to choose the variant");
        }
        List<String> names = new ArrayList<>();
        for (int c : candidates) {
            names.add(variantName(c));
        }
        throw new ClickHouseTypeException("a " + v.getClass().getName() + " value is ambiguous for " + name
                + ": variants " + names + " all accept it; wrap it in TypedValue to choose the variant");
    }

    /**
     * The discriminator {@link #newWriter() the writer} infers for a plain Java value, without throwing:
     * what {@link #discriminatorFor(Object)} returns for a value that is not {@code null}, an
     * {@link Optional} or a {@link TypedValue}. {@code VariantColumn.getObject} uses it to decide whether
     * a value read from variant {@code d} inserts back into {@code d} as it is, or must say its variant.
     *
     * @param value a plain Java value (a {@link TypedValue} or {@code null} gives -1)
     * @return the variant's discriminator, or -1 when no variant accepts the value or it is ambiguous
     */
    int inferDiscriminator(Object value) {
        if (value == null || value instanceof TypedValue || value instanceof Optional<?>) {
            return -1;
        }
        return pick(value, candidates(value));
    }

    /** The variants accepting {@code v}: strictly, else relaxed. */
    private List<Integer> candidates(Object v) {
        List<Integer> candidates = candidates(v, true);
        return candidates.isEmpty() ? candidates(v, false) : candidates;
    }

    /** The single candidate, or among several the one named like the value's natural type; else -1. */
    private int pick(Object v, List<Integer> candidates) {
        if (candidates.size() == 1) {
            return candidates.get(0);
        }
        if (candidates.isEmpty()) {
            return -1;
        }
        String natural;
        try {
            natural = TypeNode.parse(ValueTypes.naturalType(v, wallClockZone())).toString();
        } catch (ClickHouseTypeException e) {
            return -1;
        }
        for (int c : candidates) {
            if (normalized[c].equals(natural)) {
                return c;
            }
        }
        return -1;
    }

    private List<Integer> candidates(Object v, boolean strict) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            if (ValueTypes.accepts(variants[i], v, strict)) {
                out.add(i);
            }
        }
        return out;
    }

    private final class Writer extends CompositeWriter {
        private byte[] discriminators = new byte[1024];

        Writer() {
            super(VariantType.this, CompositeWriter.newWriters(variants));
        }

        @Override
        public void append(Object value) {
            int d = discriminatorFor(value);
            if (d != NULL_DISCRIMINATOR) {
                Object v = value instanceof Optional<?> o ? o.get() : value;
                children[d].append(v instanceof TypedValue tv ? tv.value() : v);
            }
            add(d);
        }

        private void add(int d) {
            if (count == discriminators.length) {
                discriminators = Arrays.copyOf(discriminators, count * 2);
            }
            discriminators[count++] = (byte) d;
        }

        @Override
        public void appendDefault() {
            add(NULL_DISCRIMINATOR);
        }

        @Override
        public void writePrefix(BinaryWriter out) throws IOException {
            out.writeInt64(MODE_BASIC);
            super.writePrefix(out);
        }

        @Override
        void writeOwnData(BinaryWriter out) throws IOException {
            out.writeBytes(discriminators, 0, count);
        }
    }

    @Override
    RowBinaryColumns.Builder rowBinaryBuilder(int depth) {
        return RowBinaryColumns.variant(variants(), depth);
    }

    @Override
    boolean acceptsNull() {
        return true;
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        for (DataType t : variants) {
            if (ValueTypes.accepts(t, v, strict, depth + 1)) {
                return true;
            }
        }
        return false;
    }

    @Override
    boolean acceptsTyped(TypedValue tv, int depth) {
        if (ValueTypes.namesType(tv, this)) {
            return true;
        }
        for (DataType t : variants) {
            if (ValueTypes.acceptsTyped(t, tv, depth + 1)) {
                return true;
            }
        }
        return false;
    }
}
