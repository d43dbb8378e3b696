package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.data.TextFormat;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Java values bound to {@code ?} parameters: their normal form (java.sql date/time classes to java.time,
 * {@link java.sql.Array} and {@link java.sql.Struct} to their elements), the ClickHouse type of a server-side
 * query parameter ({@code {p1:Int64}}), and the SQL literal used where the server takes no parameters.
 * Stateless.
 */
final class JdbcValues {
    /** The parameter type of values of these classes (and of primitive arrays of their primitives). */
    private static final Map<Class<?>, String> SIMPLE_TYPES = Map.ofEntries(
            Map.entry(String.class, "String"), Map.entry(Integer.class, "Int32"), Map.entry(Long.class, "Int64"),
            Map.entry(Short.class, "Int16"), Map.entry(Byte.class, "Int8"), Map.entry(Boolean.class, "Bool"),
            Map.entry(Double.class, "Float64"), Map.entry(Float.class, "Float32"), Map.entry(UUID.class, "UUID"),
            Map.entry(Character.class, "String"), Map.entry(LocalDate.class, "Date32"),
            Map.entry(LocalDateTime.class, "DateTime64(9)"), Map.entry(Instant.class, "DateTime64(9)"),
            Map.entry(OffsetDateTime.class, "DateTime64(9)"), Map.entry(ZonedDateTime.class, "DateTime64(9)"),
            Map.entry(LocalTime.class, "String"), Map.entry(Inet4Address.class, "IPv4"),
            Map.entry(Inet6Address.class, "IPv6"));

    private JdbcValues() {
    }

    /**
     * The value in the form the native client's writers and parameter encoder take, also inside arrays, Lists
     * and Map keys and values (a {@code Map<String, java.sql.Array>} or a List holding a Timestamp binds as
     * its top-level form would). Lists and Maps are copied only when an element changes.
     *
     * @throws SQLException when a {@link java.sql.Array} or {@link java.sql.Struct} cannot be read
     */
    static Object normalize(Object v) throws SQLException {
        if (v instanceof java.sql.Timestamp t) {
            return t.toInstant();
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (v instanceof java.sql.Time t) {
            return t.toLocalTime();
        }
        if (v instanceof java.util.Date d) {
            return d.toInstant();
        }
        if (v instanceof java.sql.Array a) {
            return normalizeArray(a.getArray());
        }
        if (v instanceof java.sql.Struct s) {
            Object[] attrs = s.getAttributes();
            Object[] out = new Object[attrs.length];
            for (int i = 0; i < attrs.length; i++) {
                out[i] = normalize(attrs[i]);
            }
            return java.util.Arrays.asList(out);
        }
        if (v instanceof Character c) {
            return c.toString();
        }
        if (v instanceof Object[] arr && !(v instanceof String[])) {
            return normalizeArray(arr);
        }
        if (v instanceof List<?> list) {
            return normalizeList(list);
        }
        if (v instanceof Map<?, ?> map) {
            return normalizeMap(map);
        }
        return v;
    }

    private static List<?> normalizeList(List<?> list) throws SQLException {
        List<Object> out = null;
        int i = 0;
        for (Object e : list) {
            Object n = normalize(e);
            if (n != e && out == null) {
                out = new java.util.ArrayList<>(list.subList(0, i));
            }
            if (out != null) {
                out.add(n);
            }
            i++;
        }
        return out == null ? list : out;
    }

    private static Map<?, ?> normalizeMap(Map<?, ?> map) throws SQLException {
        boolean changed = false;
        Map<Object, Object> out = new java.util.LinkedHashMap<>(map.size() * 2);
        for (Map.Entry<?, ?> e : map.entrySet()) {
            Object k = normalize(e.getKey());
            Object v = normalize(e.getValue());
            changed |= k != e.getKey() || v != e.getValue();
            out.put(k, v);
        }
        return changed ? out : map;
    }

    private static Object normalizeArray(Object arr) throws SQLException {
        if (!(arr instanceof Object[] objects)) {
            return arr; // primitive arrays as they are
        }
        Object[] out = new Object[objects.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = normalize(objects[i]);
        }
        return out;
    }

    /**
     * The ClickHouse type of a query parameter holding {@code v} (already {@linkplain #normalize normalized}).
     *
     * @param v       the value, or {@code null}
     * @param sqlType the {@link Types} given to {@code setNull}, used for {@code null}
     * @throws SQLDataException 22023 when no ClickHouse type fits the value's class
     */
    static String parameterType(Object v, int sqlType) throws SQLException {
        if (v == null) {
            String t = nullType(sqlType);
            return "Nullable(" + t + ")";
        }
        String simple = SIMPLE_TYPES.get(v.getClass());
        if (simple != null) {
            return simple;
        }
        if (v instanceof Enum<?>) {
            return "String";
        }
        if (v instanceof BigInteger b) {
            return b.signum() >= 0 && b.bitLength() <= 64 ? "UInt64" : "Int256";
        }
        if (v instanceof BigDecimal d) {
            int scale = Math.max(0, d.scale());
            int precision = Math.max(d.precision(), scale + 1);
            return "Decimal(" + (precision <= 38 ? 38 : 76) + ", " + Math.min(scale, precision <= 38 ? 38 : 76) + ")";
        }
        if (v instanceof Map<?, ?> m) {
            Map.Entry<?, ?> first = m.isEmpty() ? null : m.entrySet().iterator().next();
            return "Map(" + (first == null ? "String" : parameterType(first.getKey(), Types.VARCHAR)) + ", "
                    + (first == null ? "String" : elementType(m.values())) + ")";
        }
        if (v instanceof List<?> l) {
            return "Array(" + elementType(l) + ")";
        }
        if (v.getClass().isArray()) {
            Class<?> c = v.getClass().getComponentType();
            if (c == byte.class) {
                return "String";
            }
            if (c.isPrimitive()) {
                return "Array(" + SIMPLE_TYPES.get(java.lang.invoke.MethodType.methodType(c).wrap().returnType()) + ")";
            }
            return "Array(" + elementType(java.util.Arrays.asList((Object[]) v)) + ")";
        }
        throw new SQLDataException("cannot bind a value of " + v.getClass().getName()
                + " as a ClickHouse query parameter", "22023");
    }

    private static String elementType(Iterable<?> values) throws SQLException {
        boolean nullable = false;
        Object sample = null;
        for (Object o : values) {
            if (o == null) {
                nullable = true;
            } else if (sample == null) {
                sample = o;
            }
        }
        String t = sample == null ? "String" : parameterType(sample, Types.VARCHAR);
        return nullable && !t.startsWith("Array(") && !t.startsWith("Map(") ? "Nullable(" + t + ")" : t;
    }

    /** The ClickHouse type of a NULL given with {@code sqlType}. */
    private static String nullType(int sqlType) {
        return switch (sqlType) {
            case Types.TINYINT -> "Int8";
            case Types.SMALLINT -> "Int16";
            case Types.INTEGER -> "Int32";
            case Types.BIGINT -> "Int64";
            case Types.REAL, Types.FLOAT -> "Float32";
            case Types.DOUBLE -> "Float64";
            case Types.DECIMAL, Types.NUMERIC -> "Decimal(38, 10)";
            case Types.BOOLEAN, Types.BIT -> "Bool";
            case Types.DATE -> "Date32";
            case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE -> "DateTime64(9)";
            case Types.VARCHAR, Types.CHAR, Types.LONGVARCHAR, Types.NVARCHAR, Types.NCHAR, Types.CLOB,
                 Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> "String";
            default -> "Nothing";
        };
    }

    /**
     * The value as an SQL literal, for statements the server takes no query parameters in. Strings are
     * single-quoted with every {@code \} and {@code '} escaped (and control characters written as escapes),
     * so no value can end the literal.
     *
     * @param v        the value ({@linkplain #normalize normalized}), or {@code null}
     * @param hasBool  whether the server knows {@code true}/{@code false} literals (else 1/0)
     * @throws SQLDataException 22023 when the value's class has no literal form
     */
    static String literal(Object v, boolean hasBool) throws SQLException {
        StringBuilder sb = new StringBuilder();
        appendLiteral(sb, v, hasBool);
        return sb.toString();
    }

    private static void appendLiteral(StringBuilder sb, Object v, boolean hasBool) throws SQLException {
        if (v == null) {
            sb.append("NULL");
        } else if (v instanceof String s) {
            TextFormat.appendQuoted(sb, s);
        } else if (v instanceof Enum<?> e) {
            TextFormat.appendQuoted(sb, e.name());
        } else if (v instanceof Boolean b) {
            sb.append(hasBool ? b.toString() : (b ? "1" : "0"));
        } else if (v instanceof BigDecimal d) {
            sb.append(d.toPlainString());
        } else if (v instanceof Double d) {
            sb.append(d.isNaN() ? "nan" : d.isInfinite() ? (d > 0 ? "inf" : "-inf") : d.toString());
        } else if (v instanceof Float f) {
            sb.append(f.isNaN() ? "nan" : f.isInfinite() ? (f > 0 ? "inf" : "-inf") : f.toString());
        } else if (v instanceof Number n) {
            sb.append(n);
        } else if (v instanceof UUID || v instanceof LocalDate || v instanceof LocalTime) {
            TextFormat.appendQuoted(sb, v.toString());
        } else if (v instanceof LocalDateTime l) {
            TextFormat.appendQuoted(sb, l.toLocalDate() + " " + l.toLocalTime().withNano(0)
                    + (l.getNano() == 0 ? "" : "." + String.format("%09d", l.getNano())));
        } else if (v instanceof Instant || v instanceof OffsetDateTime || v instanceof ZonedDateTime) {
            Instant i = v instanceof Instant x ? x : v instanceof OffsetDateTime o ? o.toInstant()
                    : ((ZonedDateTime) v).toInstant();
            if (i.getNano() == 0) {
                sb.append("toDateTime(").append(i.getEpochSecond()).append(')');
            } else {
                sb.append("toDateTime64(").append(BigDecimal.valueOf(i.getEpochSecond())
                        .add(BigDecimal.valueOf(i.getNano(), 9)).toPlainString()).append(", 9)");
            }
        } else if (v instanceof InetAddress a) {
            TextFormat.appendQuoted(sb, a.getHostAddress());
        } else if (v instanceof byte[] b) {
            // any bytes, as a String of exactly those bytes
            sb.append("unhex('").append(java.util.HexFormat.of().formatHex(b)).append("')");
        } else if (v instanceof Map<?, ?> m) {
            sb.append("map(");
            Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                appendLiteral(sb, e.getKey(), hasBool);
                sb.append(", ");
                appendLiteral(sb, e.getValue(), hasBool);
                if (it.hasNext()) {
                    sb.append(", ");
                }
            }
            sb.append(')');
        } else if (v instanceof Iterable<?> l) {
            sb.append('[');
            boolean first = true;
            for (Object o : l) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                appendLiteral(sb, o, hasBool);
            }
            sb.append(']');
        } else if (v.getClass().isArray()) {
            sb.append('[');
            int n = Array.getLength(v);
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                appendLiteral(sb, Array.get(v, i), hasBool);
            }
            sb.append(']');
        } else {
            throw new SQLDataException("cannot write a value of " + v.getClass().getName() + " as a ClickHouse literal",
                    "22023");
        }
    }
}
