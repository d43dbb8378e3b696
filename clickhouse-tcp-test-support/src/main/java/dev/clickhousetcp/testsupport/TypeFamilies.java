package dev.clickhousetcp.testsupport;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every type family ClickHouse 26.7 lists in {@code system.data_type_families} (aliases left out), each with a
 * column type of that family and value expressions for it, shared by the conformance tests of the client and
 * of the JDBC driver. Stateless; the map is new on each call.
 */
public final class TypeFamilies {
    private TypeFamilies() {
    }

    /**
     * A family: the column type used for it, SQL value expressions (cast to that type by the tests), and
     * whether ClickHouse allows it inside {@code Nullable} and {@code LowCardinality}.
     *
     * @param type           the column type, e.g. {@code Decimal(10, 2)}
     * @param values         SQL expressions of values, e.g. {@code '-12345678.91'}
     * @param nullable       whether {@code Nullable(type)} exists
     * @param lowCardinality whether {@code LowCardinality(type)} is allowed
     */
    public record Family(String type, List<String> values, boolean nullable, boolean lowCardinality) {
    }

    /** A family that cannot be wrapped in Nullable or LowCardinality. */
    public static Family f(String type, String... values) {
        return new Family(type, List.of(values), false, false);
    }

    /** A family that Nullable wraps, and LowCardinality too when {@code lowCardinality}. */
    public static Family scalar(String type, boolean lowCardinality, String... values) {
        return new Family(type, List.of(values), true, lowCardinality);
    }

    /** The 67 families by name (the names of {@code system.data_type_families}), in a fixed order. */
    public static Map<String, Family> all() {
        Map<String, Family> m = new LinkedHashMap<>();
        m.put("Int8", scalar("Int8", true, "-128", "127", "0"));
        m.put("Int16", scalar("Int16", true, "-32768", "32767", "0"));
        m.put("Int32", scalar("Int32", true, "-2147483648", "2147483647", "0"));
        m.put("Int64", scalar("Int64", true, "-9223372036854775808", "9223372036854775807", "0"));
        m.put("Int128", scalar("Int128", false, "-170141183460469231731687303715884105728",
                "170141183460469231731687303715884105727", "0"));
        m.put("Int256", scalar("Int256", false, "'-57896044618658097711785492504343953926634992332820282019728792003956564819968'",
                "'57896044618658097711785492504343953926634992332820282019728792003956564819967'", "0"));
        m.put("UInt8", scalar("UInt8", true, "0", "255"));
        m.put("UInt16", scalar("UInt16", true, "0", "65535"));
        m.put("UInt32", scalar("UInt32", true, "0", "4294967295"));
        m.put("UInt64", scalar("UInt64", true, "0", "18446744073709551615"));
        m.put("UInt128", scalar("UInt128", false, "0", "'340282366920938463463374607431768211455'"));
        m.put("UInt256", scalar("UInt256", false, "0",
                "'115792089237316195423570985008687907853269984665640564039457584007913129639935'"));
        m.put("Float32", scalar("Float32", true, "0", "-0.", "3.4028235e38", "-1.17549435e-38", "nan", "inf", "-inf", "0.1"));
        m.put("Float64", scalar("Float64", true, "0", "-0.", "1.7976931348623157e308", "5e-324", "nan", "-inf", "0.1"));
        m.put("BFloat16", scalar("BFloat16", false, "0", "1.5", "-3.25", "inf"));
        m.put("Bool", scalar("Bool", false, "true", "false"));
        m.put("Decimal", scalar("Decimal(10, 2)", false, "0", "-12345678.91", "99999999.99"));
        m.put("Decimal32", scalar("Decimal32(4)", false, "0", "-99999.9999", "12345.6789"));
        m.put("Decimal64", scalar("Decimal64(9)", false, "0", "'-999999999.999999999'", "'0.000000001'"));
        m.put("Decimal128", scalar("Decimal128(20)", false, "0", "'-123456789012345678.12345678901234567890'",
                "'0.00000000000000000001'"));
        m.put("Decimal256", scalar("Decimal256(40)", false, "0", "'-1.2345678901234567890123456789012345678901'"));
        m.put("String", scalar("String", true, "''", "'hello'", "'üñí©ødé ✓ 😀'", "'tab\\there'"));
        m.put("FixedString", scalar("FixedString(6)", true, "''", "'abc'", "'üñí'"));
        m.put("Date", scalar("Date", true, "'1970-01-01'", "'2149-06-06'", "'2024-02-29'"));
        m.put("Date32", scalar("Date32", false, "'1900-01-01'", "'2299-12-31'", "'1969-07-20'"));
        m.put("DateTime", scalar("DateTime('UTC')", true, "'1970-01-01 00:00:00'", "'2106-02-07 06:28:15'",
                "'2024-02-29 12:34:56'"));
        m.put("DateTime32", scalar("DateTime32('Asia/Kolkata')", false, "'2024-01-02 03:04:05'"));
        m.put("DateTime64", scalar("DateTime64(9, 'UTC')", false, "'1900-01-01 00:00:00.000000001'",
                "'2262-04-11 23:47:16'", "'1969-12-31 23:59:59.999999999'"));
        m.put("Time", scalar("Time", false, "'00:00:00'", "'23:59:59'", "'-01:02:03'", "'100:00:00'"));
        m.put("Time64", scalar("Time64(6)", false, "'00:00:00.000001'", "'-12:34:56.789012'"));
        for (String unit : List.of("Nanosecond", "Microsecond", "Millisecond", "Second", "Minute", "Hour", "Day", "Week",
                "Month", "Quarter", "Year")) {
            m.put("Interval" + unit, f("Interval" + unit, "0", "5", "-3"));
        }
        m.put("UUID", scalar("UUID", true, "'00000000-0000-0000-0000-000000000000'",
                "'123e4567-e89b-12d3-a456-426614174000'"));
        m.put("IPv4", scalar("IPv4", false, "'0.0.0.0'", "'255.255.255.255'", "'10.1.2.3'"));
        m.put("IPv6", scalar("IPv6", false, "'::'", "'2001:db8::ff00:42:8329'", "'::ffff:1.2.3.4'"));
        m.put("Enum", f("Enum('a', 'b' = 5)", "'a'", "'b'"));
        m.put("Enum8", scalar("Enum8('x' = -128, 'y' = 127)", false, "'x'", "'y'"));
        m.put("Enum16", scalar("Enum16('lo' = -32768, 'hi' = 32767)", false, "'lo'", "'hi'"));
        m.put("Nullable", f("Nullable(Int32)", "NULL", "7"));
        m.put("LowCardinality", f("LowCardinality(Nullable(String))", "NULL", "'x'", "''"));
        m.put("Array", f("Array(Array(Nullable(String)))", "[]", "[[], [NULL, 'a']]"));
        m.put("Tuple", f("Tuple(a UInt8, b Nullable(String), c Array(Int32))", "(1, NULL, [])", "(2, 'x', [1, 2])"));
        m.put("Map", f("Map(String, Array(UInt64))", "map()", "map('k', [1, 2], 'e', [])"));
        m.put("Nested", f("Nested(a UInt8, b String)", "[]", "[(1, 'x'), (2, 'y')]"));
        m.put("Nothing", f("Array(Nothing)", "[]"));
        m.put("Point", f("Point", "(0., 0.)", "(1.5, -2.5)"));
        m.put("Ring", f("Ring", "[]", "[(0., 0.), (1., 1.)]"));
        m.put("LineString", f("LineString", "[(0., 0.), (1., 2.)]"));
        m.put("MultiLineString", f("MultiLineString", "[[(0., 0.)], []]"));
        m.put("Polygon", f("Polygon", "[[(0., 0.), (1., 0.), (1., 1.)]]"));
        m.put("MultiPolygon", f("MultiPolygon", "[[[(0., 0.), (1., 0.)]]]"));
        m.put("Geometry", f("Geometry", "CAST((1.5, 2.5)::Point AS Geometry)",
                "CAST([[(0., 0.), (1., 0.), (1., 1.)]]::Polygon AS Geometry)", "NULL"));
        m.put("Variant", f("Variant(String, UInt64, Array(UInt64))", "NULL", "42::UInt64", "'s'", "[1, 2]::Array(UInt64)"));
        m.put("Dynamic", f("Dynamic", "NULL", "42::Int64", "'text'", "[1, 2]::Array(Int64)", "toDate('2024-01-02')"));
        m.put("JSON", f("JSON", "'{}'", "'{\"a\":1,\"b\":{\"c\":[\"x\",\"y\"]},\"d\":null}'"));
        m.put("QBit", f("QBit(Float32, 4)", "[1.5, -2, 0, 3.25]"));
        m.put("SimpleAggregateFunction", f("SimpleAggregateFunction(sum, UInt64)", "0", "18446744073709551615"));
        m.put("AggregateFunction", f("AggregateFunction(sum, UInt64)", "arrayReduce('sumState', [toUInt64(5), 7])",
                "arrayReduce('sumState', emptyArrayUInt64())"));
        return m;
    }
}
