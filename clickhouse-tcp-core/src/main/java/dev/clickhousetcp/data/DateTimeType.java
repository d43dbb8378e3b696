package dev.clickhousetcp.data;


import java.time.Instant;
import java.time.ZoneId;

/**
 * DateTime[(tz)]: UInt32 seconds since the epoch. The zone is the type's, else the query's session zone
 * ({@code session_timezone}), else the server's (ServerHello timezone); it only affects how values are
 * shown and how wall-clock values (LocalDateTime, LocalDate, text) convert, by the server's own rules
 * ({@link ClickHouseZoneRules}).
 */
public final class DateTimeType extends FixedWidthType {
    private final ZoneId zone;
    private final ClickHouseZoneRules rules;

    DateTimeType(String name, ZoneId zone) {
        super(name, 4, (t, rows, data) -> new DateTimeColumn(t, rows, data, zone));
        this.zone = zone;
        this.rules = ClickHouseZoneRules.of(zone);
    }

    /**
     * The zone values are shown and wall-clock values are read in.
     *
     * @return the type's zone, else the session's, else the server's
     */
    public ZoneId zone() {
        return zone;
    }

    @Override
    public ColumnWriter newWriter() {
        return new FixedWriter(this) {
            @Override
            public void append(Object v) {
                if (v == null) {
                    throw ColumnWriter.notNullable(type.name());
                }
                long sec;
                if (v instanceof Number n && !(v instanceof Double) && !(v instanceof Float)) {
                    sec = n.longValue();
                } else {
                    Instant i = Convert.instant(type, v, rules);
                    sec = i.getEpochSecond();
                }
                if (sec < 0 || sec > 0xFFFFFFFFL) {
                    throw Convert.outOfRange(type, v);
                }
                putLong(sec);
            }
        };
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return ValueTypes.isDateTime(v);
    }
}
