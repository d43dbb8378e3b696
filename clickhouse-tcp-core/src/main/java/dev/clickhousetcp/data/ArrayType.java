package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.lang.reflect.Array;
import java.util.Arrays;

/**
 * Array(T): UInt64 end offsets (one per row, cumulative) followed by the flattened elements
 * (ClickHouse {@code SerializationArray}). The writer accepts Java arrays, {@code List}s and other
 * {@code Iterable}s per row, and a whole column at once as a {@link FlatArray} (flattened elements plus
 * end offsets).
 */
public final class ArrayType extends DataType {
    private final DataType element;

    ArrayType(String name, DataType element) {
        super(name);
        this.element = element;
    }

    /**
     * The element type T.
     *
     * @return the type of the array's elements
     */
    public DataType element() {
        return element;
    }

    @Override
    public DeserializationState readPrefix(BinaryReader in) throws IOException {
        return element.readPrefix(in); // the elements' state: the offsets have none
    }

    @Override
    public void writePrefix(BinaryWriter out) throws IOException {
        element.writePrefix(out);
    }

    /** Reads {@code rows} UInt64 offsets, checking they never decrease and stay within limits. */
    static int[] readOffsets(BinaryReader in, int rows, ReadContext ctx, String what) throws IOException {
        DecodeLimits limits = ctx.limits();
        int[] offsets = ctx.firstInts(rows); // grows as offsets arrive: a row count alone commits nothing
        long prev = 0;
        int i = 0;
        while (true) {
            int[] a = offsets; // a tight loop over a fixed array up to its capacity, then grow it
            int segment = Math.min(rows, a.length);
            for (; i < segment; i++) {
                long o = in.readInt64();
                if (o < prev || o > limits.maxArrayElements()) {
                    throw new ClickHouseProtocolException("invalid " + what + " offset " + Long.toUnsignedString(o)
                            + " at row " + i + " (previous " + prev + ", limit " + limits.maxArrayElements() + ")");
                }
                a[i] = (int) o;
                prev = o;
            }
            if (i == rows) {
                return a;
            }
            offsets = ctx.grow(a, i, rows);
        }
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        int[] offsets = readOffsets(in, rows, ctx, name);
        int total = rows == 0 ? 0 : offsets[rows - 1];
        Column elements = element.read(in, total, ctx, state);
        return new ArrayColumn(this, rows, offsets, elements);
    }

    @Override
    public ColumnWriter newWriter() {
        ColumnWriter inner = element.newWriter();
        return new OffsetsWriter(this, inner) {
            @Override
            public void appendAll(Object values) {
                if (values instanceof FlatArray f) {
                    appendFlat(f, false);
                } else {
                    super.appendAll(values);
                }
            }

            @Override
            public void appendAllShared(Object values) {
                if (values instanceof FlatArray f) {
                    appendFlat(f, true);
                } else {
                    super.appendAllShared(values);
                }
            }

            private void appendFlat(FlatArray f, boolean shared) {
                int before = inner.size();
                if (shared) {
                    inner.appendAllShared(f.values());
                } else {
                    inner.appendAll(f.values());
                }
                int added = inner.size() - before;
                if (added != f.elements()) {
                    throw new ClickHouseTypeException("FlatArray for " + type().name() + " has " + added
                            + " values but its last end offset is " + f.elements());
                }
                appendEnds(f.ends(), before);
            }

            @Override
            void appendElements(Object value) {
                if (value instanceof Iterable<?> it) {
                    for (Object o : it) {
                        inner.append(o);
                    }
                } else if (value != null && value.getClass().isArray()) {
                    if (value.getClass().getComponentType().isPrimitive()) {
                        inner.appendAll(value);
                    } else {
                        int n = Array.getLength(value);
                        for (int i = 0; i < n; i++) {
                            inner.append(Array.get(value, i));
                        }
                    }
                } else {
                    throw ColumnWriter.cannotConvert(type(), value);
                }
            }
        };
    }

    /** Writer base for offset-based types (Array, Map): UInt64 end offsets then the inner writers' data. */
    abstract static class OffsetsWriter extends CompositeWriter {
        private long[] ends = new long[256];

        OffsetsWriter(DataType type, ColumnWriter... inner) {
            super(type, inner);
        }

        abstract void appendElements(Object value);

        @Override
        public void append(Object value) {
            if (value == null) {
                throw ColumnWriter.notNullable(type().name());
            }
            appendElements(value);
            if (count == ends.length) {
                ends = Arrays.copyOf(ends, count * 2);
            }
            ends[count++] = children[0].size();
        }

        /** Appends one row per entry of {@code rowEnds}, each ending at {@code base + rowEnds[i]} elements. */
        final void appendEnds(int[] rowEnds, long base) {
            if (count + rowEnds.length > ends.length) {
                ends = Arrays.copyOf(ends, Math.max(ends.length * 2, count + rowEnds.length));
            }
            for (int e : rowEnds) {
                ends[count++] = base + e;
            }
        }

        @Override
        public void appendDefault() {
            if (count == ends.length) {
                ends = Arrays.copyOf(ends, count * 2);
            }
            ends[count++] = children[0].size();
        }

        @Override
        void writeOwnData(BinaryWriter out) throws IOException {
            for (int i = 0; i < count; i++) {
                out.writeInt64(ends[i]);
            }
        }
    }

    @Override
    RowBinaryColumns.Builder rowBinaryBuilder(int depth) {
        return new RowBinaryColumns.ArrayB(RowBinaryColumns.builder(element(), depth + 1), "array size");
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return ValueTypes.isCollection(v) && ValueTypes.all(ValueTypes.elements(v), element(), strict, depth);
    }

    @Override
    AggregateStateLayout rowBinaryLayout(String function) {
        return AggregateStateLayout.arrayOf(element().rowBinaryLayout(function), element().rowBinaryWidth());
    }
}
