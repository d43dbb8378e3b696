package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Period;

/**
 * IntervalNanosecond, IntervalMicrosecond, IntervalMillisecond, IntervalSecond, IntervalMinute,
 * IntervalHour, IntervalDay, IntervalWeek, IntervalMonth, IntervalQuarter, IntervalYear: an Int64 count
 * of the unit per value (ClickHouse {@code DataTypeInterval}).
 *
 * <p>The writer accepts integer {@code Number}s and decimal {@code String}s (the count), a
 * {@link Duration} for Nanosecond..Week and a {@link Period} for Day..Year; a Duration/Period that is not
 * a whole number of the unit (e.g. 36 hours as IntervalDay, 1 month 3 days as IntervalMonth) throws
 * {@link ClickHouseTypeException}.
 */
public final class IntervalType extends FixedWidthType {

    /** Interval units, in the order of ClickHouse's {@code IntervalKind}. */
    public enum Unit {
        /** {@code IntervalNanosecond}. */
        NANOSECOND(1L),
        /** {@code IntervalMicrosecond}: 1,000 ns. */
        MICROSECOND(1_000L),
        /** {@code IntervalMillisecond}: 1,000,000 ns. */
        MILLISECOND(1_000_000L),
        /** {@code IntervalSecond}. */
        SECOND(1_000_000_000L),
        /** {@code IntervalMinute}: 60 s. */
        MINUTE(60_000_000_000L),
        /** {@code IntervalHour}: 3,600 s. */
        HOUR(3_600_000_000_000L),
        /** {@code IntervalDay}: counted as 86,400 s as a Duration, as 1 day as a Period. */
        DAY(86_400_000_000_000L),
        /** {@code IntervalWeek}: counted as 7 x 86,400 s as a Duration, as 7 days as a Period. */
        WEEK(604_800_000_000_000L),
        /** {@code IntervalMonth}: no fixed length; a Period of months. */
        MONTH(0),
        /** {@code IntervalQuarter}: no fixed length; a Period of 3 months each. */
        QUARTER(0),
        /** {@code IntervalYear}: no fixed length; a Period of years. */
        YEAR(0);

        private final long nanos;

        Unit(long nanos) {
            this.nanos = nanos;
        }

        /**
         * The ClickHouse type name, e.g. {@code IntervalDay}.
         *
         * @return {@code Interval} followed by the unit's name in title case
         */
        public String typeName() {
            String n = name();
            return "Interval" + n.charAt(0) + n.substring(1).toLowerCase(java.util.Locale.ROOT);
        }

        /**
         * Whether the unit has a fixed length (Nanosecond to Week).
         *
         * @return {@code true} when counts of this unit convert to a {@link Duration}
         */
        public boolean isFixedLength() {
            return nanos != 0;
        }

        /**
         * {@code count} units as a Duration.
         *
         * @param count the number of units, may be negative
         * @return the Duration of {@code count} units (a day is 86,400 seconds)
         * @throws UnsupportedOperationException for Month, Quarter and Year
         * @throws ArithmeticException           when the result overflows a Duration
         */
        public Duration toDuration(long count) {
            if (nanos == 0) {
                throw new UnsupportedOperationException(typeName() + " has no fixed length; use getPeriod");
            }
            if (nanos >= 1_000_000_000L) {
                return Duration.ofSeconds(Math.multiplyExact(count, nanos / 1_000_000_000L));
            }
            long perSecond = 1_000_000_000L / nanos;
            return Duration.ofSeconds(Math.floorDiv(count, perSecond), Math.floorMod(count, perSecond) * nanos);
        }

        /**
         * {@code count} units as a Period.
         *
         * @param count the number of units, may be negative
         * @return a Period of days (Day, Week) or of months or years (Month, Quarter, Year)
         * @throws UnsupportedOperationException for units shorter than a day
         * @throws ArithmeticException           when the days, months or years overflow an {@code int}
         */
        public Period toPeriod(long count) {
            return switch (this) {
                case DAY -> Period.ofDays(Math.toIntExact(count));
                case WEEK -> Period.ofDays(Math.toIntExact(Math.multiplyExact(count, 7)));
                case MONTH -> Period.ofMonths(Math.toIntExact(count));
                case QUARTER -> Period.ofMonths(Math.toIntExact(Math.multiplyExact(count, 3)));
                case YEAR -> Period.ofYears(Math.toIntExact(count));
                default -> throw new UnsupportedOperationException(typeName() + " is shorter than a day; use getDuration");
            };
        }

        static Unit of(String typeName) {
            for (Unit u : values()) {
                if (u.typeName().equals(typeName)) {
                    return u;
                }
            }
            return null;
        }
    }

    private final Unit unit;

    IntervalType(String name, Unit unit) {
        super(name, 8, (t, rows, data) -> new IntervalColumn(t, rows, data, unit));
        this.unit = unit;
    }

    /** Resolves an Interval type name, or returns {@code null} when {@code n} is not one. */
    static IntervalType of(TypeNode n) {
        Unit u = Unit.of(n.name());
        if (u == null) {
            return null;
        }
        if (!n.params().isEmpty()) {
            throw new ClickHouseTypeException("type " + n.name() + " takes no parameters: " + n);
        }
        return new IntervalType(n.toString(), u);
    }

    /**
     * The unit each stored Int64 counts.
     *
     * @return the unit, never {@code null}
     */
    public Unit unit() {
        return unit;
    }

    long count(Object v) {
        if (v instanceof Duration d) {
            if (!unit.isFixedLength()) {
                throw new ClickHouseTypeException("a Duration cannot be stored in " + name + "; use a Period or a count");
            }
            BigInteger[] qr = BigInteger.valueOf(d.getSeconds()).multiply(BigInteger.valueOf(1_000_000_000L))
                    .add(BigInteger.valueOf(d.getNano())).divideAndRemainder(BigInteger.valueOf(unit.nanos));
            if (qr[1].signum() != 0 || qr[0].bitLength() > 63) {
                throw new ClickHouseTypeException("Duration " + d + " is not a whole number of units of " + name);
            }
            return qr[0].longValue();
        }
        if (v instanceof Period p) {
            long months = p.toTotalMonths();
            long days = p.getDays();
            long r = switch (unit) {
                case DAY -> months == 0 ? days : Long.MIN_VALUE;
                case WEEK -> months == 0 && days % 7 == 0 ? days / 7 : Long.MIN_VALUE;
                case MONTH -> days == 0 ? months : Long.MIN_VALUE;
                case QUARTER -> days == 0 && months % 3 == 0 ? months / 3 : Long.MIN_VALUE;
                case YEAR -> days == 0 && months % 12 == 0 ? months / 12 : Long.MIN_VALUE;
                default -> throw new ClickHouseTypeException("a Period cannot be stored in " + name
                        + "; use a Duration or a count");
            };
            if (r == Long.MIN_VALUE) {
                throw new ClickHouseTypeException("Period " + p + " is not a whole number of units of " + name);
            }
            return r;
        }
        if (v == null) {
            throw ColumnWriter.notNullable(name);
        }
        return Convert.toLong(this, v, Long.MIN_VALUE, Long.MAX_VALUE, false);
    }

    @Override
    public ColumnWriter newWriter() {
        return new FixedWriter(this) {
            @Override
            public void append(Object v) {
                putLong(count(v));
            }

            @Override
            public void appendAll(Object values) {
                if (values instanceof long[] a) {
                    for (long x : a) {
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
        return ValueTypes.isIntegral(v);
    }
}
