package dev.clickhousetcp.sample;

import java.time.Instant;
import java.util.List;

/**
 * One event: the JSON body of {@code POST /events}, the row the template inserts into the events table and
 * the row {@code GET /events/export} streams out. The template matches components to columns by name,
 * ignoring case and underscores ({@code eventTime} to {@code event_time}), both ways.
 *
 * <pre>{@code
 * {"eventTime": "2025-01-02T03:04:05.678Z", "userId": 42, "eventType": "click", "value": 1.5, "tags": ["web"]}
 * }</pre>
 * Only {@code userId} (an integer: {@code 1.5} is refused) and {@code eventType} are required:
 * {@code eventTime} defaults to now, {@code value} to 0 and {@code tags} to none ({@link #withDefaults(Instant)}).
 *
 * @param eventTime when it happened (millisecond precision is kept)
 * @param userId who did it, 0 or more
 * @param eventType what happened, for example {@code page_view}
 * @param value an amount attached to the event, for example a price
 * @param tags free-form labels
 */
public record Event(Instant eventTime, Long userId, String eventType, Double value, List<String> tags) {

    private static final String MIN_TEXT = "1970-01-01T00:00:00Z";

    private static final String MAX_TEXT = "2105-12-31T23:59:59.999Z";

    /**
     * The earliest {@code eventTime} accepted. The column ({@code DateTime64(3)}) holds 1900 to 2299, but the
     * analytics buckets ({@code toStartOfMinute}, {@code toStartOfHour}, {@code toStartOfDay}) return a
     * {@code DateTime}, which starts at the Unix epoch: an earlier event would land in a wrapped bucket.
     */
    static final Instant MIN_EVENT_TIME = Instant.parse(MIN_TEXT);

    /**
     * The latest {@code eventTime} accepted: a {@code DateTime} (32-bit unsigned Unix seconds) ends on
     * 2106-02-07, so the end of 2105 keeps every bucket of every accepted event in range.
     */
    static final Instant MAX_EVENT_TIME = Instant.parse(MAX_TEXT);

    /**
     * This event checked and with its defaults filled in, ready to insert (the table's columns are not
     * Nullable, so no component may stay {@code null}).
     * @param now the time to use when {@code eventTime} is missing
     * @return the complete event
     * @throws IllegalArgumentException if {@code userId} or {@code eventType} is missing or invalid, if
     *         {@code eventTime} is outside 1970-01-01T00:00:00Z to 2105-12-31T23:59:59.999Z, or if {@code value} is
     *         NaN or infinite
     */
    Event withDefaults(Instant now) {
        if (this.userId == null || this.userId < 0) {
            throw new IllegalArgumentException("userId is required and must not be negative");
        }
        if (this.eventType == null || this.eventType.isBlank()) {
            throw new IllegalArgumentException("eventType is required");
        }
        if (this.eventTime != null
                && (this.eventTime.isBefore(MIN_EVENT_TIME) || this.eventTime.isAfter(MAX_EVENT_TIME))) {
            throw new IllegalArgumentException("eventTime must be between " + MIN_TEXT + " and " + MAX_TEXT + ", got "
                    + this.eventTime);
        }
        if (this.value != null && !Double.isFinite(this.value)) {
            throw new IllegalArgumentException("value must be a finite number, got " + this.value);
        }
        if (this.tags != null && this.tags.contains(null)) {
            throw new IllegalArgumentException("tags must not contain null");
        }
        return new Event((this.eventTime != null) ? this.eventTime : now, this.userId, this.eventType,
                (this.value != null) ? this.value : 0.0, (this.tags != null) ? List.copyOf(this.tags) : List.of());
    }
}
