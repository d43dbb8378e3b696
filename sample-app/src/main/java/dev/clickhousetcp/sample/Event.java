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
 * Only {@code userId} and {@code eventType} are required: {@code eventTime} defaults to now,
 * {@code value} to 0 and {@code tags} to none ({@link #withDefaults(Instant)}).
 *
 * @param eventTime when it happened (millisecond precision is kept)
 * @param userId who did it, 0 or more
 * @param eventType what happened, for example {@code page_view}
 * @param value an amount attached to the event, for example a price
 * @param tags free-form labels
 */
public record Event(Instant eventTime, Long userId, String eventType, Double value, List<String> tags) {

    /**
     * This event checked and with its defaults filled in, ready to insert (the table's columns are not
     * Nullable, so no component may stay {@code null}).
     * @param now the time to use when {@code eventTime} is missing
     * @return the complete event
     * @throws IllegalArgumentException if {@code userId} or {@code eventType} is missing or invalid
     */
    Event withDefaults(Instant now) {
        if (this.userId == null || this.userId < 0) {
            throw new IllegalArgumentException("userId is required and must not be negative");
        }
        if (this.eventType == null || this.eventType.isBlank()) {
            throw new IllegalArgumentException("eventType is required");
        }
        if (this.tags != null && this.tags.contains(null)) {
            throw new IllegalArgumentException("tags must not contain null");
        }
        return new Event((this.eventTime != null) ? this.eventTime : now, this.userId, this.eventType,
                (this.value != null) ? this.value : 0.0, (this.tags != null) ? List.copyOf(this.tags) : List.of());
    }
}
