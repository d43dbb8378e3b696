package dev.clickhousetcp.data;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Wall-clock times of one time zone converted to and from instants exactly as ClickHouse converts
 * them, which differs from {@link java.time} for times inside a daylight-saving gap and on days whose
 * midnight falls into a transition.
 *
 * <p>ClickHouse keeps, per time zone, a table with one entry per civil day ({@code DateLUTImpl},
 * filled in {@code src/Common/DateLUTImpl.cpp}): the instant the day starts, and, for a day whose UTC
 * offset changes, the second of the day the change happens at and its amount (both in whole 15-minute
 * units). From it ({@code src/Common/DateLUTImpl.h}):
 * <ul>
 *   <li>{@code makeDateTime} (used by the text parser of DateTime and DateTime64, so by
 *       {@code INSERT ... VALUES ('2024-03-10 02:30:00')} and {@code toDateTime('...')}) maps the
 *       wall clock {@code s} seconds into the day to {@code dayStart + s}, minus the change amount when
 *       {@code s} is at or after the change. A time inside a spring-forward gap therefore lands one
 *       gap <em>earlier</em> (America/New_York 2024-03-10 02:30 is stored as 01:30 EST, 06:30Z, where
 *       {@code java.time} moves it forward to 03:30 EDT, 07:30Z); a time inside a fall-back overlap
 *       takes the earlier offset, as in {@code java.time}.</li>
 *   <li>{@code toDateTimeComponents} (used to print DateTime and DateTime64 text, so by
 *       {@code toString}) finds the last day starting at or before the instant and adds the change
 *       amount to seconds at or after the change point; hours past 23 print as 23, negative times as
 *       00:00:00.</li>
 *   <li>a day starts at its midnight, taken with the offset in force before a transition that skips or
 *       repeats it ({@code lookupTz}: the second midnight when the transition reaches back into the
 *       previous day).</li>
 * </ul>
 * On ordinary days and for all instants outside transition days both directions agree with
 * {@code java.time}. Thread-safe; instances are cached per zone.
 */
public final class ClickHouseZoneRules {
    /** ClickHouse stores offset changes in units of 15 minutes ({@code Values::OffsetChangeFactor}). */
    private static final int OFFSET_CHANGE_FACTOR = 900;
    private static final int MAX_CACHED_ZONES = 1024;
    private static final int DAY_CACHE = 1024;
    private static final Map<ZoneId, ClickHouseZoneRules> CACHE = new ConcurrentHashMap<>();

    private final ZoneId zone;
    private final ZoneRules rules;
    /** The zone's offset when it never changes, else null. */
    private final ZoneOffset fixedOffset;
    /** The offset after the last transition when no later transition exists, else null. */
    private final ZoneOffset finalOffset;
    /** Instants from which on {@link #finalOffset} applies to every whole day. */
    private final long finalFrom;
    /** Direct-mapped cache of computed days; entries are immutable, so racy publication is safe. */
    private final Day[] days = new Day[DAY_CACHE];

    /**
     * One civil day as ClickHouse's table holds it.
     *
     * @param epochDay the day
     * @param start    the Unix second the day starts at
     * @param changeAt the second of the day (wall clock before the change) the offset changes at
     * @param change   the offset change in seconds (positive: clocks go forward)
     */
    private record Day(long epochDay, long start, long changeAt, long change) {
    }

    private ClickHouseZoneRules(ZoneId zone) {
        this.zone = zone;
        this.rules = zone.getRules();
        this.fixedOffset = rules.isFixedOffset() ? rules.getOffset(Instant.EPOCH) : null;
        List<ZoneOffsetTransition> transitions = rules.getTransitions();
        if (fixedOffset == null && rules.getTransitionRules().isEmpty() && !transitions.isEmpty()) {
            ZoneOffsetTransition last = transitions.get(transitions.size() - 1);
            finalOffset = last.getOffsetAfter();
            // two days later, no day can still start before the last transition
            finalFrom = last.toEpochSecond() + 2 * 86_400L;
        } else {
            finalOffset = null;
            finalFrom = Long.MAX_VALUE;
        }
    }

    /**
     * Zone names ClickHouse's time zone data knows and the JDK's does not, with the zone each is a link
     * to in ClickHouse's data (checked against the server's offsets since 1906).
     */
    private static final Map<String, String> LINKS = Map.of("EST", "America/Panama", "MST", "America/Phoenix",
            "HST", "Pacific/Honolulu", "ROC", "Asia/Taipei", "Factory", "UTC");

    /**
     * The zone a ClickHouse time zone name stands for: {@link ZoneId#of} of it, or for the few names
     * the JDK lacks ({@code EST}, {@code MST}, {@code HST}, {@code ROC}, {@code Factory}) the zone
     * ClickHouse links them to.
     *
     * @param name a time zone name as the server sends it, e.g. {@code Europe/Berlin} or {@code EST}
     * @return the zone
     * @throws java.time.DateTimeException when neither knows the name
     */
    public static ZoneId zoneId(String name) {
        try {
            return ZoneId.of(name);
        } catch (java.time.DateTimeException e) {
            String link = LINKS.get(name);
            if (link == null) {
                throw e;
            }
            return ZoneId.of(link);
        }
    }

    /**
     * The rules of {@code zone}, cached per zone (up to 1024 zones).
     *
     * @param zone the time zone
     * @return the shared rules instance for that zone
     */
    public static ClickHouseZoneRules of(ZoneId zone) {
        ClickHouseZoneRules r = CACHE.get(zone);
        if (r == null) {
            r = new ClickHouseZoneRules(zone);
            if (CACHE.size() < MAX_CACHED_ZONES) {
                ClickHouseZoneRules prev = CACHE.putIfAbsent(zone, r);
                if (prev != null) {
                    r = prev;
                }
            }
        }
        return r;
    }

    /**
     * The zone.
     *
     * @return the zone these rules convert in
     */
    public ZoneId zone() {
        return zone;
    }

    /**
     * The zone's offset when it is the same at every instant (UTC, fixed offsets).
     *
     * @return the fixed offset, or {@code null} for a zone with transitions
     */
    public ZoneOffset fixedOffset() {
        return fixedOffset;
    }

    /**
     * The Unix second ClickHouse stores for the wall-clock time {@code t} (its fraction of a second is
     * ignored), as its text parser computes it ({@code DateLUTImpl::makeDateTime}).
     *
     * @param t the wall-clock date-time in this zone
     * @return the seconds since 1970-01-01T00:00:00Z the server would store
     */
    public long toEpochSecond(LocalDateTime t) {
        if (fixedOffset != null) {
            return t.toEpochSecond(fixedOffset);
        }
        long epochDay = t.toLocalDate().toEpochDay();
        if (finalOffset != null && epochDay * 86_400L > finalFrom) {
            return t.toEpochSecond(finalOffset);
        }
        Day d = day(epochDay);
        long s = t.toLocalTime().toSecondOfDay();
        if (s >= d.changeAt) {
            s -= d.change;
        }
        return d.start + s;
    }

    /**
     * The wall-clock time ClickHouse prints for the instant {@code epochSecond} + {@code nano}
     * ({@code DateLUTImpl::toDateTimeComponents}); {@code nano} is kept as the fraction.
     *
     * @param epochSecond seconds since 1970-01-01T00:00:00Z
     * @param nano        nanoseconds within the second, in {@code [0, 999_999_999]}
     * @return the wall-clock date-time the server prints for that instant
     */
    public LocalDateTime toLocalDateTime(long epochSecond, int nano) {
        if (fixedOffset != null) {
            return LocalDateTime.ofEpochSecond(epochSecond, nano, fixedOffset);
        }
        if (finalOffset != null && epochSecond > finalFrom) {
            return LocalDateTime.ofEpochSecond(epochSecond, nano, finalOffset);
        }
        Day d = dayOf(epochSecond);
        long s = epochSecond - d.start;
        if (s >= d.changeAt) {
            s += d.change;
        }
        LocalTime time;
        if (s < 0) {
            time = LocalTime.of(0, 0, 0, nano);
        } else {
            int hour = (int) Math.min(s / 3600, 23);
            time = LocalTime.of(hour, (int) (s / 60 % 60), (int) (s % 60), nano);
        }
        return LocalDateTime.of(LocalDate.ofEpochDay(d.epochDay), time);
    }

    /**
     * The civil day ClickHouse assigns to the instant {@code epochSecond} ({@code toDate}).
     *
     * @param epochSecond seconds since 1970-01-01T00:00:00Z
     * @return the date of the last day that starts at or before the instant
     */
    public LocalDate toLocalDate(long epochSecond) {
        if (fixedOffset != null) {
            return LocalDate.ofEpochDay(Math.floorDiv(epochSecond + fixedOffset.getTotalSeconds(), 86_400L));
        }
        if (finalOffset != null && epochSecond > finalFrom) {
            return LocalDate.ofEpochDay(Math.floorDiv(epochSecond + finalOffset.getTotalSeconds(), 86_400L));
        }
        return LocalDate.ofEpochDay(dayOf(epochSecond).epochDay);
    }

    /** The last day starting at or before {@code t} ({@code DateLUTImpl::findIndex}). */
    private Day dayOf(long t) {
        long guess = Math.floorDiv(t, 86_400L);
        Day g = day(guess);
        if (t >= g.start) {
            Day next = day(guess + 1);
            return t < next.start ? g : next;
        }
        return day(guess - 1);
    }

    private Day day(long epochDay) {
        int slot = (int) (epochDay & (DAY_CACHE - 1));
        Day d = days[slot];
        if (d == null || d.epochDay != epochDay) {
            d = compute(epochDay);
            days[slot] = d;
        }
        return d;
    }

    /** One entry of ClickHouse's table, as {@code DateLUTImpl::DateLUTImpl} fills it. */
    private Day compute(long epochDay) {
        LocalDate date = LocalDate.ofEpochDay(epochDay);
        LocalDateTime midnight = date.atStartOfDay();
        long start;
        ZoneOffsetTransition atMidnight = rules.getTransition(midnight);
        if (atMidnight == null) {
            start = midnight.toEpochSecond(rules.getOffset(midnight));
        } else {
            // lookupTz: the second midnight when the transition lies before it, else the first
            long pre = midnight.toEpochSecond(atMidnight.getOffsetBefore());
            long post = midnight.toEpochSecond(atMidnight.getOffsetAfter());
            start = atMidnight.toEpochSecond() < post ? post : pre;
        }
        long changeAt = 0;
        long change = 0;
        // the first transition at or after the day's start, if it happens on this day
        ZoneOffsetTransition next = rules.nextTransition(Instant.ofEpochSecond(start - 1));
        if (next != null) {
            LocalDateTime from = next.getDateTimeBefore();
            LocalDateTime to = next.getDateTimeAfter();
            if (from.toLocalDate().equals(date) || to.toLocalDate().equals(date)) {
                long midnightLocal = midnight.toEpochSecond(ZoneOffset.UTC);
                long fromLocal = from.toEpochSecond(ZoneOffset.UTC);
                long toLocal = to.toEpochSecond(ZoneOffset.UTC);
                // stored as UInt8 and Int8 counts of 15 minutes, truncated toward zero
                int at = (int) ((fromLocal - midnightLocal) / OFFSET_CHANGE_FACTOR) & 0xFF;
                int amount = (byte) ((toLocal - fromLocal) / OFFSET_CHANGE_FACTOR);
                amount = Math.max(-24 * 4, Math.min(24 * 4, amount)); // "We don't support too large changes"
                if (at + amount < 0) {
                    at = -amount; // a change must not move the day's times into the previous day
                }
                changeAt = (long) at * OFFSET_CHANGE_FACTOR;
                change = (long) amount * OFFSET_CHANGE_FACTOR;
            }
        }
        if (change == 0) {
            changeAt = Long.MAX_VALUE; // nothing to adjust (ClickHouse's 0 + 0 adjusts by nothing too)
        }
        return new Day(epochDay, start, changeAt, change);
    }
}
