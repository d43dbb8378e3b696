package dev.clickhousetcp.client;

import dev.clickhousetcp.data.TextFormat;

import java.lang.reflect.Array;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Iterator;
import java.util.Map;

/**
 * Encodes query parameter values for the native protocol: ClickHouse reads each value as a quoted
 * string ({@code readQuoted}) and parses its content with the placeholder type's escaped text
 * deserialization. So a value is rendered to ClickHouse text (strings escaped, composite values in
 * their literal form), then single-quoted with backslash escapes.
 */
final class ParameterFormat {
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private ParameterFormat() {
    }

    static String encode(Object value) {
        StringBuilder quoted = new StringBuilder();
        TextFormat.appendQuoted(quoted, text(value, true));
        return quoted.toString();
    }

    /** ClickHouse text form; top-level strings in escaped form, nested ones as quoted literals. */
    private static String text(Object v, boolean topLevel) {
        if (v == null) {
            return topLevel ? "\\N" : "NULL";
        }
        if (v instanceof CharSequence || v instanceof Character || v instanceof java.util.UUID || v instanceof Enum<?>) {
            String s = v instanceof Enum<?> e ? e.name() : v.toString();
            if (topLevel) {
                return escape(s);
            }
            StringBuilder sb = new StringBuilder();
            TextFormat.appendQuoted(sb, s);
            return sb.toString();
        }
        // instants as Unix seconds (DateTime and DateTime64 both parse them, whatever their zone or the
        // session's); a fraction only when present, since DateTime rejects one
        if (v instanceof Instant i) {
            return wrap(unixSeconds(i), topLevel);
        }
        if (v instanceof ZonedDateTime z) {
            return text(z.toInstant(), topLevel);
        }
        if (v instanceof OffsetDateTime o) {
            return text(o.toInstant(), topLevel);
        }
        if (v instanceof LocalDateTime l) {
            return wrap(DATE_TIME.format(l) + fraction(l.getNano()), topLevel);
        }
        if (v instanceof java.time.LocalTime t) {
            return wrap(TIME.format(t) + fraction(t.getNano()), topLevel);
        }
        if (v instanceof java.time.LocalDate d) {
            return wrap(d.toString(), topLevel);
        }
        if (v instanceof java.util.Date d) {
            return text(d.toInstant(), topLevel);
        }
        if (v instanceof java.net.InetAddress a) {
            return wrap(a.getHostAddress(), topLevel);
        }
        if (v instanceof Map<?, ?> m) {
            StringBuilder sb = new StringBuilder("{");
            Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                sb.append(text(e.getKey(), false)).append(':').append(text(e.getValue(), false));
                if (it.hasNext()) {
                    sb.append(',');
                }
            }
            return sb.append('}').toString();
        }
        if (v instanceof Iterable<?> it) {
            StringBuilder sb = new StringBuilder("[");
            for (Object o : it) {
                if (sb.length() > 1) {
                    sb.append(',');
                }
                sb.append(text(o, false));
            }
            return sb.append(']').toString();
        }
        if (v.getClass().isArray()) {
            if (v instanceof byte[]) {
                throw new dev.clickhousetcp.ClickHouseTypeException("cannot send byte[] as a query parameter; "
                        + "pass a String");
            }
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < Array.getLength(v); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                sb.append(text(Array.get(v, i), false));
            }
            return sb.append(']').toString();
        }
        if (v instanceof Boolean b) {
            return b ? "true" : "false";
        }
        if (v instanceof Double d) {
            return TextFormat.formatDouble(d);
        }
        if (v instanceof Float f) {
            return TextFormat.formatFloat(f);
        }
        if (v instanceof java.math.BigDecimal bd) {
            return bd.toPlainString();
        }
        if (v instanceof Number) {
            return v.toString();
        }
        throw new dev.clickhousetcp.ClickHouseTypeException("cannot send a " + v.getClass().getName()
                + " as a query parameter; use a String, number, boolean, UUID, enum, java.time value, "
                + "InetAddress, array, List or Map");
    }

    /**
     * Unix seconds as the server's DateTime/DateTime64 text parser reads them: at least five digits
     * (it rejects a shorter number such as {@code 1000} as a malformed date-time) and a fraction that
     * carries the sign of the whole number ({@code -00001.25} is 1.25 s before the epoch). The server
     * drops the sign of {@code -00000.f}, so an instant less than one second before the epoch with a
     * fraction does not survive.
     */
    private static String unixSeconds(Instant i) {
        long sec = i.getEpochSecond();
        int nano = i.getNano();
        boolean negative = sec < 0;
        if (negative && nano > 0) {
            sec++;
            nano = 1_000_000_000 - nano;
        }
        String digits = Long.toString(Math.abs(sec));
        return (negative ? "-" : "") + "0".repeat(Math.max(0, 5 - digits.length())) + digits + fraction(nano);
    }

    /** ".fff" with trailing zeros removed, or "" for a whole second. */
    private static String fraction(int nanos) {
        if (nanos == 0) {
            return "";
        }
        String f = String.format(java.util.Locale.ROOT, "%09d", nanos);
        int end = f.length();
        while (f.charAt(end - 1) == '0') {
            end--;
        }
        return "." + f.substring(0, end);
    }

    private static String wrap(String s, boolean topLevel) {
        if (topLevel) {
            return s;
        }
        StringBuilder sb = new StringBuilder();
        TextFormat.appendQuoted(sb, s);
        return sb.toString();
    }

    /** Escaped text format: backslash escapes for backslash, tab, newline and friends. */
    private static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\t' -> sb.append("\\t");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '\0' -> sb.append("\\0");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
