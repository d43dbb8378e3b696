package dev.clickhousetcp.data;


import java.time.LocalDate;
import java.time.ZoneId;

/**
 * Date (UInt16 days since 1970-01-01) and Date32 (Int32 days since 1970-01-01). A date has no zone;
 * {@link #zone()} is the zone the writer takes the day of an {@code Instant} in (the query's session
 * zone, else the server's), as the server's {@code toDate} of a DateTime does.
 */
public final class DateType extends FixedWidthType {
    private final boolean date32;
    private final ZoneId zone;
    private final ClickHouseZoneRules rules;

    DateType(String name, boolean date32, ZoneId zone) {
        super(name, date32 ? 4 : 2, (t, rows, data) -> new DateColumn(t, rows, data, date32 ? 4 : 2));
        this.date32 = date32;
        this.zone = zone;
        this.rules = ClickHouseZoneRules.of(zone);
    }

    /**
     * The zone points in time are turned into days in.
     *
     * @return the query's session zone, else the server's
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
                long day = Convert.epochDay(type, v, rules);
                // Date covers 1970-01-01..2149-06-06; Date32 1900-01-01..2299-12-31 (ClickHouse docs)
                if (date32 ? (day < -25567 || day > 120529) : (day < 0 || day > 65535)) {
                    throw Convert.outOfRange(type, v);
                }
                putLong(day);
            }
        };
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return v instanceof LocalDate || v instanceof java.sql.Date;
    }
}
