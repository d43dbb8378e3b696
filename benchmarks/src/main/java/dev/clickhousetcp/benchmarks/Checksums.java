package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.data.ArrayColumn;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.DecimalColumn;
import dev.clickhousetcp.data.Float32Column;
import dev.clickhousetcp.data.Float64Column;
import dev.clickhousetcp.data.LowCardinalityColumn;
import dev.clickhousetcp.data.MapColumn;
import dev.clickhousetcp.data.NullableColumn;
import dev.clickhousetcp.data.StringColumn;
import dev.clickhousetcp.data.TupleColumn;
import dev.clickhousetcp.data.UuidColumn;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One checksum computed two independent ways: {@link #column} walks a block-tier column through its
 * typed accessors (no boxing), {@link #value} folds the boxed value of the Object[] tier. The
 * per-type benchmark requires both to agree (and the row count to be the requested one) before it
 * times anything.
 */
final class Checksums {
    private Checksums() {
    }

    /** Sum over rows [0, rows) of the column, by its typed accessors. */
    static long column(Column c, int from, int to) {
        long sum = 0;
        if (c instanceof NullableColumn n) {
            Column inner = n.nested();
            for (int i = from; i < to; i++) {
                sum += n.isNull(i) ? 1 : scalar(inner, i);
            }
        } else if (c instanceof LowCardinalityColumn lc) {
            Column dict = lc.dictionary();
            for (int i = from; i < to; i++) {
                sum += lc.isNull(i) ? 1 : scalar(dict, lc.key(i));
            }
        } else if (c instanceof ArrayColumn a) {
            for (int i = from; i < to; i++) {
                sum += a.length(i) + column(a.elements(), a.start(i), a.start(i) + a.length(i));
            }
        } else if (c instanceof MapColumn m) {
            for (int i = from; i < to; i++) {
                int s = m.start(i);
                int e = s + m.length(i);
                sum += m.length(i) + column(m.keys(), s, e) + column(m.values(), s, e);
            }
        } else if (c instanceof TupleColumn t) {
            sum += (long) (to - from) * t.elementCount();
            for (int k = 0; k < t.elementCount(); k++) {
                sum += column(t.element(k), from, to);
            }
        } else if (c instanceof StringColumn s) {
            for (int i = from; i < to; i++) {
                sum += s.length(i);
            }
        } else if (c instanceof UuidColumn u) {
            for (int i = from; i < to; i++) {
                sum += u.getMostSignificantBits(i) ^ u.getLeastSignificantBits(i);
            }
        } else if (c instanceof DecimalColumn d) {
            for (int i = from; i < to; i++) {
                sum += d.getUnscaledLow(i);
            }
        } else if (c instanceof Float64Column || c instanceof Float32Column) {
            for (int i = from; i < to; i++) {
                sum += (long) c.getDouble(i);
            }
        } else {
            for (int i = from; i < to; i++) {
                sum += c.getLong(i);
            }
        }
        return sum;
    }

    private static long scalar(Column c, int i) {
        if (c instanceof StringColumn s) {
            return s.length(i);
        }
        if (c instanceof Float64Column || c instanceof Float32Column) {
            return (long) c.getDouble(i);
        }
        return c.getLong(i);
    }

    /** The same checksum from a boxed value as {@code queryRows} returns it. */
    static long value(Object v) {
        if (v == null) {
            return 1;
        }
        if (v instanceof String s) {
            return s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        }
        if (v instanceof BigDecimal d) {
            return d.unscaledValue().longValue();
        }
        if (v instanceof BigInteger b) {
            return b.longValue();
        }
        if (v instanceof Double || v instanceof Float) {
            return (long) ((Number) v).doubleValue();
        }
        if (v instanceof Number n) {
            return n.longValue();
        }
        if (v instanceof UUID u) {
            return u.getMostSignificantBits() ^ u.getLeastSignificantBits();
        }
        if (v instanceof LocalDate d) {
            return d.toEpochDay();
        }
        if (v instanceof LocalDateTime t) {
            return t.toEpochSecond(java.time.ZoneOffset.UTC);
        }
        if (v instanceof ZonedDateTime z) {
            return z.toEpochSecond();
        }
        if (v instanceof java.time.Instant t) {
            return t.getEpochSecond();
        }
        if (v instanceof java.time.OffsetDateTime t) {
            return t.toEpochSecond();
        }
        if (v instanceof Map<?, ?> m) {
            long sum = m.size();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sum += value(e.getKey()) + value(e.getValue());
            }
            return sum;
        }
        if (v instanceof List<?> l) {
            long sum = l.size();
            for (Object o : l) {
                sum += value(o);
            }
            return sum;
        }
        if (v instanceof Object[] a) {
            long sum = a.length;
            for (Object o : a) {
                sum += value(o);
            }
            return sum;
        }
        if (v instanceof long[] a) {
            long sum = a.length;
            for (long x : a) {
                sum += x;
            }
            return sum;
        }
        throw new IllegalStateException("no checksum rule for " + v.getClass());
    }
}
