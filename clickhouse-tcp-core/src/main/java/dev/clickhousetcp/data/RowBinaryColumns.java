package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns values in ClickHouse's per-value binary form ({@code ISerialization::serializeBinary}, the
 * RowBinary layout: VarUInt-prefixed strings and array/map sizes, a null flag before Nullable values,
 * a discriminator byte before Variant values, a binary-encoded type before Dynamic values) into a
 * {@link Column}: the values are transcoded into the native column layout of their type and read back
 * through that type's own {@link DataType#read}, so the resulting column is the same class the type
 * produces everywhere else. Used for the values of a Dynamic column's shared variant and of a JSON
 * column's shared data. Not thread-safe; one instance per group of values of one type.
 */
final class RowBinaryColumns {
    private static final int MAX_DEPTH = 64;

    private final DataType type;
    private final Builder builder;

    /** Values of the type named {@code typeName} (a name as the server prints it). */
    RowBinaryColumns(String typeName, ZoneId serverZone) {
        TypeNode node = TypeNode.parse(typeName);
        this.type = DataTypes.parse(typeName, serverZone);
        this.builder = builder(node, 0);
    }

    DataType type() {
        return type;
    }

    int size() {
        return builder.size;
    }

    /** Appends one value read from {@code in}. */
    void append(Bytes.Cursor in) {
        builder.add(in);
    }

    /** The appended values as a column of {@link #type()}; array buffers come from {@code ctx}. */
    Column toColumn(ReadContext ctx, int maxStringBytes) throws IOException {
        Bytes.Sink out = new Bytes.Sink();
        if (builder.size > 0) {
            builder.writePrefix(out);
        }
        builder.writeData(out);
        BinaryReader in = new BinaryReader(new ByteArrayInputStream(out.buf, 0, out.size), 8192, maxStringBytes);
        DeserializationState state = builder.size > 0 ? type.readPrefix(in) : DeserializationState.NONE;
        return type.read(in, builder.size, ctx, state);
    }

    // ---- builders: one RowBinary value in, native column bytes out ----

    /** Collects values of one type in native layout. {@link #size} is maintained by the caller of append. */
    abstract static class Builder {
        int size;

        /** Reads one RowBinary value. */
        abstract void append(Bytes.Cursor in);

        /** Adds the type's default value (0, '', empty, NULL for nullable kinds). */
        abstract void appendDefault();

        void writePrefix(Bytes.Sink out) {
        }

        abstract void writeData(Bytes.Sink out);

        /** Appends one value and counts it. */
        final void add(Bytes.Cursor in) {
            append(in);
            size++;
        }

        final void addDefault() {
            appendDefault();
            size++;
        }
    }

    static Builder builder(TypeNode n, int depth) {
        if (depth > MAX_DEPTH) {
            throw new ClickHouseTypeException("type nested deeper than " + MAX_DEPTH + ": " + n);
        }
        String f = n.name();
        switch (f) {
            case "String": return new StringBuilderB();
            case "FixedString": return new Fixed(intParam(n, 0));
            case "Nothing": return new NothingB();
            case "Nullable": return new NullableB(builder(n.typeArg(0), depth + 1));
            case "Array": return new ArrayB(builder(n.typeArg(0), depth + 1));
            case "Tuple": {
                Builder[] el = new Builder[n.params().size()];
                for (int i = 0; i < el.length; i++) {
                    el[i] = builder(n.typeArg(i), depth + 1);
                }
                return new TupleB(el);
            }
            case "Nested": {
                Builder[] el = new Builder[n.params().size()];
                for (int i = 0; i < el.length; i++) {
                    el[i] = builder(n.typeArg(i), depth + 1);
                }
                return new ArrayB(new TupleB(el));
            }
            case "Map": return new MapB(builder(n.typeArg(0), depth + 1), builder(n.typeArg(1), depth + 1));
            case "LowCardinality": return new LowCardinalityB(n.typeArg(0), depth);
            case "SimpleAggregateFunction": return builder(n.typeArg(n.params().size() - 1), depth + 1);
            case "Variant": {
                List<Builder> el = new ArrayList<>();
                for (int i = 0; i < n.params().size(); i++) {
                    el.add(builder(n.typeArg(i), depth + 1));
                }
                return new VariantB(el.toArray(new Builder[0]));
            }
            case "Dynamic": return new DynamicB(depth);
            case "JSON": return new JsonB(n, depth);
            case "Point": return point();
            case "Ring", "LineString", "MultiPoint": return new ArrayB(point());
            case "Polygon", "MultiLineString": return new ArrayB(new ArrayB(point()));
            case "MultiPolygon": return new ArrayB(new ArrayB(new ArrayB(point())));
            case "Geometry": return new VariantB(new Builder[] {new ArrayB(point()), new ArrayB(new ArrayB(point())),
                new ArrayB(new ArrayB(new ArrayB(point()))), point(), new ArrayB(new ArrayB(point())), new ArrayB(point())});
            default:
                int width = fixedWidth(n);
                if (width > 0) {
                    return new Fixed(width);
                }
                throw new ClickHouseTypeException("values of type " + n + " in binary form are not supported");
        }
    }

    private static Builder point() {
        return new TupleB(new Builder[] {new Fixed(8), new Fixed(8)});
    }

    private static int intParam(TypeNode n, int i) {
        if (n.param(i) instanceof TypeNode.NumberParam np) {
            return np.intValue();
        }
        throw new ClickHouseTypeException("parameter " + (i + 1) + " of " + n + " must be a number");
    }

    /** Bytes per value of fixed-width families (0 when not fixed-width), per ClickHouse's column types. */
    static int fixedWidth(TypeNode n) {
        String f = n.name();
        if (f.startsWith("Interval")) {
            return 8;
        }
        switch (f) {
            case "Int8", "UInt8", "Bool", "Enum8": return 1;
            case "Int16", "UInt16", "Date", "Enum16", "BFloat16": return 2;
            case "Int32", "UInt32", "Float32", "Date32", "DateTime", "IPv4", "Time", "Decimal32": return 4;
            case "Int64", "UInt64", "Float64", "DateTime64", "Time64", "Decimal64": return 8;
            case "Int128", "UInt128", "UUID", "IPv6", "Decimal128": return 16;
            case "Int256", "UInt256", "Decimal256": return 32;
            case "Decimal": {
                int p = intParam(n, 0);
                return p <= 9 ? 4 : p <= 18 ? 8 : p <= 38 ? 16 : 32;
            }
            default: return 0;
        }
    }

    static final class Fixed extends Builder {
        final int width;
        final Bytes.Sink data = new Bytes.Sink();

        Fixed(int width) {
            this.width = width;
        }

        @Override
        void append(Bytes.Cursor in) {
            in.copyTo(data, width);
        }

        @Override
        void appendDefault() {
            data.writeZeros(width);
        }

        @Override
        void writeData(Bytes.Sink out) {
            out.writeSink(data);
        }
    }

    /** String: VarUInt length + bytes in both layouts (the per-value native layout below revision 54492). */
    static final class StringBuilderB extends Builder {
        final Bytes.Sink data = new Bytes.Sink();

        @Override
        void append(Bytes.Cursor in) {
            int len = in.readCount(in.end - in.pos, "string length");
            data.writeVarUInt(len);
            in.copyTo(data, len);
        }

        @Override
        void appendDefault() {
            data.writeUInt8(0);
        }

        @Override
        void writeData(Bytes.Sink out) {
            out.writeSink(data);
        }
    }

    /** Nothing: no bytes per value in binary form, one placeholder byte per row natively. */
    static final class NothingB extends Builder {
        int rows;

        @Override
        void append(Bytes.Cursor in) {
            rows++;
        }

        @Override
        void appendDefault() {
            rows++;
        }

        @Override
        void writeData(Bytes.Sink out) {
            for (int i = 0; i < rows; i++) {
                out.writeUInt8('0');
            }
        }
    }

    static final class NullableB extends Builder {
        final Builder inner;
        final Bytes.Sink nulls = new Bytes.Sink();

        NullableB(Builder inner) {
            this.inner = inner;
        }

        @Override
        void append(Bytes.Cursor in) {
            if (in.readUInt8() != 0) {
                appendDefault();
            } else {
                nulls.writeUInt8(0);
                inner.add(in);
            }
        }

        @Override
        void appendDefault() {
            nulls.writeUInt8(1);
            inner.addDefault();
        }

        @Override
        void writePrefix(Bytes.Sink out) {
            inner.writePrefix(out);
        }

        @Override
        void writeData(Bytes.Sink out) {
            out.writeSink(nulls);
            inner.writeData(out);
        }
    }

    static final class ArrayB extends Builder {
        final Builder element;
        final Bytes.Sink offsets = new Bytes.Sink();

        ArrayB(Builder element) {
            this.element = element;
        }

        @Override
        void append(Bytes.Cursor in) {
            int n = in.readCount(in.end - in.pos, "array size");
            for (int i = 0; i < n; i++) {
                element.add(in);
            }
            offsets.writeLong(element.size, 8);
        }

        @Override
        void appendDefault() {
            offsets.writeLong(element.size, 8);
        }

        @Override
        void writePrefix(Bytes.Sink out) {
            element.writePrefix(out);
        }

        @Override
        void writeData(Bytes.Sink out) {
            out.writeSink(offsets);
            element.writeData(out);
        }
    }

    static final class TupleB extends Builder {
        final Builder[] elements;

        TupleB(Builder[] elements) {
            this.elements = elements;
        }

        @Override
        void append(Bytes.Cursor in) {
            for (Builder b : elements) {
                b.add(in);
            }
        }

        @Override
        void appendDefault() {
            for (Builder b : elements) {
                b.addDefault();
            }
        }

        @Override
        void writePrefix(Bytes.Sink out) {
            for (Builder b : elements) {
                b.writePrefix(out);
            }
        }

        @Override
        void writeData(Bytes.Sink out) {
            if (elements.length == 0) {
                for (int i = 0; i < size; i++) {
                    out.writeUInt8('0');
                }
            }
            for (Builder b : elements) {
                b.writeData(out);
            }
        }
    }

    static final class MapB extends Builder {
        final Builder keys;
        final Builder values;
        final Bytes.Sink offsets = new Bytes.Sink();

        MapB(Builder keys, Builder values) {
            this.keys = keys;
            this.values = values;
        }

        @Override
        void append(Bytes.Cursor in) {
            int n = in.readCount(in.end - in.pos, "map size");
            for (int i = 0; i < n; i++) {
                keys.add(in);
                values.add(in);
            }
            offsets.writeLong(keys.size, 8);
        }

        @Override
        void appendDefault() {
            offsets.writeLong(keys.size, 8);
        }

        @Override
        void writePrefix(Bytes.Sink out) {
            keys.writePrefix(out);
            values.writePrefix(out);
        }

        @Override
        void writeData(Bytes.Sink out) {
            out.writeSink(offsets);
            keys.writeData(out);
            values.writeData(out);
        }
    }

    /**
     * LowCardinality(T): a binary value is a plain T (or Nullable(T)) value; natively a dictionary with
     * every value once plus keys (key 0 = the default / NULL entry), as {@link LowCardinalityType} reads.
     */
    static final class LowCardinalityB extends Builder {
        final boolean nullable;
        final Builder dictionary;
        final List<Integer> keys = new ArrayList<>();

        LowCardinalityB(TypeNode inner, int depth) {
            this.nullable = inner.name().equals("Nullable");
            this.dictionary = builder(nullable ? inner.typeArg(0) : inner, depth + 1);
            dictionary.addDefault();
        }

        @Override
        void append(Bytes.Cursor in) {
            if (nullable && in.readUInt8() != 0) {
                keys.add(0);
                return;
            }
            dictionary.add(in);
            keys.add(dictionary.size - 1);
        }

        @Override
        void appendDefault() {
            keys.add(0);
        }

        @Override
        void writePrefix(Bytes.Sink out) {
            out.writeLong(LowCardinalityType.KEY_VERSION_SHARED_WITH_ADDITIONAL_KEYS, 8);
        }

        @Override
        void writeData(Bytes.Sink out) {
            if (keys.isEmpty()) {
                return;
            }
            out.writeLong(2 | LowCardinalityType.HAS_ADDITIONAL_KEYS, 8);
            out.writeLong(dictionary.size, 8);
            dictionary.writeData(out);
            out.writeLong(keys.size(), 8);
            for (int k : keys) {
                out.writeLong(k, 4);
            }
        }
    }

    /** Variant: UInt8 global discriminator (255 = NULL) then the value; natively BASIC discriminators. */
    static final class VariantB extends Builder {
        final Builder[] variants;
        final Bytes.Sink discriminators = new Bytes.Sink();

        VariantB(Builder[] variants) {
            this.variants = variants;
        }

        @Override
        void append(Bytes.Cursor in) {
            int d = in.readUInt8();
            if (d == VariantType.NULL_DISCRIMINATOR) {
                discriminators.writeUInt8(d);
                return;
            }
            if (d >= variants.length) {
                throw new ClickHouseProtocolException("variant discriminator " + d + " of " + variants.length + " variants");
            }
            discriminators.writeUInt8(d);
            variants[d].add(in);
        }

        @Override
        void appendDefault() {
            discriminators.writeUInt8(VariantType.NULL_DISCRIMINATOR);
        }

        @Override
        void writePrefix(Bytes.Sink out) {
            out.writeLong(VariantType.MODE_BASIC, 8);
            for (Builder b : variants) {
                b.writePrefix(out);
            }
        }

        @Override
        void writeData(Bytes.Sink out) {
            out.writeSink(discriminators);
            for (Builder b : variants) {
                b.writeData(out);
            }
        }
    }

    /**
     * Dynamic: the binary type encoding then the value ({@code Nothing} = NULL); natively the FLATTENED
     * form (version 3): the list of type names, per-row type indexes, then each type's values.
     */
    static final class DynamicB extends Builder {
        final int depth;
        final Map<String, Builder> types = new LinkedHashMap<>();
        final Map<String, Integer> positions = new LinkedHashMap<>();
        final List<Integer> indexes = new ArrayList<>();

        DynamicB(int depth) {
            this.depth = depth;
        }

        @Override
        void append(Bytes.Cursor in) {
            String name = BinaryTypes.decode(in);
            if (name.equals("Nothing")) {
                indexes.add(-1);
                return;
            }
            Builder b = types.get(name);
            if (b == null) {
                b = builder(TypeNode.parse(name), depth + 1);
                positions.put(name, types.size());
                types.put(name, b);
            }
            b.add(in);
            indexes.add(positions.get(name));
        }

        @Override
        void appendDefault() {
            indexes.add(-1);
        }

        @Override
        void writePrefix(Bytes.Sink out) {
            out.writeLong(DynamicType.VERSION_FLATTENED, 8);
            out.writeVarUInt(types.size());
            for (String name : types.keySet()) {
                out.writeString(name);
            }
            for (Builder b : types.values()) {
                b.writePrefix(out);
            }
        }

        @Override
        void writeData(Bytes.Sink out) {
            int n = types.size();
            int width = DynamicType.indexWidth(n);
            for (int i : indexes) {
                out.writeLong(i < 0 ? n : i, width);
            }
            for (Builder b : types.values()) {
                b.writeData(out);
            }
        }
    }

    /**
     * JSON: VarUInt path count, then per path its name and value (typed paths in their type's binary
     * form, other paths as Dynamic); natively the FLATTENED object form (version 3).
     */
    static final class JsonB extends Builder {
        final int depth;
        final TreeMap<String, Builder> typed = new TreeMap<>(TypeNames.UTF8_ORDER);
        final TreeMap<String, DynamicB> dynamic = new TreeMap<>(TypeNames.UTF8_ORDER);
        final JsonType.Params params;

        JsonB(TypeNode n, int depth) {
            this.depth = depth;
            this.params = JsonType.Params.parse(n);
            for (Map.Entry<String, String> e : params.typedPathTypes().entrySet()) {
                typed.put(e.getKey(), builder(TypeNode.parse(e.getValue()), depth + 1));
            }
        }

        @Override
        void append(Bytes.Cursor in) {
            int n = in.readCount(in.end - in.pos, "JSON path count");
            for (int i = 0; i < n; i++) {
                String path = in.readString();
                Builder t = typed.get(path);
                if (t != null) {
                    t.add(in);
                    continue;
                }
                DynamicB d = dynamic.get(path);
                if (d == null) {
                    d = new DynamicB(depth + 1);
                    for (int r = 0; r < size; r++) {
                        d.addDefault();
                    }
                    dynamic.put(path, d);
                }
                d.add(in);
            }
            fill(size + 1);
        }

        /** Pads paths missing from the current row with defaults (typed) or NULL (dynamic). */
        private void fill(int rows) {
            for (Builder b : typed.values()) {
                while (b.size < rows) {
                    b.addDefault();
                }
            }
            for (DynamicB b : dynamic.values()) {
                while (b.size < rows) {
                    b.addDefault();
                }
            }
        }

        @Override
        void appendDefault() {
            fill(size + 1);
        }

        @Override
        void writePrefix(Bytes.Sink out) {
            out.writeLong(JsonType.VERSION_FLATTENED, 8);
            out.writeVarUInt(dynamic.size());
            for (String path : dynamic.keySet()) {
                out.writeString(path);
            }
            for (Builder b : typed.values()) {
                b.writePrefix(out);
            }
            for (DynamicB b : dynamic.values()) {
                b.writePrefix(out);
            }
        }

        @Override
        void writeData(Bytes.Sink out) {
            for (Builder b : typed.values()) {
                b.writeData(out);
            }
            for (DynamicB b : dynamic.values()) {
                b.writeData(out);
            }
        }
    }
}
