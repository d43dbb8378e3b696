package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.ArrayType;
import dev.clickhousetcp.data.BFloat16Type;
import dev.clickhousetcp.data.BigIntType;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.DataType;
import dev.clickhousetcp.data.DateColumn;
import dev.clickhousetcp.data.DateTime64Column;
import dev.clickhousetcp.data.DateTime64Type;
import dev.clickhousetcp.data.DateTimeColumn;
import dev.clickhousetcp.data.DateTimeType;
import dev.clickhousetcp.data.DateType;
import dev.clickhousetcp.data.DecimalType;
import dev.clickhousetcp.data.EnumType;
import dev.clickhousetcp.data.FixedStringColumn;
import dev.clickhousetcp.data.FixedStringType;
import dev.clickhousetcp.data.IPv4Type;
import dev.clickhousetcp.data.IPv6Type;
import dev.clickhousetcp.data.Int64Column;
import dev.clickhousetcp.data.LowCardinalityType;
import dev.clickhousetcp.data.MapType;
import dev.clickhousetcp.data.NothingType;
import dev.clickhousetcp.data.NullableType;
import dev.clickhousetcp.data.NumberType;
import dev.clickhousetcp.data.StringColumn;
import dev.clickhousetcp.data.StringType;
import dev.clickhousetcp.data.TimeType;
import dev.clickhousetcp.data.TupleType;
import dev.clickhousetcp.data.UuidColumn;
import dev.clickhousetcp.data.UuidType;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Chooses the per-column loop ({@link Extractor}) for a (ClickHouse type, Java target type) pair,
 * failing with a {@link MappingException} when no conversion exists. The conversion table is in
 * {@code docs/mapping.md}. The loops live one target family per file: numbers into primitive lanes
 * ({@link IntegerExtractor}, {@link FloatExtractor}, {@link BigIntegerToIntegerExtractor},
 * {@link DoubleFunctionExtractor}), boxing ({@link BoxingExtractor}), any per-row conversion
 * ({@link ObjectExtractor}), the wrappers ({@link NullableExtractor}, {@link LowCardinalityExtractor},
 * {@link OptionalExtractor}), collections ({@link ArrayExtractor}, {@link MapExtractor}) and records
 * ({@link TupleRecordExtractor}); this class holds the planning and the helpers they share.
 */
final class Extractors {

    private Extractors() {
    }

    /** Where a plan-time error happened and how nested records are constructed. */
    record Ctx(AccessMode mode, String where) {
        MappingException fail(DataType t, java.lang.reflect.Type target, String why) {
            return new MappingException(where + ": cannot convert ClickHouse " + t.name() + " to "
                    + target.getTypeName().replace("java.lang.", "") + (why.isEmpty() ? "" : " (" + why + ")"));
        }
    }

    /** Reads one value of a column. */
    @FunctionalInterface
    interface RowFn {
        Object apply(Column c, int row);
    }

    // ------------------------------------------------------------------ type helpers

    /** Integer layout of a fixed-width integer-like type: {width, unsigned ? 1 : 0}, or {@code null}. */
    static int[] intLayout(DataType t) {
        if (t instanceof NumberType nt) {
            return switch (nt.kind()) {
                case INT8 -> new int[] {1, 0};
                case UINT8, BOOL -> new int[] {1, 1};
                case INT16 -> new int[] {2, 0};
                case UINT16 -> new int[] {2, 1};
                case INT32 -> new int[] {4, 0};
                case UINT32 -> new int[] {4, 1};
                case INT64 -> new int[] {8, 0};
                case UINT64 -> new int[] {8, 1};
                default -> null;
            };
        }
        if (t instanceof EnumType et) {
            return new int[] {et.width(), 0};
        }
        return null;
    }

    static boolean isFloat(DataType t) {
        return t instanceof NumberType nt && (nt.kind() == NumberType.Kind.FLOAT32 || nt.kind() == NumberType.Kind.FLOAT64)
                || t instanceof BFloat16Type;
    }

    static boolean isFloat64(DataType t) {
        return t instanceof NumberType nt && nt.kind() == NumberType.Kind.FLOAT64;
    }

    static boolean isBigInt(DataType t) {
        return t instanceof BigIntType;
    }

    static boolean isDecimal(DataType t) {
        return t instanceof DecimalType;
    }

    static boolean isTemporal(DataType t) {
        return t instanceof DateTimeType || t instanceof DateTime64Type;
    }

    static boolean isText(DataType t) {
        return t instanceof StringType || t instanceof FixedStringType;
    }

    static Class<?> raw(java.lang.reflect.Type t) {
        if (t instanceof Class<?> c) {
            return c;
        }
        if (t instanceof java.lang.reflect.ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        if (t instanceof java.lang.reflect.GenericArrayType g) {
            return Array.newInstance(raw(g.getGenericComponentType()), 0).getClass();
        }
        if (t instanceof java.lang.reflect.WildcardType w) {
            return raw(w.getUpperBounds()[0]);
        }
        if (t instanceof java.lang.reflect.TypeVariable<?> v) {
            return raw(v.getBounds()[0]);
        }
        return Object.class;
    }

    static java.lang.reflect.Type typeArg(java.lang.reflect.Type t, int i) {
        if (t instanceof java.lang.reflect.ParameterizedType p && p.getActualTypeArguments().length > i) {
            java.lang.reflect.Type a = p.getActualTypeArguments()[i];
            if (a instanceof java.lang.reflect.WildcardType w) {
                return w.getUpperBounds()[0];
            }
            return a instanceof java.lang.reflect.TypeVariable<?> ? Object.class : a;
        }
        return Object.class;
    }

    static java.lang.reflect.Type componentType(java.lang.reflect.Type t) {
        if (t instanceof java.lang.reflect.GenericArrayType g) {
            return g.getGenericComponentType();
        }
        return raw(t).getComponentType();
    }

    static Class<?> unbox(Class<?> c) {
        if (c == Long.class) {
            return long.class;
        }
        if (c == Integer.class) {
            return int.class;
        }
        if (c == Short.class) {
            return short.class;
        }
        if (c == Byte.class) {
            return byte.class;
        }
        if (c == Double.class) {
            return double.class;
        }
        if (c == Float.class) {
            return float.class;
        }
        if (c == Boolean.class) {
            return boolean.class;
        }
        return null;
    }

    // ------------------------------------------------------------------ factory

    /** The loop converting a column of {@code t} to {@code target}; throws at plan time when impossible. */
    static Extractor of(DataType t, java.lang.reflect.Type target, Ctx ctx) {
        Class<?> raw = raw(target);
        if (raw == Optional.class) {
            java.lang.reflect.Type inner = typeArg(target, 0);
            return new OptionalExtractor(of(t, inner, ctx));
        }
        if (t instanceof NullableType nt) {
            return new NullableExtractor(of(nt.nested(), target, ctx), raw.isPrimitive(), t.name());
        }
        if (t instanceof LowCardinalityType lt) {
            DataType inner = lt.inner();
            boolean nullable = inner instanceof NullableType;
            DataType dict = inner instanceof NullableType n ? n.nested() : inner;
            return new LowCardinalityExtractor(of(dict, target, ctx), nullable, raw.isPrimitive(), t.name());
        }
        if (t instanceof NothingType) {
            if (raw.isPrimitive()) {
                throw ctx.fail(t, target, "every value is NULL");
            }
            return new ObjectExtractor((c, i) -> null);
        }
        if (raw.isPrimitive()) {
            return primitive(t, raw, target, ctx);
        }
        if (raw == Object.class) {
            return new ObjectExtractor(Column::getObject);
        }
        if (raw == String.class || raw == CharSequence.class) {
            if (t instanceof StringType) {
                return new ObjectExtractor((c, i) -> ((StringColumn) c).getString(i));
            }
            return new ObjectExtractor(Column::getString);
        }
        Class<?> prim = unbox(raw);
        if (prim != null) {
            return new BoxingExtractor(primitive(t, prim, target, ctx));
        }
        if (raw == BigInteger.class) {
            int[] l = intLayout(t);
            if (l != null && !(t instanceof EnumType)) {
                boolean u64 = l[0] == 8 && l[1] == 1;
                return new ObjectExtractor(u64 ? (c, i) -> Int64Column.unsignedValue(c.getLong(i)) : (c, i) -> BigInteger.valueOf(c.getLong(i)));
            }
            if (isBigInt(t)) {
                return new ObjectExtractor(cast(BigInteger.class));
            }
            throw ctx.fail(t, target, "");
        }
        if (raw == BigDecimal.class) {
            int[] l = intLayout(t);
            if (l != null && !(t instanceof EnumType) && !(t instanceof NumberType nt && nt.kind() == NumberType.Kind.BOOL)) {
                boolean u64 = l[0] == 8 && l[1] == 1;
                return new ObjectExtractor(u64 ? (c, i) -> new BigDecimal(Int64Column.unsignedValue(c.getLong(i)))
                        : (c, i) -> BigDecimal.valueOf(c.getLong(i)));
            }
            if (isDecimal(t)) {
                return new ObjectExtractor(cast(BigDecimal.class));
            }
            if (isBigInt(t)) {
                return new ObjectExtractor((c, i) -> new BigDecimal((BigInteger) c.getObject(i)));
            }
            throw ctx.fail(t, target, "");
        }
        if (raw == Number.class) {
            if (t instanceof NumberType nt && nt.kind() != NumberType.Kind.BOOL || isDecimal(t) || isBigInt(t)
                    || t instanceof BFloat16Type) {
                return new ObjectExtractor(Column::getObject);
            }
            throw ctx.fail(t, target, "");
        }
        if (raw == byte[].class && isText(t)) {
            return new ObjectExtractor(t instanceof StringType ? (c, i) -> ((StringColumn) c).getBytes(i)
                    : (c, i) -> ((FixedStringColumn) c).getBytes(i));
        }
        if (raw == LocalDate.class) {
            if (t instanceof DateType) {
                return new ObjectExtractor((c, i) -> ((DateColumn) c).getLocalDate(i));
            }
            if (t instanceof DateTimeType) {
                return new ObjectExtractor((c, i) -> ((DateTimeColumn) c).getLocalDate(i)); // the server's toDate
            }
            if (t instanceof DateTime64Type) {
                return new ObjectExtractor((c, i) -> ((DateTime64Column) c).getLocalDate(i));
            }
            throw ctx.fail(t, target, "");
        }
        if (raw == Instant.class || raw == LocalDateTime.class || raw == ZonedDateTime.class
                || raw == OffsetDateTime.class) {
            if (!isTemporal(t)) {
                throw ctx.fail(t, target, t instanceof DateType ? "a Date has no time of day; use LocalDate" : "");
            }
            boolean dt = t instanceof DateTimeType;
            if (raw == Instant.class) {
                return new ObjectExtractor(dt ? (c, i) -> ((DateTimeColumn) c).getInstant(i)
                        : (c, i) -> ((DateTime64Column) c).getInstant(i));
            }
            if (raw == LocalDateTime.class) {
                return new ObjectExtractor(dt ? (c, i) -> ((DateTimeColumn) c).getLocalDateTime(i)
                        : (c, i) -> ((DateTime64Column) c).getLocalDateTime(i));
            }
            if (raw == ZonedDateTime.class) {
                return new ObjectExtractor(dt ? (c, i) -> ((DateTimeColumn) c).getZonedDateTime(i)
                        : (c, i) -> ((DateTime64Column) c).getZonedDateTime(i));
            }
            return new ObjectExtractor(dt ? (c, i) -> ((DateTimeColumn) c).getZonedDateTime(i).toOffsetDateTime()
                    : (c, i) -> ((DateTime64Column) c).getZonedDateTime(i).toOffsetDateTime());
        }
        if (raw == UUID.class) {
            if (t instanceof UuidType) {
                return new ObjectExtractor((c, i) -> ((UuidColumn) c).getUuid(i));
            }
            throw ctx.fail(t, target, "");
        }
        if (raw == InetAddress.class || raw == Inet4Address.class || raw == Inet6Address.class) {
            if (t instanceof IPv4Type && raw != Inet6Address.class || t instanceof IPv6Type && raw != Inet4Address.class) {
                return new ObjectExtractor(cast(raw));
            }
            throw ctx.fail(t, target, "");
        }
        if (raw == Duration.class) {
            if (t instanceof TimeType) {
                return new ObjectExtractor(cast(Duration.class));
            }
            throw ctx.fail(t, target, "");
        }
        if (raw.isEnum()) {
            return enumEx(t, raw, target, ctx);
        }
        if (t instanceof ArrayType at) {
            if (raw.isArray()) {
                java.lang.reflect.Type comp = componentType(target);
                Extractor el = of(at.element(), comp, ctx);
                Class<?> rc = raw.getComponentType();
                return new ArrayExtractor(el, rc.isPrimitive() ? ArrayExtractor.PRIMITIVE_ARRAY : ArrayExtractor.OBJECT_ARRAY, rc);
            }
            if (raw.isAssignableFrom(ArrayList.class) || raw.isAssignableFrom(LinkedHashSet.class)) {
                java.lang.reflect.Type el = typeArg(target, 0);
                Class<?> elRaw = raw(el);
                Extractor ex = of(at.element(), elRaw.isPrimitive() ? Object.class : el, ctx);
                return new ArrayExtractor(ex, raw.isAssignableFrom(ArrayList.class) ? ArrayExtractor.LIST : ArrayExtractor.SET, Object.class);
            }
            throw ctx.fail(t, target, "an Array maps to a List, Set or Java array");
        }
        if (t instanceof MapType mt) {
            if (raw.isAssignableFrom(LinkedHashMap.class)) {
                return new MapExtractor(of(mt.keyType(), typeArg(target, 0), ctx), of(mt.valueType(), typeArg(target, 1), ctx));
            }
            throw ctx.fail(t, target, "a Map maps to java.util.Map");
        }
        if (t instanceof TupleType tt) {
            if (raw.isRecord()) {
                return tupleRecord(tt, raw, ctx);
            }
            if (raw.isAssignableFrom(List.class)) {
                return new ObjectExtractor(Column::getObject);
            }
            throw ctx.fail(t, target, "a Tuple maps to a record or a List");
        }
        throw ctx.fail(t, target, "");
    }

    private static RowFn cast(Class<?> type) {
        return (c, i) -> type.cast(c.getObject(i));
    }

    private static Extractor primitive(DataType t, Class<?> cls, java.lang.reflect.Type target, Ctx ctx) {
        if (cls == char.class || cls == void.class) {
            throw ctx.fail(t, target, "char is not supported; use String");
        }
        Lane lane = Lane.of(cls);
        int[] l = intLayout(t);
        if (l != null) {
            return new IntegerExtractor(lane, l[0], l[1] == 1, t.name());
        }
        if (isFloat(t)) {
            if (lane == Lane.DOUBLE || lane == Lane.FLOAT && !isFloat64(t)) {
                return new FloatExtractor(lane);
            }
            throw ctx.fail(t, target, lane == Lane.FLOAT ? "Float64 does not fit float; use double" : "");
        }
        if (isBigInt(t)) {
            if (lane == Lane.DOUBLE) {
                return new DoubleFunctionExtractor();
            }
            if (lane == Lane.LONG || lane == Lane.INT || lane == Lane.SHORT || lane == Lane.BYTE) {
                return new BigIntegerToIntegerExtractor(lane, t.name());
            }
        }
        if (isDecimal(t) && lane == Lane.DOUBLE) {
            return new DoubleFunctionExtractor();
        }
        throw ctx.fail(t, target, "");
    }

    private static Extractor enumEx(DataType t, Class<?> raw, java.lang.reflect.Type target, Ctx ctx) {
        Object[] constants = raw.getEnumConstants();
        Map<String, Object> byName = new HashMap<>();
        Map<String, Object> byLower = new HashMap<>();
        for (Object o : constants) {
            String n = ((Enum<?>) o).name();
            byName.put(n, o);
            byLower.put(n.toLowerCase(Locale.ROOT), o);
        }
        if (t instanceof EnumType et) {
            Map<Integer, Object> byValue = new HashMap<>();
            List<String> missing = new ArrayList<>();
            for (Map.Entry<String, Integer> e : et.elements().entrySet()) {
                Object c = byName.getOrDefault(e.getKey(), byLower.get(e.getKey().toLowerCase(Locale.ROOT)));
                if (c == null) {
                    missing.add(e.getKey());
                } else {
                    byValue.put(e.getValue(), c);
                }
            }
            if (!missing.isEmpty()) {
                java.util.Collections.sort(missing);
                throw ctx.fail(t, target, raw.getSimpleName() + " has no constant for " + missing);
            }
            if (et.width() == 1) {
                Object[] table = new Object[256];
                byValue.forEach((k, v) -> table[k + 128] = v);
                return new ObjectExtractor((c, i) -> table[(int) c.getLong(i) + 128]);
            }
            return new ObjectExtractor((c, i) -> byValue.get((int) c.getLong(i)));
        }
        if (isText(t)) {
            String enumName = raw.getSimpleName();
            return new ObjectExtractor((c, i) -> {
                String s = c.getString(i);
                Object v = byName.get(s);
                if (v == null) {
                    v = byLower.get(s.toLowerCase(Locale.ROOT));
                }
                if (v == null) {
                    throw new MappingException("row " + i + ": '" + s + "' is not a constant of enum " + enumName);
                }
                return v;
            });
        }
        throw ctx.fail(t, target, "a Java enum maps from Enum8/Enum16 or a string");
    }

    private static Extractor tupleRecord(TupleType tt, Class<?> rec, Ctx ctx) {
        TypeModel m = TypeModel.of(rec);
        List<DataType> els = tt.elements();
        String[] names = tt.names();
        List<Prop> params = m.params;
        int[] index = new int[params.size()];
        boolean named = tt.isNamed();
        if (named) {
            Arrays.fill(index, -1);
            for (int e = 0; e < names.length; e++) {
                Prop p = Names.match(names[e], params, "components of " + rec.getSimpleName());
                if (p != null) {
                    index[p.index] = e;
                }
            }
            List<String> unmatched = new ArrayList<>();
            for (int k = 0; k < index.length; k++) {
                if (index[k] < 0) {
                    unmatched.add(params.get(k).name);
                }
            }
            if (unmatched.size() == index.length) {
                named = false; // no name in common: by position, as for an unnamed tuple
            } else if (!unmatched.isEmpty()) {
                throw ctx.fail(tt, rec, "component" + (unmatched.size() > 1 ? "s " : " ") + unmatched
                        + " match" + (unmatched.size() > 1 ? "" : "es") + " no element name of the tuple");
            }
        }
        if (!named) {
            if (params.size() != els.size()) {
                throw ctx.fail(tt, rec, "the tuple has " + els.size() + " elements, the record " + params.size()
                        + " components");
            }
            for (int k = 0; k < index.length; k++) {
                index[k] = k;
            }
        }
        Extractor[] ex = new Extractor[params.size()];
        for (int k = 0; k < ex.length; k++) {
            ex[k] = of(els.get(index[k]), params.get(k).type, ctx);
        }
        Constructor<?> c = m.constructor;
        return new TupleRecordExtractor(ex, index, Accessors.rowConstructor(ctx.mode(), c));
    }

    // ------------------------------------------------------------------ errors

    static MappingException outOfRange(int row, long v, boolean u64, String type, String java) {
        return new MappingException("row " + row + ": value " + (u64 ? Long.toUnsignedString(v) : Long.toString(v))
                + " of " + type + " does not fit " + java);
    }








    static MappingException nullIntoPrimitive(int row, String typeName, Lane lane) {
        return new MappingException("row " + row + ": NULL of " + typeName + " cannot be stored in primitive "
                + lane.javaType + "; use " + (lane == Lane.INT ? "Integer" : lane == Lane.BOOLEAN ? "Boolean"
                : Character.toUpperCase(lane.javaType.getName().charAt(0)) + lane.javaType.getName().substring(1))
                + " or Optional");
    }





}
