package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * AggregateFunction([version, ] f[(params)], T1, T2, ...): per row, the serialized state of aggregate
 * function f over arguments of types T1, T2, ... (ClickHouse {@code DataTypeAggregateFunction},
 * {@code SerializationAggregateFunction}). States are written back to back without a length, so this
 * client reads and writes them only for functions whose state layout it knows (see
 * {@link AggregateStateLayout}: count, sum, sumWithOverflow, sumKahan, sumCount, avg, min, max, any,
 * anyLast, anyHeavy, argMin, argMax, uniq, uniqExact, uniqHLL12, uniqCombined, uniqCombined64, the
 * quantile / quantiles / median family, groupArray, groupArrayLast, groupArraySample,
 * groupArrayMovingSum, groupArrayMovingAvg, groupUniqArray, topK, topKWeighted, sumMap, minMap, maxMap,
 * sumMapWithOverflow, simpleLinearRegression, with -If, -Array, -OrNull, -OrDefault, and Nullable
 * arguments); the bytes are kept opaque and round-trip unchanged.
 *
 * <p>Any AggregateFunction type name resolves (so an INSERT header or an empty result can be handled);
 * reading rows of an unsupported function, or appending to its writer, throws a
 * {@link ClickHouseTypeException} naming the function (when reading, the connection is then discarded,
 * since the rest of the block cannot be delimited).
 *
 * <p>The writer accepts a state as {@code byte[]} or {@link ByteBuffer} (for example from
 * {@link AggregateFunctionColumn#getBytes}); each is checked to be exactly one well-formed state of this
 * type before anything is sent. {@code appendDefault} appends the state of an aggregation over no rows.
 */
public final class AggregateFunctionType extends DataType {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final String function;
    private final List<DataType> arguments;
    private final AggregateStateLayout layout;
    private final String unsupported;
    private final byte[] defaultState;

    private AggregateFunctionType(String name, String function, List<DataType> arguments,
                                  AggregateStateLayout layout, String unsupported) {
        super(name);
        this.function = function;
        this.arguments = arguments;
        this.layout = layout;
        this.unsupported = unsupported;
        if (layout != null) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            layout.writeDefault(out);
            this.defaultState = out.toByteArray();
        } else {
            this.defaultState = null;
        }
    }

    /** Resolves an {@code AggregateFunction(...)} type name. */
    static AggregateFunctionType of(TypeNode n, ZoneId zone) {
        String name = n.toString();
        List<TypeNode.Param> params = n.params();
        int i = 0;
        int version = -1;
        if (!params.isEmpty() && params.get(0) instanceof TypeNode.NumberParam v) {
            i++; // state version
            try {
                version = v.intValue();
            } catch (NumberFormatException e) {
                version = Integer.MAX_VALUE;
            }
        }
        if (i >= params.size() || !(params.get(i) instanceof TypeNode.TypeParam fp)) {
            throw new ClickHouseTypeException("AggregateFunction needs a function name: " + name);
        }
        TypeNode fn = fp.type();
        List<DataType> args = new ArrayList<>();
        String unsupported = null;
        AggregateStateLayout layout = null;
        try {
            for (int k = i + 1; k < params.size(); k++) {
                args.add(DataTypes.resolve(n.typeArg(k), zone));
            }
            layout = AggregateStateLayout.of(fn.name(), fn.params(), args, version);
        } catch (ClickHouseTypeException e) {
            unsupported = "cannot read or write states of " + name + ": " + e.getMessage();
        }
        return new AggregateFunctionType(name, fn.name(), Collections.unmodifiableList(args), layout, unsupported);
    }

    /**
     * The function name as the type spells it, combinators included (e.g. {@code sumIf}).
     *
     * @return the function name, without its parameters
     */
    public String function() {
        return function;
    }

    /**
     * The argument types (empty when they could not be resolved).
     *
     * @return the argument types T1, T2, ... in order, unmodifiable
     */
    public List<DataType> arguments() {
        return arguments;
    }

    /**
     * Whether this client can delimit (read and write) states of this type.
     *
     * @return {@code true} when the function's state layout is known (see {@link AggregateStateLayout})
     */
    public boolean isSupported() {
        return layout != null;
    }

    private ClickHouseTypeException unsupportedException() {
        return new ClickHouseTypeException(unsupported);
    }

    /**
     * The state of an aggregation over no rows (a copy).
     *
     * @return the serialized empty state, a new array on each call
     * @throws ClickHouseTypeException when the type is not {@linkplain #isSupported() supported}
     */
    public byte[] emptyState() {
        if (layout == null) {
            throw unsupportedException();
        }
        return defaultState.clone();
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        if (rows > 0 && layout == null) {
            throw unsupportedException();
        }
        int[] offsets = ctx.firstInts(rows); // grows as states arrive
        ColumnInput src = new ColumnInput(in, ctx, rows);
        for (int r = 0; r < rows; r++) {
            if (r == offsets.length) {
                offsets = ctx.grow(offsets, r, rows);
            }
            src.startState();
            try {
                layout.read(src);
            } catch (java.io.EOFException e) {
                throw e;
            } catch (IOException e) {
                throw new ClickHouseProtocolException("malformed state of " + name + " at row " + r + ": " + e.getMessage(), e);
            }
            offsets[r] = src.used;
        }
        return new AggregateFunctionColumn(this, rows, src.data, offsets);
    }

    /** Reads states from the socket, copying every byte into one pooled array. */
    private static final class ColumnInput implements AggregateStateLayout.In {
        private final BinaryReader in;
        private final ReadContext ctx;
        private final long maxState;
        private final long maxTotal;
        private final long maxCount;
        byte[] data;
        int used;
        private int stateStart;

        ColumnInput(BinaryReader in, ReadContext ctx, int rows) {
            this.in = in;
            this.ctx = ctx;
            this.maxState = in.maxStringBytes();
            this.maxTotal = Math.min(ctx.limits().maxColumnBytes(), Integer.MAX_VALUE - 16);
            this.maxCount = ctx.limits().maxArrayElements();
            this.data = ctx.bytes((int) Math.max(16, Math.min(rows * 16L, 1 << 20)));
        }

        void startState() {
            stateStart = used;
        }

        /** Checks the limits for {@code n} more bytes; the buffer grows as they arrive (see {@link #bytes}). */
        private void check(long n) {
            long end = used + n;
            if (end - stateStart > maxState) {
                throw new ClickHouseProtocolException("aggregate function state exceeds " + maxState + " bytes");
            }
            if (end > maxTotal) {
                throw new ClickHouseProtocolException("aggregate function column exceeds " + maxTotal + " bytes");
            }
        }

        /** Checks the limits for {@code n} more bytes and makes room for them. */
        private void ensure(long n) {
            check(n);
            long end = used + n;
            if (end > data.length) {
                long grown = Math.min(Math.max(end, (long) data.length * 2), maxTotal);
                byte[] nd = ctx.bytes((int) grown);
                System.arraycopy(data, 0, nd, 0, used);
                data = nd;
            }
        }

        @Override
        public int u8() throws IOException {
            ensure(1);
            int b = in.readUInt8();
            data[used++] = (byte) b;
            return b;
        }

        @Override
        public void bytes(long n) throws IOException {
            if (n < 0) {
                throw new ClickHouseProtocolException("negative length in an aggregate function state");
            }
            check(n);
            long end = used + n;
            while (used < end) { // a declared length commits memory only as its bytes arrive
                if (used == data.length) {
                    data = ctx.grow(data, used, Math.min(Math.max(end, 2L * data.length), maxTotal));
                }
                int k = (int) Math.min(end - used, data.length - used);
                in.readFully(data, used, k);
                used += k;
            }
        }

        @Override
        public int int32() throws IOException {
            ensure(4);
            in.readFully(data, used, 4);
            int v = (int) INT.get(data, used);
            used += 4;
            return v;
        }

        @Override
        public long maxCount() {
            return maxCount;
        }
    }

    /** Walks a caller-provided state to check it is exactly one well-formed state. */
    private static final class ArrayInput implements AggregateStateLayout.In {
        private final byte[] b;
        private final int end;
        int pos;

        ArrayInput(byte[] b, int off, int len) {
            this.b = b;
            this.pos = off;
            this.end = off + len;
        }

        private void need(long n) throws IOException {
            if (n < 0 || n > end - pos) {
                throw new IOException("the state ends early");
            }
        }

        @Override
        public int u8() throws IOException {
            need(1);
            return b[pos++] & 0xFF;
        }

        @Override
        public void bytes(long n) throws IOException {
            need(n);
            pos += (int) n;
        }

        @Override
        public int int32() throws IOException {
            need(4);
            int v = (int) INT.get(b, pos);
            pos += 4;
            return v;
        }

        @Override
        public long maxCount() {
            return end - pos;
        }
    }

    /** Checks that {@code b[off, off+len)} is exactly one state of this type. */
    void validate(byte[] b, int off, int len) {
        ArrayInput in = new ArrayInput(b, off, len);
        try {
            layout.read(in);
        } catch (IOException e) {
            throw new ClickHouseTypeException("bytes are not a state of " + name + ": " + e.getMessage(), e);
        }
        if (in.pos != off + len) {
            throw new ClickHouseTypeException("bytes are not a state of " + name + ": " + (off + len - in.pos)
                    + " bytes left after one state");
        }
    }

    @Override
    public ColumnWriter newWriter() {
        return new ColumnWriter() {
            private byte[] data = new byte[1024];
            private int used;
            private int count;

            @Override
            public DataType type() {
                return AggregateFunctionType.this;
            }

            private void add(byte[] b, int off, int len) {
                if (used + len > data.length) {
                    data = Arrays.copyOf(data, Math.max(data.length * 2, used + len));
                }
                System.arraycopy(b, off, data, used, len);
                used += len;
                count++;
            }

            @Override
            public void append(Object value) {
                if (layout == null) {
                    throw unsupportedException();
                }
                if (value instanceof byte[] b) {
                    validate(b, 0, b.length);
                    add(b, 0, b.length);
                } else if (value instanceof ByteBuffer bb) {
                    byte[] b = new byte[bb.remaining()];
                    bb.duplicate().get(b);
                    validate(b, 0, b.length);
                    add(b, 0, b.length);
                } else if (value == null) {
                    throw ColumnWriter.notNullable(name);
                } else {
                    throw ColumnWriter.cannotConvert(AggregateFunctionType.this, value);
                }
            }

            @Override
            public void appendDefault() {
                if (layout == null) {
                    throw unsupportedException();
                }
                add(defaultState, 0, defaultState.length);
            }

            @Override
            public int size() {
                return count;
            }

            @Override
            public void writeData(BinaryWriter out) throws IOException {
                out.writeBytes(data, 0, used);
            }

            @Override
            public void reset() {
                used = 0;
                count = 0;
            }
        };
    }
}
