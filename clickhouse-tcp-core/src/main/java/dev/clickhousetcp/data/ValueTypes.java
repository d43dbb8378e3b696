package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Which ClickHouse type a Java value naturally has, and which ClickHouse types accept it: the rules the
 * Dynamic writer uses to pick a type per value and the Variant writer uses to pick a variant (both
 * documented in {@code docs/types.md}). Stateless and thread-safe.
 */
final class ValueTypes {
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
    private static final BigInteger TWO_128 = BigInteger.ONE.shiftLeft(128);
    private static final BigInteger TWO_256 = BigInteger.ONE.shiftLeft(256);
    private static final LocalDate DATE_MAX = LocalDate.of(2149, 6, 6);
    private static final long DATETIME_MAX = 4294967295L;
    private static final int MAX_DEPTH = 64;
    /** The natural type of a value of each final class that has one, whatever the value (see {@link #naturalType}). */
    private static final Map<Class<?>, String> NATURAL_BY_CLASS = Map.ofEntries(
            Map.entry(Long.class, "Int64"), Map.entry(Integer.class, "Int32"), Map.entry(Short.class, "Int16"),
            Map.entry(Byte.class, "Int8"), Map.entry(Double.class, "Float64"), Map.entry(Float.class, "Float32"),
            Map.entry(Boolean.class, "Bool"), Map.entry(LocalTime.class, "Time"), Map.entry(UUID.class, "UUID"),
            Map.entry(Inet4Address.class, "IPv4"), Map.entry(Inet6Address.class, "IPv6"));

    private ValueTypes() {
    }

    /**
     * The type a value is written as into a Dynamic column:
     * String/CharSequence/byte[] → String; Byte/Short/Integer/Long → Int8/16/32/64; BigInteger → the
     * smallest of Int64, UInt64, Int128, UInt128, Int256, UInt256 holding it; Float/Double →
     * Float32/Float64; BigDecimal → Decimal(P, S) of its precision and scale; Boolean → Bool;
     * LocalDate → Date (Date32 outside 1970-01-01..2149-06-06); LocalDateTime → DateTime, or
     * DateTime64(3|6|9) when it has a fraction of a second or lies outside DateTime's range (in
     * {@code zone}, the zone the server reads a DateTime without an explicit zone in);
     * ZonedDateTime → the same with its region zone, e.g. DateTime('Europe/Berlin'); Instant,
     * OffsetDateTime, java.util.Date → the same in UTC; LocalTime → Time; UUID → UUID;
     * Inet4Address/Inet6Address → IPv4/IPv6; arrays and Iterables →
     * Array(T) of the elements' common type (Nullable(T) when some are null, Dynamic when they differ,
     * Nothing when empty); Map → Map(K, V) likewise; records → named Tuple; {@link TypedValue} → its
     * own type.
     *
     * @throws ClickHouseTypeException for other classes
     */
    static String naturalType(Object v, ZoneId zone) {
        return naturalType(v, zone, 0);
    }

    private static String naturalType(Object v, ZoneId zone, int depth) {
        if (depth > MAX_DEPTH) {
            throw new ClickHouseTypeException("value nested deeper than " + MAX_DEPTH);
        }
        if (v instanceof TypedValue tv) {
            return tv.type();
        }
        if (v instanceof CharSequence || v instanceof byte[]) {
            return "String";
        }
        String byClass = v == null ? null : NATURAL_BY_CLASS.get(v.getClass());
        if (byClass != null) {
            return byClass;
        }
        if (v instanceof BigInteger b) {
            if (b.bitLength() <= 63) {
                return "Int64";
            }
            if (b.signum() > 0 && b.compareTo(TWO_64) < 0) {
                return "UInt64";
            }
            if (b.bitLength() <= 127) {
                return "Int128";
            }
            if (b.signum() > 0 && b.compareTo(TWO_128) < 0) {
                return "UInt128";
            }
            if (b.bitLength() <= 255) {
                return "Int256";
            }
            if (b.signum() > 0 && b.compareTo(TWO_256) < 0) {
                return "UInt256";
            }
            throw new ClickHouseTypeException("integer " + b + " does not fit any ClickHouse integer type");
        }
        if (v instanceof BigDecimal d) {
            int scale = Math.max(d.scale(), 0);
            int precision = Math.max(d.setScale(scale).precision(), scale);
            if (precision > 76) {
                throw new ClickHouseTypeException("decimal " + d + " needs precision " + precision
                        + " (ClickHouse allows 76)");
            }
            return "Decimal(" + Math.max(precision, 1) + ", " + scale + ")";
        }
        if (v instanceof java.sql.Date d) {
            return dateType(d.toLocalDate());
        }
        if (v instanceof LocalDate d) {
            return dateType(d);
        }
        if (v instanceof LocalDateTime t) {
            return dateTimeType(dev.clickhousetcp.data.ClickHouseZoneRules.of(zone).toEpochSecond(t), t.getNano(), null);
        }
        if (v instanceof ZonedDateTime z) {
            ZoneId own = z.getZone() instanceof ZoneOffset ? ZoneOffset.UTC : z.getZone();
            return dateTimeType(z.toEpochSecond(), z.getNano(), own.getId().equals("Z") ? "UTC" : own.getId());
        }
        if (v instanceof OffsetDateTime o) {
            return dateTimeType(o.toEpochSecond(), o.getNano(), "UTC");
        }
        if (v instanceof Instant i) {
            return dateTimeType(i.getEpochSecond(), i.getNano(), "UTC");
        }
        if (v instanceof java.util.Date d) {
            Instant i = d.toInstant();
            return dateTimeType(i.getEpochSecond(), i.getNano(), "UTC");
        }
        if (v instanceof Map<?, ?> m) {
            List<Object> keys = new ArrayList<>(m.keySet());
            List<Object> values = new ArrayList<>(m.values());
            if (keys.contains(null)) {
                throw new ClickHouseTypeException("Map keys cannot be NULL");
            }
            return "Map(" + commonType(keys, zone, depth) + ", " + commonType(values, zone, depth) + ")";
        }
        if (v instanceof Record r) {
            var comps = r.getClass().getRecordComponents();
            StringBuilder sb = new StringBuilder("Tuple(");
            for (int i = 0; i < comps.length; i++) {
                Object x;
                try {
                    x = component(r, comps[i]);
                } catch (ReflectiveOperationException e) {
                    throw new ClickHouseTypeException("cannot read record " + r.getClass().getName(), e);
                }
                if (x == null) {
                    throw new ClickHouseTypeException("cannot infer the ClickHouse type of null record component "
                            + comps[i].getName() + "; use TypedValue");
                }
                sb.append(i == 0 ? "" : ", ").append(TypeNames.backQuoteIfNeeded(TupleValues.elementName(comps[i]))).append(' ')
                        .append(naturalType(x, zone, depth + 1));
            }
            return sb.append(')').toString();
        }
        if (v instanceof Iterable<?> || v != null && v.getClass().isArray()) {
            return "Array(" + commonType(elements(v), zone, depth) + ")";
        }
        throw new ClickHouseTypeException("cannot infer a ClickHouse type for a "
                + (v == null ? "null" : v.getClass().getName()) + " value; wrap it in TypedValue");
    }

    private static String dateType(LocalDate d) {
        return d.isBefore(LocalDate.EPOCH) || d.isAfter(DATE_MAX) ? "Date32" : "Date";
    }

    private static String dateTimeType(long epochSecond, int nanos, String zone) {
        String z = zone == null ? "" : TypeNames.quote(zone);
        if (nanos == 0 && epochSecond >= 0 && epochSecond <= DATETIME_MAX) {
            return zone == null ? "DateTime" : "DateTime(" + z + ")";
        }
        int scale = nanos == 0 ? 0 : nanos % 1_000_000 == 0 ? 3 : nanos % 1_000 == 0 ? 6 : 9;
        return "DateTime64(" + scale + (zone == null ? "" : ", " + z) + ")";
    }

    /** The elements' common type: Nullable(T) when some are null, Dynamic when they differ, Nothing when none. */
    private static String commonType(List<Object> values, ZoneId zone, int depth) {
        Set<String> types = new LinkedHashSet<>();
        boolean nulls = false;
        for (Object o : values) {
            if (o == null) {
                nulls = true;
            } else {
                types.add(naturalType(o, zone, depth + 1));
            }
        }
        if (types.isEmpty()) {
            return nulls ? "Nullable(Nothing)" : "Nothing";
        }
        if (types.size() > 1) {
            return "Dynamic";
        }
        String t = types.iterator().next();
        if (nulls) {
            String f = TypeNames.family(t);
            if (f.equals("Array") || f.equals("Map") || f.equals("Tuple") || f.equals("Dynamic") || f.equals("Variant")
                    || f.equals("JSON") || f.equals("LowCardinality") || f.equals("Nullable")) {
                return "Dynamic";
            }
            return "Nullable(" + t + ")";
        }
        return t;
    }

    static List<Object> elements(Object v) {
        List<Object> out = new ArrayList<>();
        if (v instanceof Iterable<?> it) {
            for (Object o : it) {
                out.add(o);
            }
        } else {
            int n = Array.getLength(v);
            for (int i = 0; i < n; i++) {
                out.add(Array.get(v, i));
            }
        }
        return out;
    }

    // ---- acceptance, for picking a Variant's variant ----

    /**
     * Whether a value of this Java class and shape is a value of type {@code t}. Strict: numbers only
     * into their own kind (integers into integer types within range, floating point into Float*,
     * BigDecimal into Decimal), strings only into String/FixedString/Enum, temporal values into the
     * matching date/time family, collections into Array/Tuple/Map when every element is accepted.
     * Relaxed ({@code strict == false}) additionally lets any number into Float/Decimal types and a
     * JSON text into JSON. Each family answers for itself ({@link DataType#acceptsNull},
     * {@link DataType#acceptsValue}, {@link DataType#acceptsTyped}); this bounds the nesting depth.
     */
    static boolean accepts(DataType t, Object v, boolean strict) {
        return accepts(t, v, strict, 0);
    }

    /** {@link #accepts(DataType, Object, boolean)} for a value nested {@code depth} levels deep. */
    static boolean accepts(DataType t, Object v, boolean strict, int depth) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        if (v == null) {
            return t.acceptsNull();
        }
        if (v instanceof TypedValue tv) {
            return t.acceptsTyped(tv, depth);
        }
        return t.acceptsValue(v, strict, depth);
    }

    /**
     * Whether type {@code t} takes a {@link TypedValue} at nesting depth {@code depth}: see
     * {@link DataType#acceptsTyped}.
     */
    static boolean acceptsTyped(DataType t, TypedValue tv, int depth) {
        return depth <= MAX_DEPTH && t.acceptsTyped(tv, depth);
    }

    /** Whether {@code tv} names type {@code t} (spacing ignored); {@code false} when its name does not parse. */
    static boolean namesType(TypedValue tv, DataType t) {
        try {
            return TypeNode.parse(tv.type()).toString().equals(TypeNode.parse(t.name()).toString());
        } catch (ClickHouseTypeException e) {
            return false;
        }
    }

    /** Every value accepted by {@code t}, one level deeper. */
    static boolean all(List<Object> values, DataType t, boolean strict, int depth) {
        for (Object o : values) {
            if (!accepts(t, o, strict, depth + 1)) {
                return false;
            }
        }
        return true;
    }

    /** An integral value ({@code Byte} to {@code Long}, {@code BigInteger}) of at most {@code bits} bits. */
    static boolean integerIn(Object v, int bits, boolean unsigned) {
        if (!isIntegral(v)) {
            return false;
        }
        BigInteger b = toBig(v);
        return unsigned ? b.signum() >= 0 && b.bitLength() <= bits : b.bitLength() <= bits - 1;
    }

    /** A floating-point value, or (relaxed) any number. */
    static boolean isFloating(Object v, boolean strict) {
        return v instanceof Double || v instanceof Float || !strict && v instanceof Number;
    }

    /** A value of the DateTime/DateTime64 families. */
    static boolean isDateTime(Object v) {
        return v instanceof LocalDateTime || v instanceof Instant || v instanceof ZonedDateTime
                || v instanceof OffsetDateTime || v instanceof java.util.Date && !(v instanceof java.sql.Date);
    }

    static boolean isCollection(Object v) {
        return v instanceof Iterable<?> && !(v instanceof Map<?, ?>) || v.getClass().isArray() && !(v instanceof byte[]);
    }

    /** The value of record component {@code c} of {@code r}, read through its accessor. */
    private static Object component(Record r, RecordComponent c) throws ReflectiveOperationException {
        java.lang.reflect.Method m = c.getAccessor();
        m.trySetAccessible();
        return m.invoke(r);
    }

    static boolean isIntegral(Object v) {
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
                || v instanceof BigInteger;
    }

    static BigInteger toBig(Object v) {
        return v instanceof BigInteger b ? b : BigInteger.valueOf(((Number) v).longValue());
    }
}
