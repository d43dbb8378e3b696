package dev.clickhousetcp.spring.core;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.clickhousetcp.client.QueryOptions;

import org.jspecify.annotations.Nullable;

/**
 * Prepares Java values for {@link QueryOptions.Builder#parameter(String, Object)}, which renders them
 * as ClickHouse text and quotes them for the native protocol.
 *
 * <p>Strings, characters, enums, UUIDs, numbers, booleans, {@code LocalDate}, {@code null},
 * collections, arrays and maps go to the client as they are (containers with their elements
 * prepared). Date-time values are rendered here, in the forms the server parses for both
 * {@code DateTime} and {@code DateTime64} parameters:
 * <ul>
 * <li>{@code Instant}, {@code OffsetDateTime}, {@code ZonedDateTime}, {@code java.util.Date},
 * {@code java.sql.Timestamp} → Unix time in seconds, with a decimal fraction only when the value has
 * one ({@code 1704164645} or {@code 1704164645.123}): zone-independent, so the instant is kept whatever
 * the parameter type's time zone; a {@code DateTime} parameter needs a whole second;</li>
 * <li>{@code LocalDateTime} → {@code 2024-01-02 03:04:05[.fraction]}, the fraction only when non-zero
 * (read in the parameter type's time zone); {@code LocalTime} → {@code 03:04:05[.fraction]};
 * {@code java.sql.Date} → its {@code LocalDate}; {@code InetAddress} → its address text.</li>
 * </ul>
 * Any other type is rejected with {@link IllegalArgumentException} rather than sent as its
 * {@code toString()}.
 *
 * <p>Stateless and thread-safe.
 */
final class QueryParameterValues {

    private QueryParameterValues() {
    }

    /**
     * @param value a parameter value, may be {@code null}
     * @return the value to hand to {@code QueryOptions.Builder.parameter}
     * @throws IllegalArgumentException if the value, or an element of it, has an unsupported type
     */
    static @Nullable Object prepare(@Nullable Object value) {
        if (value == null || value instanceof CharSequence || value instanceof Character || value instanceof Enum<?>
                || value instanceof UUID || value instanceof Boolean || value instanceof LocalDate) {
            return value;
        }
        if (value instanceof Number number) {
            return (number instanceof BigDecimal || number instanceof Double || number instanceof Float
                    || number instanceof Long || number instanceof Integer || number instanceof Short
                    || number instanceof Byte || number instanceof java.math.BigInteger) ? number
                            : new BigDecimal(number.toString());
        }
        if (value instanceof Map<?, ?> map) {
            Map<@Nullable Object, @Nullable Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(prepare(k), prepare(v)));
            return out;
        }
        if (value instanceof Iterable<?> iterable) {
            List<@Nullable Object> out = new ArrayList<>();
            for (Object element : iterable) {
                out.add(prepare(element));
            }
            return out;
        }
        if (value.getClass().isArray()) {
            int n = Array.getLength(value);
            List<@Nullable Object> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(prepare(Array.get(value, i)));
            }
            return out;
        }
        String text = dateTimeText(value);
        if (text != null) {
            return text;
        }
        if (value instanceof InetAddress address) {
            return address.getHostAddress();
        }
        throw new IllegalArgumentException("Unsupported query parameter type " + value.getClass().getName()
                + "; use a String, Number, Boolean, UUID, enum, java.time value, collection, array or map");
    }

    private static @Nullable String dateTimeText(Object value) {
        if (value instanceof LocalDateTime dateTime) {
            return dateTime.toLocalDate() + " " + timeText(dateTime.toLocalTime());
        }
        if (value instanceof LocalTime time) {
            return timeText(time);
        }
        if (value instanceof java.sql.Date date) {
            return date.toLocalDate().toString();
        }
        if (value instanceof java.sql.Time time) {
            return timeText(time.toLocalTime());
        }
        Instant instant = null;
        if (value instanceof Instant i) {
            instant = i;
        }
        else if (value instanceof OffsetDateTime offsetDateTime) {
            instant = offsetDateTime.toInstant();
        }
        else if (value instanceof ZonedDateTime zonedDateTime) {
            instant = zonedDateTime.toInstant();
        }
        else if (value instanceof java.sql.Timestamp timestamp) {
            instant = timestamp.toInstant();
        }
        else if (value instanceof java.util.Date date) {
            instant = Instant.ofEpochMilli(date.getTime());
        }
        return (instant != null) ? epochText(instant) : null;
    }

    /**
     * Unix seconds, with a decimal fraction only when there is one (also right before 1970), and at
     * least five digits before it: the server's DateTime text parser rejects a shorter number such as
     * {@code 1000} as a malformed date-time, while {@code 01000} is Unix time in every zone.
     */
    static String epochText(Instant instant) {
        String text = (instant.getNano() == 0) ? Long.toString(instant.getEpochSecond())
                : BigDecimal.valueOf(instant.getEpochSecond())
                    .add(BigDecimal.valueOf(instant.getNano(), 9))
                    .stripTrailingZeros()
                    .toPlainString();
        int sign = text.startsWith("-") ? 1 : 0;
        int dot = text.indexOf('.');
        int digits = ((dot < 0) ? text.length() : dot) - sign;
        return (digits >= 5) ? text : text.substring(0, sign) + "0".repeat(5 - digits) + text.substring(sign);
    }

    /** {@code HH:mm:ss} plus the fraction without trailing zeros, if any. */
    static String timeText(LocalTime time) {
        StringBuilder out = new StringBuilder(18);
        two(out, time.getHour()).append(':');
        two(out, time.getMinute()).append(':');
        two(out, time.getSecond());
        int nanos = time.getNano();
        if (nanos != 0) {
            String digits = Integer.toString(nanos + 1_000_000_000).substring(1);
            int end = digits.length();
            while (digits.charAt(end - 1) == '0') {
                end--;
            }
            out.append('.').append(digits, 0, end);
        }
        return out.toString();
    }

    private static StringBuilder two(StringBuilder out, int value) {
        if (value < 10) {
            out.append('0');
        }
        return out.append(value);
    }
}
