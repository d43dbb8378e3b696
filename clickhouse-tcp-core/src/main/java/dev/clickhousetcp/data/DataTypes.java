package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves ClickHouse type names to {@link DataType}s. Thread-safe; resolved types are cached per
 * (name, server time zone).
 */
public final class DataTypes {
    private static final int MAX_CACHE = 4096;
    /** Longest type name kept in the cache, in characters (4096 of them: at most 16 Mi characters). */
    private static final int MAX_CACHED_NAME = 4096;
    private static final Map<String, DataType> CACHE = new ConcurrentHashMap<>();

    private DataTypes() {
    }

    /**
     * Parses and resolves {@code typeName}.
     *
     * @param typeName   a ClickHouse type name, e.g. {@code Array(Nullable(DateTime64(3, 'UTC')))}
     * @param serverZone the zone for DateTime types without an explicit one: the query's session zone
     *                   ({@code session_timezone}), else the server's
     * @return the resolved type (possibly a cached instance)
     * @throws ClickHouseTypeException when the name is malformed or names an unsupported type
     */
    public static DataType parse(String typeName, ZoneId serverZone) {
        return parse(typeName, serverZone, DecodeLimits.DEFAULT);
    }

    /**
     * Parses and resolves {@code typeName} within the type-name limits of {@code limits} (length,
     * depth, parameters: see {@link TypeNode#parse(String, DecodeLimits)}). Names longer than
     * {@value #MAX_CACHED_NAME} characters are not cached, and the cache holds at most
     * {@value #MAX_CACHE} names, so names a server invents cannot grow it without bound. The cache is
     * keyed by the zone and the type-name limits as well, so a cached type never bypasses stricter limits.
     *
     * @param typeName   a ClickHouse type name, e.g. {@code LowCardinality(String)}
     * @param serverZone the zone for DateTime types without an explicit one: the query's session zone, else
     *                   the server's; not {@code null}
     * @param limits     the type-name limits to parse within
     * @return the resolved type (possibly a cached instance)
     * @throws ClickHouseTypeException when the name is malformed, exceeds a limit or names an
     *                                 unsupported type
     */
    public static DataType parse(String typeName, ZoneId serverZone, DecodeLimits limits) {
        // the type-name limits are part of the key: a name cached under looser limits is parsed again
        // (and rejected) under stricter ones
        String key = serverZone.getId() + '\u0000' + limits.maxTypeNameBytes() + ',' + limits.maxTypeDepth() + ','
                + limits.maxTypeElements() + '\u0000' + typeName;
        DataType t = CACHE.get(key);
        if (t == null) {
            t = resolve(TypeNode.parse(typeName, limits), serverZone);
            if (CACHE.size() < MAX_CACHE && typeName.length() <= MAX_CACHED_NAME) {
                CACHE.put(key, t);
            }
        }
        return t;
    }

    /**
     * Resolves an already parsed type (not cached).
     *
     * @param n          the parsed type name
     * @param serverZone the zone for DateTime types without an explicit one: the query's session zone, else
     *                   the server's
     * @return the resolved type
     * @throws ClickHouseTypeException when the name has wrong parameters or names an unsupported type
     */
    public static DataType resolve(TypeNode n, ZoneId serverZone) {
        String name = n.toString();
        switch (n.name()) {
            case "Int8": return number(n, NumberType.Kind.INT8);
            case "UInt8": return number(n, NumberType.Kind.UINT8);
            case "Int16": return number(n, NumberType.Kind.INT16);
            case "UInt16": return number(n, NumberType.Kind.UINT16);
            case "Int32": return number(n, NumberType.Kind.INT32);
            case "UInt32": return number(n, NumberType.Kind.UINT32);
            case "Int64": return number(n, NumberType.Kind.INT64);
            case "UInt64": return number(n, NumberType.Kind.UINT64);
            case "Float32": return number(n, NumberType.Kind.FLOAT32);
            case "Float64": return number(n, NumberType.Kind.FLOAT64);
            case "Bool": return number(n, NumberType.Kind.BOOL);
            case "String": noParams(n); return new StringType(name);
            case "FixedString": return new FixedStringType(name, intParam(n, 0));
            case "Date": noParams(n); return new DateType(name, false, serverZone);
            case "Date32": noParams(n); return new DateType(name, true, serverZone);
            case "DateTime", "DateTime32": {
                ZoneId z = n.params().isEmpty() ? serverZone : zone(n, 0);
                return new DateTimeType(name, z);
            }
            case "DateTime64": {
                int scale = intParam(n, 0);
                ZoneId z = n.params().size() > 1 ? zone(n, 1) : serverZone;
                return new DateTime64Type(name, scale, z);
            }
            case "UUID": noParams(n); return new UuidType(name);
            case "Enum8": return new EnumType(name, 1, n);
            case "Enum16": return new EnumType(name, 2, n);
            case "Enum": return EnumType.generic(n);
            case "Nothing": noParams(n); return new NothingType(name);
            case "Nullable": {
                DataType inner = resolve(single(n), serverZone);
                // Nullable(Tuple(...)) is a type since ClickHouse 26.1 (ClickHouse PR 89643, enable_nullable_tuple_type)
                if (inner instanceof NullableType || inner instanceof ArrayType || inner instanceof MapType
                        || inner instanceof LowCardinalityType) {
                    throw new ClickHouseTypeException("Nested type " + inner.name() + " cannot be inside Nullable type");
                }
                return new NullableType(name, inner);
            }
            case "Array": return new ArrayType(name, resolve(single(n), serverZone));
            case "LowCardinality": return new LowCardinalityType(name, resolve(single(n), serverZone));
            case "Tuple": {
                DataType[] el = new DataType[n.params().size()];
                String[] names = new String[el.length];
                for (int i = 0; i < el.length; i++) {
                    el[i] = resolve(n.typeArg(i), serverZone);
                    if (n.params().get(i) instanceof TypeNode.NamedTypeParam np) {
                        names[i] = np.name();
                    }
                }
                return new TupleType(name, el, names);
            }
            case "Map": {
                if (n.params().size() != 2) {
                    throw new ClickHouseTypeException("Map takes two type parameters: " + name);
                }
                return new MapType(name, resolve(n.typeArg(0), serverZone), resolve(n.typeArg(1), serverZone));
            }
            case "SimpleAggregateFunction": {
                if (n.params().size() != 2) {
                    throw new ClickHouseTypeException("SimpleAggregateFunction takes a function and a type: " + name);
                }
                return resolve(n.typeArg(1), serverZone);
            }
            case "Variant": {
                java.util.List<DataType> variants = new java.util.ArrayList<>();
                java.util.List<String> names = new java.util.ArrayList<>();
                for (int i = 0; i < n.params().size(); i++) {
                    DataType t = resolve(n.typeArg(i), serverZone);
                    variants.add(t);
                    names.add(n.typeArg(i).name().equals("SimpleAggregateFunction") ? n.typeArg(i).toString() : t.name());
                }
                return VariantType.of(variants, names);
            }
            case "Dynamic": return DynamicType.parse(n, serverZone);
            case "JSON": return JsonType.parse(n, serverZone);
            case "Geometry": noParams(n); return VariantType.geometry(serverZone);
            case "Int128": noParams(n); return new BigIntType(name, 16, false);
            case "UInt128": noParams(n); return new BigIntType(name, 16, true);
            case "Int256": noParams(n); return new BigIntType(name, 32, false);
            case "UInt256": noParams(n); return new BigIntType(name, 32, true);
            case "BFloat16": noParams(n); return new BFloat16Type(name);
            case "Decimal", "Decimal32", "Decimal64", "Decimal128", "Decimal256": return DecimalType.of(n);
            case "Time", "Time64": return TimeType.of(n);
            case "IPv4": noParams(n); return new IPv4Type(name);
            case "IPv6": noParams(n); return new IPv6Type(name);
            case "Nested": return NestedType.of(n, serverZone);
            case "QBit": return QBitType.of(n, serverZone);
            case "Point", "Ring", "LineString", "MultiLineString", "Polygon", "MultiPolygon": return GeoType.of(n);
            case "AggregateFunction": return AggregateFunctionType.of(n, serverZone);
            case "IntervalNanosecond", "IntervalMicrosecond", "IntervalMillisecond", "IntervalSecond", "IntervalMinute",
                "IntervalHour", "IntervalDay", "IntervalWeek", "IntervalMonth", "IntervalQuarter", "IntervalYear":
                return IntervalType.of(n);
            default:
                throw new ClickHouseTypeException("unsupported ClickHouse type: " + name);
        }
    }

    private static DataType number(TypeNode n, NumberType.Kind kind) {
        noParams(n);
        return new NumberType(n.name(), kind);
    }

    private static void noParams(TypeNode n) {
        if (!n.params().isEmpty()) {
            throw new ClickHouseTypeException("type " + n.name() + " takes no parameters: " + n);
        }
    }

    private static TypeNode single(TypeNode n) {
        if (n.params().size() != 1) {
            throw new ClickHouseTypeException(n.name() + " takes exactly one type parameter: " + n);
        }
        return n.typeArg(0);
    }

    /** Parameter {@code i} of {@code n} as an {@code int}. */
    static int intParam(TypeNode n, int i) {
        if (n.param(i) instanceof TypeNode.NumberParam np) {
            try {
                return np.intValue();
            } catch (NumberFormatException e) {
                throw new ClickHouseTypeException("parameter " + (i + 1) + " of " + n + " must be an integer", e);
            }
        }
        throw new ClickHouseTypeException("parameter " + (i + 1) + " of " + n + " must be a number");
    }

    private static ZoneId zone(TypeNode n, int i) {
        if (n.param(i) instanceof TypeNode.StringParam sp) {
            try {
                return dev.clickhousetcp.data.ClickHouseZoneRules.zoneId(sp.value());
            } catch (DateTimeException e) {
                throw new ClickHouseTypeException("unknown time zone '" + sp.value() + "' in " + n, e);
            }
        }
        throw new ClickHouseTypeException("parameter " + (i + 1) + " of " + n + " must be a quoted time zone");
    }
}
