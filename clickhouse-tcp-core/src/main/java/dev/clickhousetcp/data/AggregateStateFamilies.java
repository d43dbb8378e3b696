package dev.clickhousetcp.data;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import static dev.clickhousetcp.data.AggregateStateLayout.BLOB;
import static dev.clickhousetcp.data.AggregateStateLayout.VAR_UINT;
import static dev.clickhousetcp.data.AggregateStateLayout.arrayOf;
import static dev.clickhousetcp.data.AggregateStateLayout.fixed;
import static dev.clickhousetcp.data.AggregateStateLayout.layout;
import static dev.clickhousetcp.data.AggregateStateLayout.seq;
import static dev.clickhousetcp.data.AggregateStateLayout.unsupported;

/**
 * State layouts of the uniq, quantile, topK, -Map and smaller families (see {@link AggregateStateLayout} for
 * the list and the sources). Package-private helpers of {@link AggregateStateLayout#of}.
 */
final class AggregateStateFamilies {
    private AggregateStateFamilies() {
    }

    /** Functions resolved here (canonical names, before combinators). */
    static final Set<String> FUNCTIONS = Set.of("uniq", "uniqHLL12", "uniqCombined", "uniqCombined64", "quantile",
            "quantileDeterministic", "quantileExact", "quantileExactLow", "quantileExactHigh", "quantileExactExclusive",
            "quantileExactInclusive", "quantileExactWeighted", "quantileExactWeightedInterpolated",
            "quantileInterpolatedWeighted", "quantileTDigest", "quantileTDigestWeighted", "quantileTiming",
            "quantileTimingWeighted", "quantileBFloat16", "quantileBFloat16Weighted", "anyHeavy", "sumWithOverflow",
            "sumKahan", "sumCount", "simpleLinearRegression", "groupUniqArray", "topK", "topKWeighted", "groupArrayLast",
            "groupArraySample", "groupArrayMovingSum", "groupArrayMovingAvg", "sumMap", "minMap", "maxMap",
            "sumMapWithOverflow");

    /**
     * Functions whose -Null adapter writes no flag: the state is the nested function's over the non-Nullable
     * arguments (ClickHouse creates them with the Nullable argument types and skips NULLs itself).
     */
    static final Set<String> NO_NULL_FLAG = Set.of("groupArrayLast", "groupArraySample", "groupArrayMovingSum",
            "groupArrayMovingAvg", "groupUniqArray", "topK", "topKWeighted", "sumCount");

    /** Functions that return a default for no rows, so their -Null adapter always sets the flag. */
    static final Set<String> ALWAYS_NULL_FLAG = Set.of("uniq", "uniqHLL12");

    /**
     * The canonical name of an alias: {@code quantilesX} and {@code medianX} share {@code quantileX}'s state
     * (the level parameters are not part of the state).
     */
    static String canonical(String name) {
        if (name.startsWith("quantiles")) {
            return "quantile" + name.substring("quantiles".length());
        }
        if (name.startsWith("median")) {
            return "quantile" + name.substring("median".length());
        }
        return name;
    }

    /** Largest UniquesHashSet size ({@code UNIQUES_HASH_MAX_SIZE}, {@code UniquesHashSet.h}). */
    private static final long UNIQUES_HASH_MAX_SIZE = 1 << 16;

    /**
     * uniq: UniquesHashSet: UInt8 skip degree, VarUInt size, size UInt32 hashes ({@code UniquesHashSet.h}).
     */
    static final AggregateStateLayout UNIQUES_HASH_SET = layout(in -> {
        in.u8();
        long n = in.varUInt();
        if (n < 0 || n > UNIQUES_HASH_MAX_SIZE) {
            throw new IOException("uniq hash set size " + Long.toUnsignedString(n) + " exceeds " + UNIQUES_HASH_MAX_SIZE);
        }
        in.bytes(n * 4);
    }, out -> {
        out.write(0);
        out.write(0);
    });

    /** Bytes of a HyperLogLogCounter written as its memory image ({@code HyperLogLogCounter.h}). */
    static int hyperLogLogBytes(int precision, int hashBytes) {
        int rankWidth = hashBytes == 4 ? 5 : 6;
        int rankStore = (int) (((1L << precision) * rankWidth + 7) / 8);
        int maxRank = hashBytes * 8 - precision + 1;
        int denominator = (maxRank + 1) * 4; // StableIfBig for precision >= 12: UInt32 per rank
        int zeros = precision >= 16 ? 4 : precision >= 8 ? 2 : 1;
        return rankStore + denominator + zeros;
    }

    /** SmallSet of at most {@code capacity} keys: VarUInt size + keys ({@code SmallTable.h}). */
    static AggregateStateLayout smallSet(int capacity, int keyBytes) {
        return layout(in -> {
            long n = in.varUInt();
            if (n < 0 || n > capacity) {
                throw new IOException("small set size " + Long.toUnsignedString(n) + " exceeds " + capacity);
            }
            in.bytes(n * keyBytes);
        }, out -> out.write(0));
    }

    /**
     * A state that starts with a UInt8 selecting one of {@code variants} (index = byte - {@code first}); the
     * default is the byte {@code first} and the first variant's default.
     */
    static AggregateStateLayout tagged(String what, int first, AggregateStateLayout... variants) {
        return layout(in -> {
            int tag = in.u8() - first;
            if (tag < 0 || tag >= variants.length) {
                throw new IOException("unknown " + what + " representation " + (tag + first));
            }
            variants[tag].read(in);
        }, out -> {
            out.write(first);
            variants[0].writeDefault(out);
        });
    }

    /** The default pcg32 generator of ReservoirSampler, serialized as text ("multiplier increment state"). */
    private static final byte[] DEFAULT_RNG = "6364136223846793005 0 123459".getBytes(StandardCharsets.US_ASCII);

    private static void writeUInt64(ByteArrayOutputStream out, long v) {
        for (int i = 0; i < 8; i++) {
            out.write((int) (v >>> (8 * i)));
        }
    }

    private static void writeRng(ByteArrayOutputStream out) {
        out.write(DEFAULT_RNG.length);
        out.write(DEFAULT_RNG, 0, DEFAULT_RNG.length);
    }

    /**
     * quantile (ReservoirSampler.h): UInt64 sample count, UInt64 total values, the generator as VarUInt length +
     * text, then min(sample count, total) samples of {@code width} bytes.
     */
    static AggregateStateLayout reservoir(int width) {
        return layout(in -> {
            long sampleCount = in.int64();
            long total = in.int64();
            BLOB.read(in);
            readSample(in, sampleCount, total, width);
        }, out -> {
            writeUInt64(out, 8192); // ReservoirSampler's DEFAULT_SAMPLE_COUNT
            writeUInt64(out, 0);
            writeRng(out);
        });
    }

    /**
     * quantileDeterministic (ReservoirSamplerDeterministic.h): UInt64 size, UInt64 total, then min(size, total)
     * elements (current servers write the sample's size, which never exceeds the total; servers before 2020 or
     * so wrote the sample capacity there, 8192, and min(capacity, total) elements, which the same rule reads).
     */
    static AggregateStateLayout deterministic(int elementBytes) {
        return layout(in -> {
            long size = in.int64();
            long total = in.int64();
            readSample(in, size, total, elementBytes);
        }, out -> {
            writeUInt64(out, 0);
            writeUInt64(out, 0);
        });
    }

    /** Consumes the min(size, total) (unsigned) elements of {@code width} bytes that a sampler keeps. */
    private static void readSample(AggregateStateLayout.In in, long size, long total, int width) throws IOException {
        long n = Long.compareUnsigned(size, total) < 0 ? size : total;
        checkCount(in, n);
        in.bytes(n * width);
    }

    private static void checkCount(AggregateStateLayout.In in, long n) throws IOException {
        if (n < 0 || n > in.maxCount()) {
            throw new IOException("element count " + Long.toUnsignedString(n) + " in an aggregate function state"
                    + " exceeds the limit " + in.maxCount());
        }
    }

    private static final int TIMING_TINY_MAX = 31;
    private static final int TIMING_SMALL_THRESHOLD = 1024;
    private static final int TIMING_BIG_THRESHOLD = 30000;
    private static final int TIMING_BIG_SIZE = (TIMING_BIG_THRESHOLD - TIMING_SMALL_THRESHOLD) / 16;

    /**
     * quantileTiming (QuantileTiming.h): UInt8 kind; 1 (tiny): UInt16 count (at most 31) and that many UInt16;
     * 2 (medium): UInt64 size and that many UInt16; 3 (large): UInt64 count, then either the dense histogram
     * (2835 UInt64) when count * 2 exceeds 2835, or (UInt16 index, UInt64 count) pairs ended by index 30000.
     */
    static final AggregateStateLayout TIMING = new AggregateStateLayout() {
        @Override
        void read(In in) throws IOException {
            int kind = in.u8();
            switch (kind) {
                case 1 -> {
                    int n = in.u16();
                    if (n > TIMING_TINY_MAX) {
                        throw new IOException("quantileTiming tiny count " + n + " exceeds " + TIMING_TINY_MAX);
                    }
                    in.bytes(2L * n);
                }
                case 2 -> {
                    long n = in.int64();
                    checkCount(in, n);
                    in.bytes(2 * n);
                }
                case 3 -> {
                    long count = in.int64();
                    int cells = TIMING_SMALL_THRESHOLD + TIMING_BIG_SIZE;
                    if (Long.compareUnsigned(count * 2, cells) > 0) {
                        in.bytes(8L * cells);
                    } else {
                        for (int i = 0; ; i++) {
                            int index = in.u16();
                            if (index == TIMING_BIG_THRESHOLD) {
                                break;
                            }
                            if (i >= cells || index > TIMING_BIG_THRESHOLD) {
                                throw new IOException("malformed quantileTiming histogram");
                            }
                            in.bytes(8);
                        }
                    }
                }
                default -> throw new IOException("unknown quantileTiming representation " + kind);
            }
        }

        @Override
        void writeDefault(ByteArrayOutputStream out) {
            out.write(1);
            out.write(0);
            out.write(0);
        }
    };

    /**
     * topK / topKWeighted (SpaceSaving.h): VarUInt size, per counter the key, VarUInt count and VarUInt error,
     * then VarUInt alpha map size and that many VarUInt.
     */
    static AggregateStateLayout spaceSaving(AggregateStateLayout key) {
        return seq(arrayOf(seq(key, VAR_UINT, VAR_UINT), -1), arrayOf(VAR_UINT, -1));
    }

    /**
     * The state layout of {@code name} (canonical, no combinator) over non-Nullable {@code args}, or {@code null}
     * when the function is not one of {@link #FUNCTIONS}.
     *
     * @param version the state version given in the type name, or -1
     */
    static AggregateStateLayout of(String name, List<TypeNode.Param> params, List<DataType> args, int version) {
        switch (name) {
            case "uniq" -> {
                noParams(name, params);
                atLeast(name, args, 1);
                return UNIQUES_HASH_SET;
            }
            case "uniqHLL12" -> {
                noParams(name, params);
                atLeast(name, args, 1);
                int key = args.size() == 1 ? hll12KeyBytes(args.get(0)) : 8;
                return tagged("uniqHLL12", 0, smallSet(16, key), fixed(hyperLogLogBytes(12, 4)));
            }
            case "uniqCombined", "uniqCombined64" -> {
                atLeast(name, args, 1);
                int k = 17;
                if (params.size() == 1 && params.get(0) instanceof TypeNode.NumberParam p) {
                    try {
                        k = p.intValue();
                    } catch (NumberFormatException e) {
                        k = -1;
                    }
                } else if (!params.isEmpty()) {
                    k = -1;
                }
                if (k < 12 || k > 20) {
                    throw unsupported("aggregate function '" + name + "' with parameters " + params);
                }
                // uniqCombined hashes String, FixedString and IPv6 to 64 bits, everything else to 32
                // (AggregateFunctionUniqCombined.cpp)
                int hash = name.equals("uniqCombined64") || args.size() == 1 && wideHashed(args.get(0)) ? 8 : 4;
                return tagged(name, 1, smallSet(16, hash), arrayOf(fixed(hash), hash), fixed(hyperLogLogBytes(k, hash)));
            }
            case "quantile" -> {
                arity(name, args, 1, 1);
                return reservoir(sampleWidth(name, args.get(0)));
            }
            case "quantileDeterministic" -> {
                arity(name, args, 2, 2);
                int w = sampleWidth(name, args.get(0));
                // std::pair<T, UInt32> written as memory (wide integers align to 8)
                int second = (w + 3) / 4 * 4;
                int align = Math.max(4, Math.min(w, 8));
                return deterministic((second + 4 + align - 1) / align * align);
            }
            case "quantileExact", "quantileExactLow", "quantileExactHigh", "quantileExactExclusive",
                 "quantileExactInclusive" -> {
                arity(name, args, 1, 1);
                int w = sampleWidth(name, args.get(0));
                return arrayOf(fixed(w), w);
            }
            case "quantileExactWeighted", "quantileExactWeightedInterpolated", "quantileInterpolatedWeighted" -> {
                arity(name, args, 2, 2);
                int w = sampleWidth(name, args.get(0)) + 8; // HashMap<T, UInt64> cells
                return arrayOf(fixed(w), w);
            }
            case "quantileBFloat16", "quantileBFloat16Weighted" -> {
                arity(name, args, 1, 2);
                sampleWidth(name, args.get(0));
                return arrayOf(fixed(10), 10); // HashMap<BFloat16 bits, UInt64>
            }
            case "quantileTDigest", "quantileTDigestWeighted" -> {
                arity(name, args, 1, 2);
                sampleWidth(name, args.get(0));
                return arrayOf(fixed(8), 8); // centroids: Float32 mean, Float32 count
            }
            case "quantileTiming", "quantileTimingWeighted" -> {
                arity(name, args, 1, 2);
                sampleWidth(name, args.get(0));
                return TIMING;
            }
            case "anyHeavy" -> {
                noParams(name, params);
                arity(name, args, 1, 1);
                return seq(AggregateStateLayout.single(name, args.get(0)), fixed(8));
            }
            case "sumWithOverflow" -> {
                noParams(name, params);
                arity(name, args, 1, 1);
                DataType t = args.get(0);
                if (!(t instanceof NumberType || t instanceof BigIntType || t instanceof DecimalType)) {
                    throw unsupported("aggregate function '" + name + "' over " + t.name());
                }
                return fixed(AggregateStateLayout.fixedWidth(t));
            }
            case "sumKahan" -> {
                noParams(name, params);
                arity(name, args, 1, 1);
                return fixed(16);
            }
            case "sumCount" -> {
                noParams(name, params);
                arity(name, args, 1, 1);
                return seq(fixed(AggregateStateLayout.sumWidth(name, args.get(0))), VAR_UINT);
            }
            case "simpleLinearRegression" -> {
                noParams(name, params);
                arity(name, args, 2, 2);
                return fixed(40); // UInt64 count, Float64 sums of x, y, x*x, x*y
            }
            case "groupUniqArray" -> {
                arity(name, args, 1, 1);
                return keyed(args.get(0));
            }
            case "topK" -> {
                arity(name, args, 1, 1);
                return spaceSaving(key(args.get(0)));
            }
            case "topKWeighted" -> {
                arity(name, args, 2, 2);
                return spaceSaving(key(args.get(0)));
            }
            case "groupArrayLast" -> {
                arity(name, args, 1, 1);
                return seq(keyed(args.get(0)), fixed(8));
            }
            case "groupArraySample" -> {
                arity(name, args, 1, 1);
                AggregateStateLayout values = keyed(args.get(0));
                return layout(in -> {
                    values.read(in);
                    in.bytes(8);
                    BLOB.read(in);
                }, out -> {
                    values.writeDefault(out);
                    writeUInt64(out, 0);
                    writeRng(out);
                });
            }
            case "groupArrayMovingSum", "groupArrayMovingAvg" -> {
                arity(name, args, 1, 1);
                DataType t = args.get(0);
                int w;
                if (t instanceof DecimalType d) {
                    w = d.width() == 32 ? 32 : 16;
                } else if (t instanceof BigIntType b) {
                    w = name.endsWith("Avg") ? 8 : b.width();
                } else if (t instanceof NumberType || t instanceof BFloat16Type || t instanceof EnumType) {
                    w = 8;
                } else {
                    throw unsupported("aggregate function '" + name + "' over " + t.name());
                }
                return arrayOf(fixed(w), w);
            }
            case "sumMap", "minMap", "maxMap", "sumMapWithOverflow" -> {
                noParams(name, params);
                return map(name, args, version);
            }
            default -> {
                return null;
            }
        }
    }

    /** A -Map state: VarUInt entries, each the key then every value in RowBinary form. */
    private static AggregateStateLayout map(String name, List<DataType> args, int version) {
        DataType keyType;
        List<DataType> values = new java.util.ArrayList<>();
        boolean promote;
        if (args.size() == 1 && args.get(0) instanceof MapType m) {
            keyType = m.keyType();
            values.add(m.valueType());
            promote = true; // written with the default state version, 1
        } else {
            List<DataType> arrays = args.size() == 1 && args.get(0) instanceof TupleType t ? t.elements() : args;
            if (arrays.size() < 2) {
                throw unsupported("aggregate function '" + name + "' with " + args.size() + " arguments");
            }
            List<DataType> elements = new java.util.ArrayList<>();
            for (DataType a : arrays) {
                if (!(a instanceof ArrayType at)) {
                    throw unsupported("aggregate function '" + name + "' takes Array arguments, got " + a.name());
                }
                elements.add(at.element());
            }
            keyType = elements.get(0);
            values.addAll(elements.subList(1, elements.size()));
            if (version < 0) {
                // the server names the version: AggregateFunction(1, sumMap, ...); servers before it wrote version 0
                throw unsupported("aggregate function '" + name + "' without a state version");
            }
            if (version > 1) {
                throw unsupported("aggregate function '" + name + "' with state version " + version);
            }
            promote = version == 1;
        }
        AggregateStateLayout[] parts = new AggregateStateLayout[values.size() + 1];
        parts[0] = AggregateStateLayout.rowBinary(name, keyType);
        for (int i = 0; i < values.size(); i++) {
            parts[i + 1] = promote ? promoted(name, values.get(i)) : AggregateStateLayout.rowBinary(name, values.get(i));
        }
        return arrayOf(seq(parts), -1);
    }

    /** A -Map value as state version 1 writes it: numbers widened to 64 bits, Decimal32/64 to Decimal128. */
    private static AggregateStateLayout promoted(String name, DataType t) {
        if (t instanceof NullableType n) {
            return AggregateStateLayout.nullableValue(promoted(name, n.nested()));
        }
        if (t instanceof NumberType nt) {
            if (nt.kind() == NumberType.Kind.BOOL) {
                throw unsupported("aggregate function '" + name + "' over values of type " + t.name());
            }
            return fixed(8);
        }
        if (t instanceof DecimalType d) {
            return fixed(d.width() == 32 ? 32 : 16);
        }
        if (t instanceof BFloat16Type) {
            throw unsupported("aggregate function '" + name + "' over values of type " + t.name());
        }
        return AggregateStateLayout.rowBinary(name, t);
    }

    /** groupUniqArray / groupArrayLast values: raw fixed-width keys or VarUInt length + bytes. */
    private static AggregateStateLayout keyed(DataType t) {
        int w = AggregateStateLayout.groupArrayWidth(t);
        return arrayOf(w >= 0 ? fixed(w) : BLOB, w);
    }

    /** A topK key: raw for the numeric types, otherwise VarUInt length + bytes ({@code SpaceSaving.h}). */
    private static AggregateStateLayout key(DataType t) {
        int w = AggregateStateLayout.groupArrayWidth(t);
        return w >= 0 ? fixed(w) : BLOB;
    }

    private static boolean wideHashed(DataType t) {
        DataType u = t instanceof LowCardinalityType l ? l.inner() : t;
        return u instanceof StringType || u instanceof FixedStringType || u instanceof IPv6Type;
    }

    /** uniqHLL12's small-set key: the value for narrow numbers, otherwise a UInt64 hash. */
    private static int hll12KeyBytes(DataType t) {
        if (t instanceof NumberType || t instanceof BigIntType || t instanceof BFloat16Type || t instanceof EnumType
                || t instanceof DateType || t instanceof DateTimeType || t instanceof IPv4Type) {
            return AggregateStateLayout.fixedWidth(t);
        }
        return 8;
    }

    /** Width of a quantile sample: the numeric value (numbers, Decimal, Date, DateTime, DateTime64). */
    private static int sampleWidth(String name, DataType t) {
        if (t instanceof NumberType || t instanceof BigIntType || t instanceof DecimalType
                || t instanceof DateType && !t.name().equals("Date32") || t instanceof DateTimeType
                || t instanceof DateTime64Type) {
            return AggregateStateLayout.fixedWidth(t);
        }
        throw unsupported("aggregate function '" + name + "' over " + t.name());
    }

    private static void noParams(String name, List<TypeNode.Param> params) {
        if (!params.isEmpty()) {
            throw unsupported("aggregate function '" + name + "' with parameters " + params);
        }
    }

    private static void atLeast(String name, List<DataType> args, int min) {
        if (args.size() < min) {
            throw unsupported("aggregate function '" + name + "' with " + args.size() + " arguments");
        }
    }

    private static void arity(String name, List<DataType> args, int min, int max) {
        if (args.size() < min || args.size() > max) {
            throw unsupported("aggregate function '" + name + "' with " + args.size() + " arguments");
        }
    }
}
