package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The byte layout of one serialized aggregate-function state, enough to find where a state ends. The
 * native format writes the states of an AggregateFunction column back to back with no length prefix
 * ({@code SerializationAggregateFunction::serializeBinaryBulk} calls {@code IAggregateFunction::serialize}
 * per row), so a client can only split them by knowing each function's {@code serialize}. Layouts here
 * follow ClickHouse's sources:
 * <ul>
 * <li>{@code count}: VarUInt ({@code AggregateFunctionCount.h}).</li>
 * <li>{@code sum}: the sum as its accumulator type, little-endian: Int64 / UInt64 / Float64 for the
 * narrow numbers, Int128/UInt128/Int256/UInt256 as is, Decimal128 for Decimal32/64/128, Decimal256
 * for Decimal256 ({@code AggregateFunctionSum.h}).</li>
 * <li>{@code avg}: the numerator as for {@code sum}, then the count as VarUInt
 * ({@code AggregateFunctionAvg.h}).</li>
 * <li>{@code min}, {@code max}, {@code any}, {@code anyLast}: a single value
 * ({@code SingleValueData.cpp}): for String an Int32 size (-1 = no value) and that many bytes
 * (including a terminating zero); for other types a UInt8 has-value flag followed, when set, by the
 * value in RowBinary form.</li>
 * <li>{@code argMin}, {@code argMax}: the result's single value, then the compared value's.</li>
 * <li>{@code uniqExact}: VarUInt count, then that many keys: the value itself for one argument of an
 * integer, float, BFloat16, Bool, Enum, Date, Date32, DateTime, IPv4, IPv6 or UUID type, otherwise a
 * 16-byte SipHash ({@code AggregateFunctionUniq.h}, {@code HashSet::write}).</li>
 * <li>{@code groupArray} and {@code groupArray(N)}: VarUInt count, then the elements: raw fixed-width
 * values for integer, float, BFloat16, Bool, Enum, Date, DateTime and IPv4 elements, otherwise each
 * element as VarUInt length plus bytes ({@code AggregateFunctionGroupArray.h}).</li>
 * <li>{@code uniq}: UInt8 skip degree, VarUInt size (at most 65536), that many UInt32 hashes
 * ({@code UniquesHashSet.h}).</li>
 * <li>{@code uniqHLL12}: UInt8 is-large; a small set (VarUInt size, at most 16 keys: the value for
 * narrow numbers, Date, DateTime, IPv4, Enum, otherwise a UInt64 hash) or a HyperLogLogCounter of
 * precision 12 ({@code HyperLogLogWithSmallSetOptimization.h}).</li>
 * <li>{@code uniqCombined(K)} (K = 12..20, default 17), {@code uniqCombined64(K)}: UInt8 container
 * 1 small (VarUInt size, at most 16 hashes), 2 medium (HashSet: VarUInt size, hashes), 3 large
 * (HyperLogLogCounter of precision K); hashes are UInt64 for uniqCombined64 and for a String,
 * FixedString or IPv6 argument, otherwise UInt32 ({@code AggregateFunctionUniqCombined.h},
 * {@code CombinedCardinalityEstimator.h}). A HyperLogLogCounter is written as its memory image
 * ({@code HyperLogLogCounter.h}): 2^K ranks of 5 bits (6 for UInt64 hashes), a UInt32 count per rank
 * value, and the zero-bucket count (UInt16, or UInt32 for K of 16 and more).</li>
 * <li>{@code quantile} (and {@code quantiles}, {@code median}): UInt64 sample capacity, UInt64 total,
 * the generator as VarUInt length + text, then min(capacity, total) values ({@code ReservoirSampler.h});
 * {@code quantileDeterministic}: UInt64 size, UInt64 total, then (value, UInt32 hash) pairs written as
 * memory, padding included ({@code ReservoirSamplerDeterministic.h}); {@code quantileExact},
 * {@code -Low}, {@code -High}, {@code -Exclusive}, {@code -Inclusive}: VarUInt count + values;
 * {@code quantileExactWeighted}, {@code quantileExactWeightedInterpolated},
 * {@code quantileInterpolatedWeighted}: VarUInt count + (value, UInt64 weight) cells;
 * {@code quantileBFloat16[Weighted]}: VarUInt count + (UInt16, UInt64) cells; {@code quantileTDigest[Weighted]}:
 * VarUInt count + (Float32 mean, Float32 count) centroids ({@code QuantileTDigest.h});
 * {@code quantileTiming[Weighted]}: a tiny, medium or large (dense or sparse histogram) representation
 * ({@code QuantileTiming.h}). The level parameters are not part of any state.</li>
 * <li>{@code anyHeavy}: the single value, then a UInt64 counter; {@code sumWithOverflow}: the sum in
 * the argument's own type; {@code sumKahan}: Float64 sum and compensation; {@code sumCount}: the sum as
 * for {@code sum}, then the count as VarUInt; {@code simpleLinearRegression}: UInt64 count and four
 * Float64 sums.</li>
 * <li>{@code groupUniqArray(N)}, {@code groupArrayLast(N)} (then a UInt64 total),
 * {@code groupArraySample(N[, seed])} (then a UInt64 total and the generator as VarUInt length +
 * text): values as for {@code groupArray}; {@code groupArrayMovingSum}/{@code Avg}: VarUInt count + the
 * 8-byte accumulators (16 for Decimal and 128-bit integers, 32 for Decimal256 and 256-bit integers
 * in sums).</li>
 * <li>{@code topK(N[, load])}, {@code topKWeighted}: VarUInt count of (key, VarUInt count, VarUInt
 * error) counters, then VarUInt alpha count + VarUInt alphas ({@code SpaceSaving.h}); keys as the
 * {@code groupArray} values.</li>
 * <li>{@code sumMap}, {@code minMap}, {@code maxMap}, {@code sumMapWithOverflow}: VarUInt count of
 * entries, each the key and every value in RowBinary form; state version 1 (the one the server names,
 * {@code AggregateFunction(1, sumMap, ...)}, and the one of a Map argument) widens numbers to 64 bits
 * and Decimal32/64 to Decimal128 ({@code AggregateFunctionSumMap.cpp}).</li>
 * <li>Nullable arguments (the {@code -Null} adapter, {@code AggregateFunctionNull.cpp}): a UInt8 flag,
 * followed by the nested state only when the flag is set (for count, uniq, uniqHLL12 and uniqExact,
 * which return a default rather than NULL, the flag is always set); no flag for plain {@code count},
 * {@code groupArray*}, {@code groupUniqArray}, {@code topK*} and {@code sumCount}.</li>
 * <li>Combinators: {@code -If} (same state as the function, one more UInt8 argument), {@code -Array}
 * (the state of the function over the array elements), {@code -OrNull} / {@code -OrDefault} (the state
 * followed by one UInt8 flag).</li>
 * </ul>
 * Immutable and thread-safe.
 */
abstract class AggregateStateLayout {

    /** A source of state bytes: reading consumes (and, when reading a column, copies) them. */
    interface In {
        int u8() throws IOException;

        /** Consumes {@code n} bytes. */
        void bytes(long n) throws IOException;

        int int32() throws IOException;

        /** A little-endian UInt16. */
        default int u16() throws IOException {
            return u8() | u8() << 8;
        }

        /** A little-endian 64-bit integer. */
        default long int64() throws IOException {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v |= (long) u8() << (8 * i);
            }
            return v;
        }

        /** Largest element count accepted for one array inside a state. */
        long maxCount();

        default long varUInt() throws IOException {
            long result = 0;
            for (int i = 0; i < 10; i++) {
                int b = u8();
                result |= (long) (b & 0x7F) << (7 * i);
                if ((b & 0x80) == 0) {
                    return result;
                }
            }
            throw new IOException("VarUInt longer than 10 bytes in an aggregate function state");
        }

        default long count() throws IOException {
            long n = varUInt();
            if (n < 0 || n > maxCount()) {
                throw new IOException("element count " + Long.toUnsignedString(n) + " in an aggregate function state"
                        + " exceeds the limit " + maxCount());
            }
            return n;
        }
    }

    /** Consumes exactly one state (or value) of this layout. */
    abstract void read(In in) throws IOException;

    /** Writes the state of an aggregation over no rows. */
    abstract void writeDefault(ByteArrayOutputStream out);

    /** How a layout consumes one state (or value). */
    @FunctionalInterface
    interface Reader {
        void read(In in) throws IOException;
    }

    /** The layout that reads with {@code reader} and writes the state of no rows with {@code writeEmpty}. */
    static AggregateStateLayout layout(Reader reader, Consumer<ByteArrayOutputStream> writeEmpty) {
        return new AggregateStateLayout() {
            @Override
            void read(In in) throws IOException {
                reader.read(in);
            }

            @Override
            void writeDefault(ByteArrayOutputStream out) {
                writeEmpty.accept(out);
            }
        };
    }

    /** Fixed-size bytes. */
    static AggregateStateLayout fixed(int n) {
        return layout(in -> in.bytes(n), out -> out.write(new byte[n], 0, n));
    }

    /** A VarUInt. */
    static final AggregateStateLayout VAR_UINT = layout(In::varUInt, out -> out.write(0));

    /** VarUInt length + bytes (String in RowBinary, groupArray's generic elements). */
    static final AggregateStateLayout BLOB = layout(in -> in.bytes(in.varUInt()), out -> out.write(0));

    /** SingleValueDataString: Int32 size (-1 = none) + bytes. */
    static final AggregateStateLayout SINGLE_STRING = layout(in -> {
        int size = in.int32();
        if (size > 0) {
            in.bytes(size);
        }
    }, out -> out.write(new byte[] {-1, -1, -1, -1}, 0, 4));

    /** Parts one after another. */
    static AggregateStateLayout seq(AggregateStateLayout... parts) {
        return layout(in -> {
            for (AggregateStateLayout p : parts) {
                p.read(in);
            }
        }, out -> {
            for (AggregateStateLayout p : parts) {
                p.writeDefault(out);
            }
        });
    }

    /** UInt8 flag; {@code inner} follows when it is non-zero (has-value flags, the -Null adapter). */
    static AggregateStateLayout flagged(AggregateStateLayout inner) {
        return layout(flaggedReader(inner), out -> out.write(0));
    }

    /**
     * The -Null adapter of a function that returns a default rather than NULL for no rows (count,
     * uniqExact): same bytes as {@link #flagged}, but the flag is always written as 1.
     */
    static AggregateStateLayout alwaysFlagged(AggregateStateLayout inner) {
        return layout(flaggedReader(inner), out -> {
            out.write(1);
            inner.writeDefault(out);
        });
    }

    /** Reads a UInt8 flag, then {@code inner} when the flag is non-zero. */
    private static Reader flaggedReader(AggregateStateLayout inner) {
        return in -> {
            if (in.u8() != 0) {
                inner.read(in);
            }
        };
    }

    /** RowBinary Nullable: UInt8 is-null; the value follows when it is zero. */
    static AggregateStateLayout nullableValue(AggregateStateLayout inner) {
        return layout(in -> {
            if (in.u8() == 0) {
                inner.read(in);
            }
        }, out -> out.write(1));
    }

    /** VarUInt count + that many elements. */
    static AggregateStateLayout arrayOf(AggregateStateLayout element, int fixedWidth) {
        return layout(in -> {
            long n = in.count();
            if (fixedWidth >= 0) {
                in.bytes(n * fixedWidth);
            } else {
                for (long i = 0; i < n; i++) {
                    element.read(in);
                }
            }
        }, out -> out.write(0));
    }

    // ---- resolving a function's layout ----

    /** Thrown (as a {@link ClickHouseTypeException}) when a state layout is unknown. */
    static ClickHouseTypeException unsupported(String why) {
        return new ClickHouseTypeException(why);
    }

    /**
     * The state layout of aggregate function {@code name} with parameters {@code params} over
     * {@code args}.
     *
     * @throws ClickHouseTypeException naming the function when its layout is not known
     */
    static AggregateStateLayout of(String name, List<TypeNode.Param> params, List<DataType> args) {
        return of(name, params, args, -1);
    }

    /**
     * The state layout of aggregate function {@code name} with parameters {@code params} over
     * {@code args}, for the state version the type names ({@code AggregateFunction(1, sumMap, ...)}), or -1.
     *
     * @throws ClickHouseTypeException naming the function when its layout is not known
     */
    static AggregateStateLayout of(String name, List<TypeNode.Param> params, List<DataType> args, int version) {
        boolean nullable = false;
        List<DataType> stripped = new ArrayList<>(args.size());
        for (DataType a : args) {
            if (a instanceof NullableType n) {
                if (n.nested() instanceof NothingType) {
                    throw unsupported("arguments of type Nullable(Nothing) to aggregate function '" + name + "'");
                }
                nullable = true;
                stripped.add(n.nested());
            } else {
                stripped.add(a);
            }
        }
        if (!nullable) {
            return withoutNull(name, params, args, version);
        }
        AggregateStateLayout inner = withoutNull(name, params, stripped, version);
        String base = AggregateStateFamilies.canonical(baseName(name));
        if (name.endsWith("OrNull") || name.endsWith("OrDefault")) {
            throw unsupported("aggregate function '" + name + "' over Nullable arguments");
        }
        if (name.equals("count") || base.equals("groupArray") || AggregateStateFamilies.NO_NULL_FLAG.contains(base)) {
            return inner;
        }
        // functions with returns_default_when_only_null keep the flag set (AggregateFunctionNullUnary<false, true>)
        return base.equals("count") || base.equals("uniqExact") || AggregateStateFamilies.ALWAYS_NULL_FLAG.contains(base)
                ? alwaysFlagged(inner) : flagged(inner);
    }

    /** Functions whose own state layout is known (before combinators). */
    private static final java.util.Set<String> BASE_FUNCTIONS = java.util.Set.of("count", "sum", "avg", "min", "max",
            "any", "anyLast", "argMin", "argMax", "uniqExact", "groupArray");

    /** The function under its combinator suffixes ({@code groupArrayIf} is groupArray, not group + Array + If). */
    private static String baseName(String name) {
        String n = name;
        while (true) {
            if (BASE_FUNCTIONS.contains(n) || AggregateStateFamilies.FUNCTIONS.contains(AggregateStateFamilies.canonical(n))) {
                return n;
            }
            if (n.endsWith("If") && n.length() > 2) {
                n = n.substring(0, n.length() - 2);
            } else if (n.endsWith("Array") && n.length() > 5) {
                n = n.substring(0, n.length() - 5);
            } else if (n.endsWith("OrNull") && n.length() > 6) {
                n = n.substring(0, n.length() - 6);
            } else if (n.endsWith("OrDefault") && n.length() > 9) {
                n = n.substring(0, n.length() - 9);
            } else {
                return n;
            }
        }
    }

    private static AggregateStateLayout withoutNull(String name, List<TypeNode.Param> params, List<DataType> args,
                                                    int version) {
        switch (name) {
            case "count" -> {
                noParams(name, params);
                arity(name, args, 0, 1);
                return VAR_UINT;
            }
            case "sum" -> {
                noParams(name, params);
                arity(name, args, 1, 1);
                return fixed(sumWidth(name, args.get(0)));
            }
            case "avg" -> {
                noParams(name, params);
                arity(name, args, 1, 1);
                return seq(fixed(sumWidth(name, args.get(0))), VAR_UINT);
            }
            case "min", "max", "any", "anyLast" -> {
                noParams(name, params);
                arity(name, args, 1, 1);
                return single(name, args.get(0));
            }
            case "argMin", "argMax" -> {
                noParams(name, params);
                arity(name, args, 2, 2);
                return seq(single(name, args.get(0)), single(name, args.get(1)));
            }
            case "uniqExact" -> {
                noParams(name, params);
                arity(name, args, 1, Integer.MAX_VALUE);
                int w = args.size() == 1 ? uniqKeyWidth(args.get(0)) : 16;
                return arrayOf(fixed(w), w);
            }
            case "groupArray" -> {
                if (params.size() > 1 || params.size() == 1 && !(params.get(0) instanceof TypeNode.NumberParam)) {
                    throw unsupported("aggregate function 'groupArray' with parameters " + params);
                }
                arity(name, args, 1, 1);
                int w = groupArrayWidth(args.get(0));
                return arrayOf(w >= 0 ? fixed(w) : BLOB, w);
            }
            default -> {
            }
        }
        AggregateStateLayout family = AggregateStateFamilies.of(AggregateStateFamilies.canonical(name), params, args, version);
        if (family != null) {
            return family;
        }
        if (name.endsWith("If") && name.length() > 2) {
            if (args.isEmpty()) {
                throw unsupported("aggregate function '" + name + "' needs a condition argument");
            }
            return withoutNull(name.substring(0, name.length() - 2), params, args.subList(0, args.size() - 1), version);
        }
        if (name.endsWith("Array") && name.length() > 5) {
            List<DataType> elements = new ArrayList<>(args.size());
            for (DataType a : args) {
                if (!(a instanceof ArrayType at)) {
                    throw unsupported("aggregate function '" + name + "' takes Array arguments, got " + a.name());
                }
                elements.add(at.element());
            }
            return of(name.substring(0, name.length() - 5), params, elements, version);
        }
        if (name.endsWith("OrNull") && name.length() > 6) {
            return seq(withoutNull(name.substring(0, name.length() - 6), params, args, version), fixed(1));
        }
        if (name.endsWith("OrDefault") && name.length() > 9) {
            return seq(withoutNull(name.substring(0, name.length() - 9), params, args, version), fixed(1));
        }
        throw unsupported("the state layout of aggregate function '" + name + "' is not known to this client "
                + "(supported: count, sum, avg, min, max, any, anyLast, anyHeavy, argMin, argMax, uniq, uniqExact, "
                + "uniqHLL12, uniqCombined, uniqCombined64, quantile*, quantiles*, median*, sumWithOverflow, sumKahan, "
                + "sumCount, sumMap, minMap, maxMap, simpleLinearRegression, groupArray, groupArrayLast, groupArraySample, "
                + "groupArrayMovingSum, groupArrayMovingAvg, groupUniqArray, topK, topKWeighted, "
                + "with -If, -Array, -OrNull and -OrDefault)");
    }

    private static void noParams(String name, List<TypeNode.Param> params) {
        if (!params.isEmpty()) {
            throw unsupported("aggregate function '" + name + "' with parameters " + params);
        }
    }

    private static void arity(String name, List<DataType> args, int min, int max) {
        if (args.size() < min || args.size() > max) {
            throw unsupported("aggregate function '" + name + "' with " + args.size() + " arguments");
        }
    }

    /** Bytes of the sum/avg accumulator for an argument type. */
    static int sumWidth(String name, DataType t) {
        if (t instanceof NumberType || t instanceof BFloat16Type) {
            return 8;
        }
        if (t instanceof BigIntType b) {
            return b.width();
        }
        if (t instanceof DecimalType d) {
            return d.width() == 32 ? 32 : 16;
        }
        throw unsupported("aggregate function '" + name + "' over " + t.name());
    }

    /** The single-value layout (min/max/any/anyLast/argMin/argMax) of a value type. */
    static AggregateStateLayout single(String name, DataType t) {
        if (t instanceof StringType) {
            return SINGLE_STRING;
        }
        return flagged(rowBinary(name, t));
    }

    private static int uniqKeyWidth(DataType t) {
        if (t instanceof NumberType || t instanceof BigIntType || t instanceof BFloat16Type || t instanceof EnumType
                || t instanceof DateType || t instanceof DateTimeType || t instanceof IPv4Type || t instanceof IPv6Type
                || t instanceof UuidType) {
            return fixedWidth(t);
        }
        return 16;
    }

    static int groupArrayWidth(DataType t) {
        if (t instanceof NumberType || t instanceof BigIntType || t instanceof BFloat16Type || t instanceof EnumType
                || t instanceof DateTimeType || t instanceof IPv4Type
                || t instanceof DateType && fixedWidth(t) == 2) {
            return fixedWidth(t);
        }
        return -1;
    }

    /** Bytes of a fixed-width value in RowBinary, or -1 (the family's own fact). */
    static int fixedWidth(DataType t) {
        return t.rowBinaryWidth();
    }

    /** A value of {@code t} in RowBinary form ({@code ISerialization::serializeBinary}): the family's own layout. */
    static AggregateStateLayout rowBinary(String name, DataType t) {
        return t.rowBinaryLayout(name);
    }
}
