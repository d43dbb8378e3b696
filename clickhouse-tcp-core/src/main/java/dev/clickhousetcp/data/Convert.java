package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Date;

/** Java value to wire value conversions shared by the writers. */
final class Convert {
    private Convert() {
    }

    /** An integral value within {@code [min, max]} (max compared unsigned when {@code unsigned64}). */
    static long toLong(DataType t, Object v, long min, long max, boolean unsigned64) {
        long r;
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            r = ((Number) v).longValue();
            if (unsigned64 && r < 0) {
                throw outOfRange(t, v);
            }
        } else if (v instanceof BigInteger bi) {
            if (unsigned64) {
                if (bi.signum() < 0 || bi.bitLength() > 64) {
                    throw outOfRange(t, v);
                }
                return bi.longValue();
            }
            if (bi.bitLength() > 63) {
                throw outOfRange(t, v);
            }
            r = bi.longValue();
        } else if (v instanceof Boolean b) {
            r = b ? 1 : 0;
        } else if (v instanceof Number n) {
            // doubles, floats, BigDecimal and other numbers: exactly, never by saturating casts
            BigDecimal exact;
            if (v instanceof BigDecimal bd) {
                exact = bd;
            } else {
                double d = n.doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    throw new ClickHouseTypeException("value " + v + " is not an integer for ClickHouse type " + t.name());
                }
                exact = new BigDecimal(d);
            }
            BigInteger bi;
            try {
                bi = exact.toBigIntegerExact();
            } catch (ArithmeticException e) {
                throw new ClickHouseTypeException("value " + v + " is not an integer for ClickHouse type " + t.name(), e);
            }
            return toLong(t, bi, min, max, unsigned64);
        } else if (v instanceof String s) {
            try {
                if (unsigned64) {
                    return Long.parseUnsignedLong(s.trim());
                }
                r = Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                throw new ClickHouseTypeException("cannot parse '" + s + "' as ClickHouse type " + t.name(), e);
            }
        } else {
            throw ColumnWriter.cannotConvert(t, v);
        }
        if (!unsigned64 && (r < min || r > max)) {
            throw outOfRange(t, v);
        }
        return r;
    }

    static double toDouble(DataType t, Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof String s) {
            try {
                return switch (s.trim().toLowerCase()) {
                    case "inf", "+inf" -> Double.POSITIVE_INFINITY;
                    case "-inf" -> Double.NEGATIVE_INFINITY;
                    case "nan" -> Double.NaN;
                    default -> Double.parseDouble(s.trim());
                };
            } catch (NumberFormatException e) {
                throw new ClickHouseTypeException("cannot parse '" + s + "' as ClickHouse type " + t.name(), e);
            }
        }
        throw ColumnWriter.cannotConvert(t, v);
    }

    static ClickHouseTypeException outOfRange(DataType t, Object v) {
        return new ClickHouseTypeException("value " + v + " is out of range for ClickHouse type " + t.name());
    }

    /**
     * A day number from date values; a point in time gives its day as the server's {@code toDate}
     * computes it: an {@code Instant} or {@code java.util.Date} in {@code zone} (the zone the server
     * reads a DateTime without an explicit zone in), a {@code ZonedDateTime}/{@code OffsetDateTime} in
     * its own zone.
     */
    static long epochDay(DataType t, Object v, ClickHouseZoneRules zone) {
        if (v instanceof LocalDate d) {
            return d.toEpochDay();
        }
        if (v instanceof LocalDateTime d) {
            return d.toLocalDate().toEpochDay();
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate().toEpochDay();
        }
        if (v instanceof Instant i) {
            return zone.toLocalDate(i.getEpochSecond()).toEpochDay();
        }
        if (v instanceof ZonedDateTime z) {
            return ClickHouseZoneRules.of(z.getZone()).toLocalDate(z.toEpochSecond()).toEpochDay();
        }
        if (v instanceof OffsetDateTime o) {
            return o.toLocalDate().toEpochDay();
        }
        if (v instanceof Date d) {
            return zone.toLocalDate(Math.floorDiv(d.getTime(), 1000L)).toEpochDay();
        }
        if (v instanceof String s) {
            try {
                return LocalDate.parse(s.trim()).toEpochDay();
            } catch (DateTimeParseException e) {
                throw new ClickHouseTypeException("cannot parse '" + s + "' as ClickHouse type " + t.name(), e);
            }
        }
        if (v instanceof Number n) {
            return n.longValue();
        }
        throw ColumnWriter.cannotConvert(t, v);
    }

    /**
     * An instant from temporal values. LocalDateTime, LocalDate (its midnight) and text are wall-clock
     * times in {@code zone}, converted as the server's text parser converts them
     * ({@link ClickHouseZoneRules#toEpochSecond}: a time inside a daylight-saving gap lands one gap
     * earlier), so a value stores what {@code INSERT ... VALUES} of its text stores.
     */
    static Instant instant(DataType t, Object v, ClickHouseZoneRules zone) {
        if (v instanceof Instant i) {
            return i;
        }
        if (v instanceof ZonedDateTime z) {
            return z.toInstant();
        }
        if (v instanceof OffsetDateTime o) {
            return o.toInstant();
        }
        if (v instanceof LocalDateTime l) {
            return wallClock(l, zone);
        }
        if (v instanceof LocalDate d) {
            return wallClock(d.atStartOfDay(), zone);
        }
        if (v instanceof Date d) {
            return d.toInstant();
        }
        if (v instanceof String s) {
            String x = s.trim().replace(' ', 'T');
            try {
                return wallClock(LocalDateTime.parse(x), zone);
            } catch (DateTimeParseException e) {
                try {
                    return OffsetDateTime.parse(x).toInstant();
                } catch (DateTimeParseException e2) {
                    throw new ClickHouseTypeException("cannot parse '" + s + "' as ClickHouse type " + t.name(), e2);
                }
            }
        }
        throw ColumnWriter.cannotConvert(t, v);
    }

    private static Instant wallClock(LocalDateTime l, ClickHouseZoneRules zone) {
        return Instant.ofEpochSecond(zone.toEpochSecond(l), l.getNano());
    }
}
