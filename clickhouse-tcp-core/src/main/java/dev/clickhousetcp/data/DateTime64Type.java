package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.math.BigInteger;
import java.time.Instant;
import java.time.ZoneId;

/**
 * DateTime64(p[, tz]): Int64 ticks of 10^-p seconds since the epoch (p = 0..9). Java numbers given to
 * the writer are raw ticks; temporal values are scaled (sub-tick digits truncated toward the past).
 */
public final class DateTime64Type extends FixedWidthType {
    private final int scale;
    private final ZoneId zone;
    private final ClickHouseZoneRules rules;

    DateTime64Type(String name, int scale, ZoneId zone) {
        super(name, 8, (t, rows, data) -> new DateTime64Column(t, rows, data, scale, zone));
        if (scale < 0 || scale > 9) {
            throw new ClickHouseTypeException("DateTime64 precision must be 0..9: " + name);
        }
        this.scale = scale;
        this.zone = zone;
        this.rules = ClickHouseZoneRules.of(zone);
    }

    /**
     * The precision p: digits after the second, so one tick is 10^-p seconds.
     *
     * @return the precision, 0 to 9 (3 for milliseconds, 6 for microseconds, 9 for nanoseconds)
     */
    public int scale() {
        return scale;
    }

    /**
     * The zone values are shown and wall-clock values are read in: the type's, else the session's, else the server's.
     *
     * @return the zone, never {@code null}
     */
    public ZoneId zone() {
        return zone;
    }

    @Override
    public ColumnWriter newWriter() {
        long pow = BigInteger.TEN.pow(scale).longValueExact();
        long nanosPerTick = BigInteger.TEN.pow(9 - scale).longValueExact();
        return new FixedWriter(this) {
            @Override
            public void append(Object v) {
                if (v == null) {
                    throw ColumnWriter.notNullable(type.name());
                }
                long ticks;
                if (v instanceof Long || v instanceof Integer || v instanceof BigInteger) {
                    ticks = ((Number) v).longValue();
                } else {
                    Instant i = Convert.instant(type, v, rules);
                    try {
                        ticks = Math.addExact(Math.multiplyExact(i.getEpochSecond(), pow), i.getNano() / nanosPerTick);
                    } catch (ArithmeticException e) {
                        throw Convert.outOfRange(type, v);
                    }
                }
                putLong(ticks);
            }
        };
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return ValueTypes.isDateTime(v);
    }
}
