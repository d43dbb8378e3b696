package dev.clickhousetcp.client;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.fuzz.FuzzSupport;
import org.junit.jupiter.api.Timeout;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Coverage-guided fuzzing of the query-parameter formatter ({@link ParameterFormat#encode}, what
 * {@code QueryOptions.Builder.parameter} sends): values of every supported kind (strings of any
 * UTF-16 content, numbers, NaN and infinities, big decimals, booleans, UUIDs, enums, instants and
 * local date-times over the whole range, IP addresses, arrays, lists and maps nested a few levels,
 * NULL) and unsupported ones.
 *
 * <p>Invariants: a value encodes, or {@link ClickHouseTypeException} for an unsupported kind; the
 * encoding is one single-quoted literal that ClickHouse's {@code readQuoted} reads to its end (no
 * unescaped quote inside, no dangling backslash); for a top-level string, reading the literal and
 * then unescaping it as escaped text gives the string back; nothing else; no hang.
 */
class ParameterFormatFuzzTest {

    enum Color { RED, GREEN }

    @FuzzTest(maxDuration = "10s")
    @Timeout(FuzzSupport.INPUT_TIMEOUT_SECONDS)
    void parameter(FuzzedDataProvider data) {
        boolean topString = data.consumeBoolean();
        Object value = topString ? data.consumeString(200) : value(data, 0);
        String encoded;
        try {
            encoded = ParameterFormat.encode(value);
        } catch (ClickHouseTypeException expected) {
            return;
        }
        String content = readQuoted(encoded);
        if (value instanceof String s && !unescape(content).equals(s)) {
            throw new AssertionError("string parameter does not survive: " + s + " -> " + encoded);
        }
    }

    private static Object value(FuzzedDataProvider d, int depth) {
        int kind = d.consumeInt(0, depth > 3 ? 17 : 21);
        return switch (kind) {
            case 0 -> null;
            case 1 -> d.consumeString(64);
            case 2 -> d.consumeLong();
            case 3 -> d.consumeInt();
            case 4 -> d.consumeDouble();
            case 5 -> d.consumeFloat();
            case 6 -> new BigDecimal(new BigInteger(d.consumeBytes(20).length == 0 ? new byte[] {0}
                    : nonEmpty(d.consumeBytes(20))), d.consumeInt(-40, 40));
            case 7 -> d.consumeBoolean();
            case 8 -> new UUID(d.consumeLong(), d.consumeLong());
            case 9 -> Color.values()[d.consumeInt(0, 1)];
            case 10 -> Instant.ofEpochSecond(d.consumeLong(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()),
                    d.consumeInt(0, 999_999_999));
            case 11 -> LocalDateTime.ofEpochSecond(d.consumeLong(LocalDateTime.MIN.toEpochSecond(ZoneOffset.UTC),
                    LocalDateTime.MAX.toEpochSecond(ZoneOffset.UTC)), d.consumeInt(0, 999_999_999), ZoneOffset.UTC);
            case 12 -> LocalDate.ofEpochDay(d.consumeLong(-365243219162L, 365241780471L));
            case 13 -> LocalTime.ofNanoOfDay(d.consumeLong(0, 86_399_999_999_999L));
            case 14 -> inet(d.consumeBytes(d.consumeBoolean() ? 4 : 16));
            case 15 -> d.consumeChar();
            case 16 -> d.consumeBytes(8);
            case 17 -> new Object();
            case 18 -> {
                List<Object> l = new ArrayList<>();
                for (int i = d.consumeInt(0, 4); i > 0; i--) {
                    l.add(value(d, depth + 1));
                }
                yield l;
            }
            case 19 -> {
                Object[] a = new Object[d.consumeInt(0, 4)];
                for (int i = 0; i < a.length; i++) {
                    a[i] = value(d, depth + 1);
                }
                yield a;
            }
            case 20 -> {
                Map<Object, Object> m = new LinkedHashMap<>();
                for (int i = d.consumeInt(0, 4); i > 0; i--) {
                    m.put(value(d, depth + 1), value(d, depth + 1));
                }
                yield m;
            }
            default -> new long[] {d.consumeLong(), d.consumeLong()};
        };
    }

    private static byte[] nonEmpty(byte[] b) {
        return b.length == 0 ? new byte[] {0} : b;
    }

    private static InetAddress inet(byte[] b) {
        try {
            return InetAddress.getByAddress(b.length == 4 || b.length == 16 ? b : new byte[4]);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** ClickHouse {@code readQuoted}: the content of a single-quoted literal that must span the whole text. */
    static String readQuoted(String s) {
        if (s.length() < 2 || s.charAt(0) != '\'') {
            throw new AssertionError("not a quoted literal: " + s);
        }
        StringBuilder sb = new StringBuilder();
        int i = 1;
        while (true) {
            if (i >= s.length()) {
                throw new AssertionError("unterminated literal: " + s);
            }
            char c = s.charAt(i++);
            if (c == '\'') {
                if (i != s.length()) {
                    throw new AssertionError("text after the closing quote at " + i + ": " + s);
                }
                return sb.toString();
            }
            if (c == '\\') {
                if (i >= s.length()) {
                    throw new AssertionError("dangling backslash: " + s);
                }
                sb.append(unescapeChar(s.charAt(i++)));
            } else {
                sb.append(c);
            }
        }
    }

    /** ClickHouse escaped text ({@code readEscapedString}): backslash sequences undone. */
    static String unescape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                sb.append(unescapeChar(s.charAt(++i)));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static char unescapeChar(char e) {
        return switch (e) {
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case '0' -> '\0';
            case 'a' -> '\007';
            case 'v' -> '\013';
            default -> e;
        };
    }
}
