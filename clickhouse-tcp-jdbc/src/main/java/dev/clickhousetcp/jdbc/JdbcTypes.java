package dev.clickhousetcp.jdbc;

import java.sql.Types;
import java.util.Locale;

/**
 * The JDBC view of ClickHouse type names: the {@link Types} constant and the class {@code getObject} returns,
 * per JDBC.md's type table. Works on the type string as the server sends it and never throws on an unknown
 * family ({@link Types#OTHER}). Stateless.
 */
final class JdbcTypes {
    private JdbcTypes() {
    }

    /** The type without its {@code Nullable(...)}, {@code LowCardinality(...)} and {@code SimpleAggregateFunction} wrappers. */
    static String base(String type) {
        String t = type.trim();
        while (true) {
            if (t.startsWith("Nullable(") && t.endsWith(")")) {
                t = t.substring("Nullable(".length(), t.length() - 1).trim();
            } else if (t.startsWith("LowCardinality(") && t.endsWith(")")) {
                t = t.substring("LowCardinality(".length(), t.length() - 1).trim();
            } else if (t.startsWith("SimpleAggregateFunction(") && t.endsWith(")")) {
                int comma = topLevelComma(t, "SimpleAggregateFunction(".length());
                if (comma < 0) {
                    return t;
                }
                t = t.substring(comma + 1, t.length() - 1).trim();
            } else {
                return t;
            }
        }
    }

    /** Whether values of the type can be NULL (through {@code Nullable}, also inside {@code LowCardinality}). */
    static boolean nullable(String type) {
        String t = type.trim();
        if (t.startsWith("LowCardinality(")) {
            t = t.substring("LowCardinality(".length()).trim();
        }
        return t.startsWith("Nullable(") || t.equals("Nothing") || t.startsWith("Variant(") || t.startsWith("Dynamic");
    }

    private static int topLevelComma(String t, int from) {
        int depth = 0;
        for (int i = from; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                return i;
            } else if (c == '\'') {
                i = SqlLexer.skip(t, i) - 1;
            }
        }
        return -1;
    }

    /** The family: the base type's name before its parenthesis. */
    static String family(String type) {
        String b = base(type);
        int p = b.indexOf('(');
        return p < 0 ? b : b.substring(0, p);
    }

    /** The element type of {@code Array(T)}. */
    static String arrayElement(String type) {
        String b = base(type);
        return b.startsWith("Array(") ? b.substring("Array(".length(), b.length() - 1) : "String";
    }

    static int sqlType(String type) {
        String f = family(type);
        return switch (f) {
            case "Int8" -> Types.TINYINT;
            case "Int16", "UInt8" -> Types.SMALLINT;
            case "Int32", "UInt16" -> Types.INTEGER;
            case "Int64", "UInt32" -> Types.BIGINT;
            case "UInt64", "Int128", "Int256", "UInt128", "UInt256" -> Types.NUMERIC;
            case "Float32", "BFloat16" -> Types.REAL;
            case "Float64" -> Types.DOUBLE;
            case "Decimal", "Decimal32", "Decimal64", "Decimal128", "Decimal256" -> Types.DECIMAL;
            case "Bool" -> Types.BOOLEAN;
            case "String", "FixedString", "Enum8", "Enum16", "Enum" -> Types.VARCHAR;
            case "Date", "Date32" -> Types.DATE;
            case "DateTime", "DateTime64" -> Types.TIMESTAMP;
            case "Time", "Time64" -> Types.TIME;
            case "Array", "Nested", "Ring", "Polygon", "MultiPolygon", "LineString", "MultiLineString" -> Types.ARRAY;
            case "Tuple", "Point" -> Types.STRUCT;
            case "AggregateFunction" -> Types.BINARY;
            case "Nothing" -> Types.NULL;
            default -> f.startsWith("Interval") ? Types.BIGINT : Types.OTHER;
        };
    }

    static String className(String type) {
        String f = family(type);
        return switch (f) {
            case "Int8" -> Byte.class.getName();
            case "Int16", "UInt8" -> Short.class.getName();
            case "Int32", "UInt16" -> Integer.class.getName();
            case "Int64", "UInt32" -> Long.class.getName();
            case "UInt64", "Int128", "Int256", "UInt128", "UInt256" -> java.math.BigInteger.class.getName();
            case "Float32", "BFloat16" -> Float.class.getName();
            case "Float64" -> Double.class.getName();
            case "Decimal", "Decimal32", "Decimal64", "Decimal128", "Decimal256" -> java.math.BigDecimal.class.getName();
            case "Bool" -> Boolean.class.getName();
            case "String", "FixedString", "Enum8", "Enum16", "JSON", "Object" -> String.class.getName();
            case "Date", "Date32" -> java.sql.Date.class.getName();
            case "DateTime", "DateTime64" -> java.sql.Timestamp.class.getName();
            case "Array", "Nested" -> java.sql.Array.class.getName();
            case "Tuple" -> java.sql.Struct.class.getName();
            case "Map" -> java.util.Map.class.getName();
            case "UUID" -> java.util.UUID.class.getName();
            case "IPv4" -> java.net.Inet4Address.class.getName();
            case "IPv6" -> java.net.Inet6Address.class.getName();
            default -> Object.class.getName();
        };
    }

    static boolean signed(String type) {
        String f = family(type);
        return !f.startsWith("UInt") && (f.startsWith("Int") || f.startsWith("Float") || f.startsWith("Decimal")
                || f.equals("BFloat16"));
    }

    /** Precision of Decimal(P, S) and DateTime64(p) (their first argument), else a display width. */
    static int precision(String type) {
        String b = base(type);
        String f = family(type);
        if (f.startsWith("Decimal") || f.equals("DateTime64") || f.equals("FixedString")) {
            int[] args = intArgs(b);
            if (f.equals("Decimal32")) {
                return 9;
            } else if (f.equals("Decimal64")) {
                return 18;
            } else if (f.equals("Decimal128")) {
                return 38;
            } else if (f.equals("Decimal256")) {
                return 76;
            }
            return args.length > 0 ? args[0] : 0;
        }
        return switch (f) {
            case "Int8", "UInt8" -> 3;
            case "Int16", "UInt16" -> 5;
            case "Int32", "UInt32" -> 10;
            case "Int64" -> 19;
            case "UInt64" -> 20;
            case "Float32" -> 7;
            case "Float64" -> 15;
            default -> 0;
        };
    }

    /** Scale of Decimal(P, S) (Decimal32(S)...) and DateTime64(p). */
    static int scale(String type) {
        String b = base(type);
        String f = family(type);
        int[] args = intArgs(b);
        if (f.equals("Decimal")) {
            return args.length > 1 ? args[1] : 0;
        }
        if (f.startsWith("Decimal") || f.equals("DateTime64")) {
            return args.length > 0 ? args[0] : 0;
        }
        return 0;
    }

    private static int[] intArgs(String b) {
        int open = b.indexOf('(');
        if (open < 0 || !b.endsWith(")")) {
            return new int[0];
        }
        String[] parts = b.substring(open + 1, b.length() - 1).split(",");
        int n = 0;
        int[] out = new int[parts.length];
        for (String p : parts) {
            try {
                out[n] = Integer.parseInt(p.trim());
                n++;
            } catch (NumberFormatException e) {
                break;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** The ClickHouse type for a JDBC type name given to {@code createArrayOf}; ClickHouse names stay as they are. */
    static String fromJdbcName(String name) {
        return switch (name.trim().toUpperCase(Locale.ROOT)) {
            case "VARCHAR", "CHAR", "LONGVARCHAR", "NVARCHAR", "TEXT", "CLOB" -> "String";
            case "TINYINT" -> "Int8";
            case "SMALLINT" -> "Int16";
            case "INTEGER", "INT" -> "Int32";
            case "BIGINT" -> "Int64";
            case "REAL", "FLOAT" -> "Float32";
            case "DOUBLE" -> "Float64";
            case "DECIMAL", "NUMERIC" -> "Decimal(38, 10)";
            case "BOOLEAN", "BIT" -> "Bool";
            case "DATE" -> "Date";
            case "TIMESTAMP" -> "DateTime64(9)";
            case "UUID" -> "UUID";
            default -> name.trim();
        };
    }

    /** The element types of {@code Tuple(...)} (names of named elements dropped). */
    static java.util.List<String> tupleElements(String type) {
        String b = base(type);
        java.util.List<String> out = new java.util.ArrayList<>();
        if (!b.startsWith("Tuple(") || !b.endsWith(")")) {
            return out;
        }
        int start = "Tuple(".length();
        int end = b.length() - 1;
        while (start < end) {
            int comma = topLevelComma(b.substring(0, end), start);
            String part = b.substring(start, comma < 0 ? end : comma).trim();
            int space = part.indexOf(' ');
            if (space > 0 && part.substring(0, space).indexOf('(') < 0 && part.charAt(0) != '\'') {
                String rest = part.substring(space + 1).trim();
                if (!rest.isEmpty() && Character.isUpperCase(rest.charAt(0))) {
                    part = rest;
                }
            }
            out.add(part);
            if (comma < 0) {
                break;
            }
            start = comma + 1;
        }
        return out;
    }

    /**
     * A value as the native client decoded it, in the class {@code getObject} returns for the type: dates as
     * {@link java.sql.Date}, date-times as {@link java.sql.Timestamp} of the stored instant, arrays as
     * {@link java.sql.Array}, tuples as {@link java.sql.Struct}, times within a day as {@link java.time.LocalTime}.
     */
    static Object toJdbc(Object v, String type) {
        if (v == null) {
            return null;
        }
        if (v instanceof java.time.LocalDate d) {
            return java.sql.Date.valueOf(d);
        }
        if (v instanceof java.time.ZonedDateTime z) {
            return java.sql.Timestamp.from(z.toInstant());
        }
        if (v instanceof java.time.Duration d) {
            String f = family(type);
            if ((f.equals("Time") || f.equals("Time64")) && !d.isNegative() && d.compareTo(java.time.Duration.ofDays(1)) < 0) {
                return java.time.LocalTime.ofNanoOfDay(d.toNanos());
            }
            return d;
        }
        if (v instanceof java.util.List<?> l) {
            String f = family(type);
            if (f.equals("Tuple")) {
                java.util.List<String> types = tupleElements(type);
                Object[] attrs = new Object[l.size()];
                for (int i = 0; i < attrs.length; i++) {
                    attrs[i] = toJdbc(l.get(i), i < types.size() ? types.get(i) : "String");
                }
                return new ClickHouseStruct(base(type), attrs);
            }
            if (f.equals("Array") || f.equals("Nested")) {
                String element = f.equals("Array") ? arrayElement(type) : "Tuple";
                Object[] elements = new Object[l.size()];
                for (int i = 0; i < elements.length; i++) {
                    elements[i] = toJdbc(l.get(i), element);
                }
                return new ClickHouseArray(element, elements);
            }
        }
        return v;
    }
}
