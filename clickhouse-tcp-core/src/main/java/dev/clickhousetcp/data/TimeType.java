package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.math.BigInteger;
import java.time.Duration;
import java.time.LocalTime;

/**
 * Time (Int32 seconds) and Time64(p) (Int64 ticks of 10^-p seconds, p = 0..9): signed time spans,
 * little-endian (ClickHouse {@code DataTypeTime}, {@code DataTypeTime64}; neither takes a time zone).
 *
 * <p>The writer accepts {@link Duration} and {@link LocalTime} (sub-tick digits truncated toward
 * zero), integer {@code Number}s as the raw value (seconds for Time, ticks for Time64, like
 * DateTime64's writer), and text {@code [-]H:MM:SS[.fraction]} (any number of hour digits). Values
 * outside Int32 (Time) or Int64 (Time64) throw {@link ClickHouseTypeException}.
 */
public final class TimeType extends FixedWidthType {
    private static final long[] POW10 = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L,
        100_000_000L, 1_000_000_000L};
    private final int scale;
    private final boolean wide;

    TimeType(String name, boolean wide, int scale) {
        super(name, wide ? 8 : 4, (t, rows, data) -> new TimeColumn(t, rows, data, wide ? 8 : 4, scale));
        if (scale < 0 || scale > 9) {
            throw new ClickHouseTypeException("Time64 precision must be 0..9: " + name);
        }
        this.wide = wide;
        this.scale = scale;
    }

    /** Resolves {@code Time} or {@code Time64(p)}. */
    static TimeType of(TypeNode n) {
        boolean time64 = n.name().equals("Time64");
        if (n.params().size() != (time64 ? 1 : 0) || time64 && !(n.params().get(0) instanceof TypeNode.NumberParam)) {
            throw new ClickHouseTypeException(time64 ? "Time64 takes one parameter, the precision: " + n
                    : "type Time takes no parameters: " + n);
        }
        int scale = 0;
        if (time64) {
            try {
                scale = ((TypeNode.NumberParam) n.params().get(0)).intValue();
            } catch (NumberFormatException e) {
                throw new ClickHouseTypeException("Time64 precision must be an integer: " + n, e);
            }
        }
        return new TimeType(n.toString(), time64, scale);
    }

    /**
     * Digits after the second (0 for Time).
     *
     * @return the precision of Time64, 0 for Time
     */
    public int scale() {
        return scale;
    }

    /**
     * Whether this is Time64 (8-byte ticks) rather than Time (4-byte seconds).
     *
     * @return {@code true} for Time64
     */
    public boolean isTime64() {
        return wide;
    }

    /** The raw value (seconds or ticks) of a Java value. */
    long raw(Object v) {
        long unit = POW10[9 - scale];
        long div = POW10[scale];
        try {
            if (v instanceof Duration d) {
                long t = Math.addExact(Math.multiplyExact(d.getSeconds(), div), d.getNano() / unit);
                if (d.getSeconds() < 0 && d.getNano() % unit != 0) {
                    t++;
                }
                return t;
            }
            if (v instanceof LocalTime t) {
                return t.toNanoOfDay() / unit;
            }
            if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                return ((Number) v).longValue();
            }
            if (v instanceof BigInteger b) {
                return b.longValueExact();
            }
            if (v instanceof String s) {
                return parse(s.trim(), s);
            }
        } catch (ArithmeticException e) {
            throw Convert.outOfRange(this, v);
        }
        if (v == null) {
            throw ColumnWriter.notNullable(name);
        }
        throw ColumnWriter.cannotConvert(this, v);
    }

    private long parse(String s, Object original) {
        boolean neg = s.startsWith("-");
        String body = neg ? s.substring(1) : s;
        String[] parts = body.split(":", -1);
        try {
            if (parts.length != 3 || parts[0].isEmpty() || parts[1].length() != 2 || parts[2].length() < 2) {
                throw new NumberFormatException();
            }
            long h = Long.parseLong(parts[0]);
            int m = Integer.parseInt(parts[1]);
            String sec = parts[2];
            int dot = sec.indexOf('.');
            int ss = Integer.parseInt(dot < 0 ? sec : sec.substring(0, dot));
            if (h < 0 || m < 0 || m > 59 || ss < 0 || ss > 59 || (dot < 0 ? sec.length() : dot) != 2) {
                throw new NumberFormatException();
            }
            long frac = 0;
            if (dot >= 0) {
                String f = sec.substring(dot + 1);
                if (f.isEmpty() || !f.chars().allMatch(Character::isDigit)) {
                    throw new NumberFormatException();
                }
                String kept = f.length() > scale ? f.substring(0, scale) : f + "0".repeat(scale - f.length());
                frac = kept.isEmpty() ? 0 : Long.parseLong(kept);
            }
            long t = Math.addExact(Math.multiplyExact(Math.addExact(Math.multiplyExact(h, 3600), m * 60L + ss),
                    POW10[scale]), frac);
            return neg ? -t : t;
        } catch (NumberFormatException e) {
            throw new ClickHouseTypeException("cannot parse '" + original + "' as ClickHouse type " + name
                    + " (expected [-]H:MM:SS[.fraction])", e);
        }
    }

    @Override
    public ColumnWriter newWriter() {
        return new FixedWriter(this) {
            @Override
            public void append(Object v) {
                long r = raw(v);
                if (!wide && r != (int) r) {
                    throw Convert.outOfRange(type, v);
                }
                putLong(r);
            }

            @Override
            public void appendAll(Object values) {
                if (values instanceof long[] a && wide) {
                    for (long x : a) {
                        putLong(x);
                    }
                } else if (values instanceof int[] a && !wide) {
                    for (int x : a) {
                        putLong(x);
                    }
                } else {
                    ColumnWriter.appendEach(this, values);
                }
            }
        };
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return v instanceof LocalTime || v instanceof Duration;
    }
}
