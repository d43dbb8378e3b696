package dev.clickhousetcp.data;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text as ClickHouse writes and reads it for the {@code JSON} type: values of columns rendered the
 * way {@code serializeTextJSON} does with default settings (64-bit and larger integers and decimals
 * unquoted, NaN/Inf as {@code null}, dates/UUIDs/IPs/enums as strings, named tuples as objects, unnamed
 * ones as arrays, maps as objects; strings escaped as {@code writeJSONString} does, including
 * <code>\/</code>, <code>&#92;u2028</code>, <code>&#92;u2029</code> and upper-case <code>&#92;u00XX</code> for other control
 * characters), plus a small parser and a writer of Java trees for inserts. Stateless and thread-safe.
 */
final class JsonText {
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");
    private static final int MAX_DEPTH = 1000;

    private JsonText() {
    }

    /**
     * Appends {@code s} as a JSON string the way ClickHouse's {@code writeJSONString} does.
     *
     * @param sb the builder to append to
     * @param s  the text, written with its surrounding double quotes and escapes
     */
    public static void appendString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '/' -> sb.append("\\/");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\u2028' -> sb.append("\\u2028");
                case '\u2029' -> sb.append("\\u2029");
                default -> {
                    if (c < 0x20) {
                        sb.append("\\u00").append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                                .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /**
     * Appends row {@code row} of {@code c} as a JSON value ({@code null} for NULL): the column family's own
     * JSON form ({@code AbstractColumn.appendJson}).
     *
     * @param sb  the builder to append to
     * @param c   the column holding the value
     * @param row 0-based row index in {@code c}
     */
    public static void appendValue(StringBuilder sb, Column c, int row) {
        if (c instanceof AbstractColumn a) {
            a.appendJson(sb, row);
        } else if (c.isNull(row)) {
            sb.append("null");
        } else {
            appendString(sb, c.getString(row));
        }
    }

    // ---- parsing ----

    /**
     * Parses JSON text: objects become insertion-ordered {@code Map<String, Object>}, arrays
     * {@code List<Object>}, strings {@code String}, integers {@code Long} (or {@code BigInteger} when
     * larger), other numbers {@code Double}, {@code true}/{@code false} {@code Boolean}, {@code null}
     * null.
     *
     * @param text the JSON text of one value (any JSON value, not only an object)
     * @return the value as a tree of Java objects, {@code null} for the JSON {@code null}
     * @throws IllegalArgumentException with the position of the first error, also when nested deeper than
     *                                  1000 levels
     */
    public static Object parse(String text) {
        Parser p = new Parser(text);
        p.ws();
        Object v = p.value(0);
        p.ws();
        if (p.pos != text.length()) {
            throw p.error("unexpected text after the JSON value");
        }
        return v;
    }

    private static final class Parser {
        final String s;
        int pos;

        Parser(String s) {
            this.s = s;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("invalid JSON: " + what + " at position " + pos);
        }

        void ws() {
            while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t' || s.charAt(pos) == '\n'
                    || s.charAt(pos) == '\r')) {
                pos++;
            }
        }

        Object value(int depth) {
            if (depth > MAX_DEPTH) {
                throw error("nested deeper than " + MAX_DEPTH);
            }
            if (pos >= s.length()) {
                throw error("expected a value");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{': {
                    pos++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (peek('}')) {
                        return m;
                    }
                    while (true) {
                        ws();
                        if (pos >= s.length() || s.charAt(pos) != '"') {
                            throw error("expected a key");
                        }
                        String k = string();
                        ws();
                        expect(':');
                        ws();
                        m.put(k, value(depth + 1));
                        ws();
                        if (peek('}')) {
                            return m;
                        }
                        expect(',');
                    }
                }
                case '[': {
                    pos++;
                    List<Object> l = new ArrayList<>();
                    ws();
                    if (peek(']')) {
                        return l;
                    }
                    while (true) {
                        ws();
                        l.add(value(depth + 1));
                        ws();
                        if (peek(']')) {
                            return l;
                        }
                        expect(',');
                    }
                }
                case '"':
                    return string();
                case 't':
                    word("true");
                    return Boolean.TRUE;
                case 'f':
                    word("false");
                    return Boolean.FALSE;
                case 'n':
                    word("null");
                    return null;
                default:
                    return number();
            }
        }

        boolean peek(char c) {
            if (pos < s.length() && s.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        void expect(char c) {
            if (!peek(c)) {
                throw error("expected '" + c + "'");
            }
        }

        void word(String w) {
            if (!s.startsWith(w, pos)) {
                throw error("expected " + w);
            }
            pos += w.length();
        }

        String string() {
            pos++;
            StringBuilder sb = new StringBuilder();
            while (pos < s.length()) {
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c == '\\') {
                    if (pos >= s.length()) {
                        break;
                    }
                    char e = s.charAt(pos++);
                    switch (e) {
                        case '"', '\\', '/' -> sb.append(e);
                        case 'b' -> sb.append('\b');
                        case 'f' -> sb.append('\f');
                        case 'n' -> sb.append('\n');
                        case 'r' -> sb.append('\r');
                        case 't' -> sb.append('\t');
                        case 'u' -> {
                            if (pos + 4 > s.length()) {
                                throw error("truncated \\u escape");
                            }
                            try {
                                sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                            } catch (NumberFormatException ex) {
                                throw error("invalid \\u escape");
                            }
                            pos += 4;
                        }
                        default -> throw error("invalid escape \\" + e);
                    }
                } else if (c < 0x20) {
                    throw error("control character in string");
                } else {
                    sb.append(c);
                }
            }
            throw error("unterminated string");
        }

        Object number() {
            int start = pos;
            if (peek('-')) {
                // sign
            }
            int digits = pos;
            while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                pos++;
            }
            if (pos == digits) {
                throw error("expected a value");
            }
            boolean integral = true;
            if (peek('.')) {
                integral = false;
                int f = pos;
                while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                    pos++;
                }
                if (pos == f) {
                    throw error("expected digits after '.'");
                }
            }
            if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
                integral = false;
                pos++;
                if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                    pos++;
                }
                int e = pos;
                while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                    pos++;
                }
                if (pos == e) {
                    throw error("expected exponent digits");
                }
            }
            String t = s.substring(start, pos);
            if (integral) {
                BigInteger b = new BigInteger(t);
                return b.bitLength() <= 63 ? (Object) b.longValue() : b;
            }
            return Double.parseDouble(t);
        }
    }

    // ---- writing Java trees (inserts) ----

    /**
     * Writes a Java value as JSON text for inserting into a JSON column: {@code Map} → object (keys
     * by {@code String.valueOf}), arrays/Iterables → array, CharSequence → string, Boolean, integers
     * and BigDecimal → numbers, Float/Double → numbers that keep a fraction or exponent (so the server
     * infers Float64; NaN/Inf → {@code null}), null → {@code null}, LocalDate → "yyyy-MM-dd",
     * LocalDateTime → "yyyy-MM-dd HH:mm:ss[.fffffffff]", ZonedDateTime/OffsetDateTime/Instant/
     * java.util.Date → the same as the server prints the instant in {@code serverZone} (the zone it reads
     * the text in: the query's session zone, else the server's; it infers Date/DateTime/DateTime64 back
     * from these), {@link TypedValue} → its value, anything else → string of {@code toString()}
     * (InetAddress → its address).
     *
     * @param sb         the builder to append to
     * @param v          the value, possibly {@code null}
     * @param serverZone the zone the server reads date-time text in
     * @throws IllegalArgumentException if {@code v} is nested deeper than 1000 levels
     */
    public static void appendJava(StringBuilder sb, Object v, ZoneId serverZone) {
        appendJava(sb, v, serverZone, 0);
    }

    /** The wall clock the server parses back to {@code i} in {@code zone} (its own printing rules). */
    private static LocalDateTime wallClock(Instant i, ZoneId zone) {
        return ClickHouseZoneRules.of(zone).toLocalDateTime(i.getEpochSecond(), i.getNano());
    }

    private static void appendJava(StringBuilder sb, Object v, ZoneId zone, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("value nested deeper than " + MAX_DEPTH);
        }
        if (v instanceof TypedValue tv) {
            v = tv.value();
        }
        if (v instanceof java.util.Optional<?> o) {
            v = o.orElse(null);
        }
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                appendString(sb, String.valueOf(e.getKey()));
                sb.append(':');
                appendJava(sb, e.getValue(), zone, depth + 1);
            }
            sb.append('}');
        } else if (v instanceof CharSequence cs) {
            appendString(sb, cs.toString());
        } else if (v instanceof Boolean || v instanceof Long || v instanceof Integer || v instanceof Short
                || v instanceof Byte || v instanceof BigInteger) {
            sb.append(v);
        } else if (v instanceof BigDecimal d) {
            sb.append(d.toString());
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                sb.append("null");
            } else {
                String t = v instanceof Float f ? TextFormat.formatFloat(f) : TextFormat.formatDouble(d);
                sb.append(t);
                if (t.indexOf('.') < 0 && t.indexOf('e') < 0) {
                    sb.append(".0");
                }
            }
        } else if (v instanceof LocalDate d) {
            appendString(sb, d.toString());
        } else if (v instanceof LocalDateTime t) {
            appendString(sb, dateTime(t));
        } else if (v instanceof ZonedDateTime z) {
            appendString(sb, dateTime(wallClock(z.toInstant(), zone)));
        } else if (v instanceof OffsetDateTime o) {
            appendString(sb, dateTime(wallClock(o.toInstant(), zone)));
        } else if (v instanceof Instant i) {
            appendString(sb, dateTime(wallClock(i, zone)));
        } else if (v instanceof java.sql.Date d) {
            appendString(sb, d.toLocalDate().toString());
        } else if (v instanceof java.util.Date d) {
            appendString(sb, dateTime(wallClock(d.toInstant(), zone)));
        } else if (v instanceof InetAddress a) {
            appendString(sb, a.getHostAddress());
        } else if (v instanceof Iterable<?> it) {
            sb.append('[');
            boolean first = true;
            for (Object o : it) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                appendJava(sb, o, zone, depth + 1);
            }
            sb.append(']');
        } else if (v.getClass().isArray()) {
            sb.append('[');
            int n = Array.getLength(v);
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    sb.append(',');
                }
                appendJava(sb, Array.get(v, i), zone, depth + 1);
            }
            sb.append(']');
        } else {
            appendString(sb, v.toString());
        }
    }

    private static String dateTime(LocalDateTime t) {
        String s = DATE_TIME.format(t);
        if (t.getNano() != 0) {
            s += "." + String.format("%09d", t.getNano());
        }
        return s;
    }
}
