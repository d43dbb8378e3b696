package dev.clickhousetcp.sample;

import java.time.Instant;
import java.util.List;

/**
 * One event, as posted to {@code POST /events}.
 *
 * <pre>{@code
 * {"eventTime": "2025-01-02T03:04:05.678Z", "userId": 42, "eventType": "click", "value": 1.5, "tags": ["web"]}
 * }</pre>
 * Only {@code userId} and {@code eventType} are required: {@code eventTime} defaults to now,
 * {@code value} to 0 and {@code tags} to none.
 *
 * @param eventTime when it happened (millisecond precision is kept)
 * @param userId who did it, 0 or more
 * @param eventType what happened, for example {@code page_view}
 * @param value an amount attached to the event, for example a price
 * @param tags free-form labels
 */
public record Event(Instant eventTime, Long userId, String eventType, Double value, List<String> tags) {

    /**
     * The row for {@code INSERT INTO events (event_time, user_id, event_type, value, tags)}, with
     * defaults filled in.
     * @param now the time to use when {@code eventTime} is missing
     * @return the row values
     * @throws IllegalArgumentException if {@code userId} or {@code eventType} is missing or invalid
     */
    Object[] toRow(Instant now) {
        if (this.userId == null || this.userId < 0) {
            throw new IllegalArgumentException("userId is required and must not be negative");
        }
        if (this.eventType == null || this.eventType.isBlank()) {
            throw new IllegalArgumentException("eventType is required");
        }
        return new Object[] { (this.eventTime != null) ? this.eventTime : now, this.userId, this.eventType,
                (this.value != null) ? this.value : 0.0, (this.tags != null) ? this.tags : List.of() };
    }
}
