package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
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
        this.type = DataTypes.parse(typeName, serverZone);
        this.builder = builder(type, 0);
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

    /**
     * The builder of {@code t}'s values: each family says its own ({@link DataType#rowBinaryBuilder}); this
     * bounds the nesting depth.
     */
    static Builder builder(DataType t, int depth) {
        if (depth > MAX_DEPTH) {
            throw new ClickHouseTypeException("type nested deeper than " + MAX_DEPTH + ": " + t.name());
        }
        return t.rowBinaryBuilder(depth);
    }

    /** Tuple (and a Nested's element, a Map's entry): the elements one after the other; natively one column each. */
    static Builder tuple(List<DataType> elements, int depth) {
        return new TupleB(builders(elements, depth));
    }

    /** Variant: one builder per variant, in discriminator order. */
    static Builder variant(List<DataType> variants, int depth) {
        return new VariantB(builders(variants, depth));
    }

    /** The builders of {@code types}, in order, each one level deeper than {@code depth}. */
    private static Builder[] builders(List<DataType> types, int depth) {
        Builder[] out = new Builder[types.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = builder(types.get(i), depth + 1);
        }
        return out;
    }

    /** Writes the prefix of each of {@code parts}, in order. */
    private static void writePrefixes(Iterable<? extends Builder> parts, Bytes.Sink out) {
        for (Builder b : parts) {
            b.writePrefix(out);
        }
    }

    /** Writes the data of each of {@code parts}, in order. */
    private static void writeAllData(Iterable<? extends Builder> parts, Bytes.Sink out) {
        for (Builder b : parts) {
            b.writeData(out);
        }
    }

    /** A builder whose native column is just the bytes it collects, one value after the other. */
    abstract static class Flat extends Builder {
        final Bytes.Sink data = new Bytes.Sink();

        @Override
        final void writeData(Bytes.Sink out) {
            out.writeSink(data);
        }
    }

    static final class Fixed extends Flat {
        final int width;

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
    }

    /** String: VarUInt length + bytes in both layouts (the per-value native layout below revision 54492). */
    static final class StringBuilderB extends Flat {
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

    /**
     * A builder whose native layout is one stream of its own (null map, offsets) followed by a nested column,
     * whose prefix is the nested column's.
     */
    abstract static class Wrapping extends Builder {
        final Builder inner;
        final Bytes.Sink stream = new Bytes.Sink();

        Wrapping(Builder inner) {
            this.inner = inner;
        }

        @Override
        final void writePrefix(Bytes.Sink out) {
            inner.writePrefix(out);
        }

        @Override
        final void writeData(Bytes.Sink out) {
            out.writeSink(stream);
            inner.writeData(out);
        }
    }

    /** Nullable(T): a null flag then the value; natively the null map, then T's column (a default under a NULL). */
    static final class NullableB extends Wrapping {
        NullableB(Builder inner) {
            super(inner);
        }

        @Override
        void append(Bytes.Cursor in) {
            if (in.readUInt8() != 0) {
                appendDefault();
            } else {
                stream.writeUInt8(0);
                inner.add(in);
            }
        }

        @Override
        void appendDefault() {
            stream.writeUInt8(1);
            inner.addDefault();
        }
    }

    /**
     * Array(T) (and Nested, and Map as an array of key-value tuples): a VarUInt size then the elements;
     * natively the cumulative offsets, then the elements' column.
     */
    static final class ArrayB extends Wrapping {
        /** What the size counts, for the message of a size past the end of the value. */
        private final String what;

        ArrayB(Builder element, String what) {
            super(element);
            this.what = what;
        }

        @Override
        void append(Bytes.Cursor in) {
            int n = in.readCount(in.end - in.pos, what);
            for (int i = 0; i < n; i++) {
                inner.add(in);
            }
            stream.writeLong(inner.size, 8);
        }

        @Override
        void appendDefault() {
            stream.writeLong(inner.size, 8);
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
            writePrefixes(Arrays.asList(elements), out);
        }

        @Override
        void writeData(Bytes.Sink out) {
            if (elements.length == 0) {
                for (int i = 0; i < size; i++) {
                    out.writeUInt8('0');
                }
            }
            writeAllData(Arrays.asList(elements), out);
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

        LowCardinalityB(DataType inner, int depth) {
            this.nullable = inner instanceof NullableType;
            this.dictionary = builder(inner instanceof NullableType n ? n.nested() : inner, depth + 1);
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
            writePrefixes(Arrays.asList(variants), out);
        }

        @Override
        void writeData(Bytes.Sink out) {
            out.writeSink(discriminators);
            writeAllData(Arrays.asList(variants), out);
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
                b = builder(DataTypes.parse(name, ZoneOffset.UTC), depth + 1);
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
            writePrefixes(types.values(), out);
        }

        @Override
        void writeData(Bytes.Sink out) {
            int n = types.size();
            int width = DynamicType.indexWidth(n);
            for (int i : indexes) {
                out.writeLong(i < 0 ? n : i, width);
            }
            writeAllData(types.values(), out);
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

        JsonB(JsonType type, int depth) {
            this.depth = depth;
            for (String path : type.typedPaths()) {
                typed.put(path, builder(type.typedPathType(path), depth + 1));
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
            fill(typed.values(), rows);
            fill(dynamic.values(), rows);
        }

        private static void fill(Iterable<? extends Builder> paths, int rows) {
            for (Builder b : paths) {
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
            writePrefixes(typed.values(), out);
            writePrefixes(dynamic.values(), out);
        }

        @Override
        void writeData(Bytes.Sink out) {
            writeAllData(typed.values(), out);
            writeAllData(dynamic.values(), out);
        }
    }
}
