package dev.clickhousetcp.sample;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.clickhousetcp.protocol.ServerHello;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Repository;

/**
 * All ClickHouse access of the sample app, through the auto-configured {@link ClickHouseTcpTemplate}. The
 * analytics rows are records filled by the client's compiled mappers (columns matched to components by name,
 * {@code total_value} to {@code totalValue}); they are declared with {@code @ClickHouseMappedTypes} on
 * {@link SampleApplication} for native images.
 * Creates the events table, if missing, when the application starts (so startup fails fast when
 * ClickHouse cannot be reached). Thread-safe.
 */
@Repository
public class EventRepository implements InitializingBean {

    static final List<String> COLUMNS = List.of("event_time", "user_id", "event_type", "value", "tags");

    private static final String[] EVENT_TYPES = { "page_view", "click", "add_to_cart", "purchase", "signup" };

    private static final String[] TAGS = { "mobile", "web", "promo", "beta", "eu", "us" };

    private final ClickHouseTcpTemplate template;

    private final String table;

    /**
     * @param template the auto-configured template
     * @param properties where the events live
     */
    public EventRepository(ClickHouseTcpTemplate template, EventsProperties properties) {
        this.template = template;
        this.table = properties.getTable();
    }

    @Override
    public void afterPropertiesSet() {
        createTable();
    }

    /** Creates the events table unless it exists. */
    public void createTable() {
        this.template.execute("CREATE TABLE IF NOT EXISTS " + this.table + " ("
                + "event_time DateTime64(3, 'UTC'), "
                + "user_id UInt64, "
                + "event_type LowCardinality(String), "
                + "value Float64, "
                + "tags Array(String)"
                + ") ENGINE = MergeTree ORDER BY (event_type, event_time)");
    }

    /**
     * Inserts rows in the column order of {@link #COLUMNS}.
     * @param rows the rows
     * @return rows inserted
     */
    public long insert(List<Object[]> rows) {
        return this.template.insert(this.table, COLUMNS, rows);
    }

    /**
     * Has the server generate and insert random events of the last 24 hours ({@code INSERT ... SELECT
     * ... FROM numbers(n)}); nothing crosses the network but the statement.
     * @param count how many
     * @return rows inserted
     */
    public long generateOnServer(long count) {
        this.template.execute("INSERT INTO " + this.table + " (event_time, user_id, event_type, value, tags) "
                + "SELECT now64(3, 'UTC') - toIntervalMillisecond(rand(1) % 86400000), "
                + "rand64(2) % 1000 + 1, "
                + "['page_view', 'click', 'add_to_cart', 'purchase', 'signup'][rand(3) % 5 + 1], "
                + "round(randCanonical(4) * 100, 2), "
                + "arraySlice(['mobile', 'web', 'promo', 'beta', 'eu', 'us'], rand(5) % 6 + 1, rand(6) % 3) "
                + "FROM numbers({count:UInt64})", Map.of("count", count));
        return count;
    }

    /**
     * Generates random events of the last 24 hours in the app and inserts them in batches.
     * @param count how many
     * @param batchSize rows per INSERT
     * @return rows inserted
     */
    public long generateInClient(long count, int batchSize) {
        SplittableRandom random = new SplittableRandom();
        long now = Instant.now().toEpochMilli();
        long inserted = 0;
        List<Object[]> batch = new ArrayList<>((int) Math.min(count, batchSize));
        for (long i = 0; i < count; i++) {
            List<String> tags = new ArrayList<>(2);
            int first = random.nextInt(TAGS.length);
            for (int t = 0, n = random.nextInt(3); t < n && first + t < TAGS.length; t++) {
                tags.add(TAGS[first + t]);
            }
            batch.add(new Object[] { Instant.ofEpochMilli(now - random.nextLong(86_400_000L)),
                    random.nextLong(1000) + 1, EVENT_TYPES[random.nextInt(EVENT_TYPES.length)],
                    Math.round(random.nextDouble() * 10_000) / 100.0, tags });
            if (batch.size() == batchSize) {
                inserted += insert(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            inserted += insert(batch);
        }
        return inserted;
    }

    /** @return events per type, most frequent first */
    public List<TypeCount> countsByType() {
        return this.template.query("SELECT event_type, count() AS events, round(sum(value), 2) AS total_value FROM "
                + this.table + " GROUP BY event_type ORDER BY events DESC, event_type", TypeCount.class);
    }

    /**
     * @param limit how many users
     * @return the users with the most events
     */
    public List<UserActivity> topUsers(int limit) {
        return this.template.query("SELECT user_id, count() AS events, round(sum(value), 2) AS total_value, "
                + "max(event_time) AS last_seen FROM " + this.table
                + " GROUP BY user_id ORDER BY events DESC, user_id LIMIT {limit:UInt32}", Map.of("limit", limit),
                UserActivity.class);
    }

    /**
     * @param bucket bucket width
     * @param eventType only this type, or {@code null} for all
     * @param limit the most recent buckets to return
     * @return buckets in time order
     */
    public List<TimeBucket> timeline(Bucket bucket, String eventType, int limit) {
        String where = (eventType != null) ? " WHERE event_type = {type:String}" : "";
        Map<String, Object> params = (eventType != null) ? Map.of("type", eventType, "limit", limit)
                : Map.of("limit", limit);
        return this.template.query("SELECT * FROM (SELECT " + bucket.function + "(event_time) AS bucket, "
                + "count() AS events, round(sum(value), 2) AS total_value FROM " + this.table + where
                + " GROUP BY bucket ORDER BY bucket DESC LIMIT {limit:UInt32}) ORDER BY bucket", params,
                TimeBucket.class);
    }

    /** @return totals over all events, with the server's version */
    public Summary summary() {
        Summary totals = this.template.queryForObject("SELECT count(), uniqExact(user_id), uniqExact(event_type), "
                + "min(event_time), max(event_time) FROM " + this.table, Map.of(), (row, rowNum) -> {
                    long events = row.getLong(0);
                    return new Summary(events, row.getLong(1), row.getLong(2),
                            (events > 0) ? ((ZonedDateTime) row.getObject(3)).toInstant() : null,
                            (events > 0) ? ((ZonedDateTime) row.getObject(4)).toInstant() : null, null, null);
                });
        ServerHello hello = this.template.getClient().serverInfo();
        return new Summary(totals.totalEvents(), totals.distinctUsers(), totals.eventTypes(), totals.firstEvent(),
                totals.lastEvent(), hello.version(), hello.displayName());
    }

    /** Width of a timeline bucket, with the ClickHouse function that truncates to it. */
    public enum Bucket {

        /** One minute. */
        MINUTE("toStartOfMinute"),
        /** One hour. */
        HOUR("toStartOfHour"),
        /** One day. */
        DAY("toStartOfDay");

        private final String function;

        Bucket(String function) {
            this.function = function;
        }
    }

    /**
     * @param eventType the type
     * @param events how many
     * @param totalValue sum of their values
     */
    public record TypeCount(String eventType, long events, double totalValue) {
    }

    /**
     * @param userId the user
     * @param events how many events
     * @param totalValue sum of their values
     * @param lastSeen time of the latest
     */
    public record UserActivity(long userId, long events, double totalValue, Instant lastSeen) {
    }

    /**
     * @param bucket start of the bucket
     * @param events how many events
     * @param totalValue sum of their values
     */
    public record TimeBucket(Instant bucket, long events, double totalValue) {
    }

    /**
     * @param totalEvents all events
     * @param distinctUsers distinct user ids
     * @param eventTypes distinct event types
     * @param firstEvent earliest event time, {@code null} when empty
     * @param lastEvent latest event time, {@code null} when empty
     * @param serverVersion ClickHouse version
     * @param serverDisplayName ClickHouse display name
     */
    public record Summary(long totalEvents, long distinctUsers, long eventTypes, Instant firstEvent,
            Instant lastEvent, String serverVersion, String serverDisplayName) {
    }
}
