package dev.clickhousetcp.sample;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.mapping.SchemaReport;
import dev.clickhousetcp.protocol.ServerHello;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;

import org.springframework.stereotype.Repository;

/**
 * All ClickHouse access of the sample app, through the auto-configured {@link ClickHouseTcpTemplate}. Each
 * method shows the template's tier that fits its job:
 * <ul>
 * <li>records both ways for ingest and short lists ({@link #insert}, {@link #topUsers}, {@link #timeline}):
 * the compiled mappers match columns to components by name ({@code total_value} to {@code totalValue}); the
 * records are declared with {@code @ClickHouseMappedTypes} on {@link SampleApplication} for native images;</li>
 * <li>the block tier for the heavy aggregation ({@link #series}): typed columns read straight into
 * primitive arrays;</li>
 * <li>a lazy stream for the export ({@link #export}): one block of rows in memory at a time;</li>
 * <li>a session for a multi-step report with a temporary table ({@link #powerUsers});</li>
 * <li>a query with a query_id of the caller's choosing ({@link #slowReport}), which the caller can cancel.</li>
 * </ul>
 * The table is created by {@link SchemaInitializer}, not here. Thread-safe.
 */
@Repository
public class EventRepository {

    private static final String[] EVENT_TYPES = { "page_view", "click", "add_to_cart", "purchase", "signup" };

    private static final String[] TAGS = { "mobile", "web", "promo", "beta", "eu", "us" };

    /** Block tokens a plain MergeTree remembers: the blocks of the last inserts that a retry may repeat. */
    private static final int DEDUPLICATION_BLOCKS = 1000;

    private static final Pattern DEDUPLICATION_WINDOW =
            Pattern.compile("\\bnon_replicated_deduplication_window\\s*=\\s*(\\d+)");

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

    /** @return the events table, optionally qualified with a database ({@code db.table}) */
    public String table() {
        return this.table;
    }

    /**
     * Creates the events table unless it exists. {@code non_replicated_deduplication_window} makes a plain
     * MergeTree remember the hashes (or deduplication tokens) of its last 1000 inserted blocks, so an insert
     * retried with the same token is dropped instead of stored twice (a Replicated table does so by default).
     */
    public void createTable() {
        this.template.execute("CREATE TABLE IF NOT EXISTS " + this.table + " ("
                + "event_time DateTime64(3, 'UTC'), "
                + "user_id UInt64, "
                + "event_type LowCardinality(String), "
                + "value Float64, "
                + "tags Array(String)"
                + ") ENGINE = MergeTree ORDER BY (event_type, event_time) "
                + "SETTINGS non_replicated_deduplication_window = " + DEDUPLICATION_BLOCKS);
    }

    /**
     * Makes sure the table drops a retried insert. {@code CREATE TABLE IF NOT EXISTS} leaves a table that
     * already exists as it is, and a plain MergeTree keeps no block tokens unless its
     * {@code non_replicated_deduplication_window} is above 0 (its default is 0): such a table gets
     * {@code ALTER TABLE ... MODIFY SETTING non_replicated_deduplication_window = 1000}. A Replicated (or
     * Shared) MergeTree deduplicates by default; any other engine cannot, which the answer says.
     * @return whether inserts with a deduplication token are deduplicated, and why (or why not)
     */
    public Deduplication ensureDeduplication() {
        int dot = this.table.indexOf('.');
        Map<String, Object> params = new java.util.HashMap<>();
        params.put("name", (dot < 0) ? this.table : this.table.substring(dot + 1));
        String database = "currentDatabase()";
        if (dot >= 0) {
            params.put("db", this.table.substring(0, dot));
            database = "{db:String}";
        }
        List<Map<String, Object>> rows = this.template.queryForList("SELECT engine, create_table_query "
                + "FROM system.tables WHERE database = " + database + " AND name = {name:String}", params);
        if (rows.isEmpty()) {
            return new Deduplication(false, "the table " + this.table + " was not found in system.tables");
        }
        String engine = String.valueOf(rows.get(0).get("engine"));
        if (engine.startsWith("Replicated") || engine.startsWith("Shared")) {
            return new Deduplication(true, engine + " deduplicates inserts (replicated_deduplication_window)");
        }
        if (!engine.endsWith("MergeTree")) {
            return new Deduplication(false, "engine " + engine + " keeps no block tokens, so inserts cannot be "
                    + "deduplicated; recreate the table as a MergeTree");
        }
        Matcher window = DEDUPLICATION_WINDOW.matcher(String.valueOf(rows.get(0).get("create_table_query")));
        if (window.find() && Long.parseLong(window.group(1)) > 0) {
            return new Deduplication(true, "non_replicated_deduplication_window = " + window.group(1));
        }
        try {
            this.template.execute("ALTER TABLE " + this.table + " MODIFY SETTING non_replicated_deduplication_window = "
                    + DEDUPLICATION_BLOCKS);
        }
        catch (RuntimeException ex) {
            return new Deduplication(false, "non_replicated_deduplication_window is 0 and cannot be changed: "
                    + ex.getMessage());
        }
        return new Deduplication(true, "non_replicated_deduplication_window set to " + DEDUPLICATION_BLOCKS
                + " on the existing table");
    }

    /**
     * Whether the table deduplicates inserts with a deduplication token.
     * @param on {@code true} when a retried insert with the same token is dropped
     * @param detail the setting or engine that decides it, in words
     */
    public record Deduplication(boolean on, String detail) {
    }

    /**
     * Compares the {@link Event} record with the table's columns (names and types), as the template's
     * mappers will see them.
     * @return every mismatch; {@link SchemaReport#ok()} when there is none
     */
    public SchemaReport checkSchema() {
        return this.template.checkSchema(Event.class, this.table);
    }

    /**
     * Inserts events (records, matched to the table's columns by name).
     * <p>With a deduplication token the insert is idempotent: ClickHouse drops a block whose token it has
     * already seen, so the client may retry it by itself after a connection failure whose outcome is unknown
     * ({@code maxAttempts(3)}), and a client of this app may send the same request again with the same
     * {@code Idempotency-Key}. {@code tokenPerBlock} derives one token per block ({@code <token>-0},
     * {@code <token>-1}, ...) so that a batch larger than one block keeps all of its blocks. Without a token a
     * retry could store the rows twice, so there is none.
     * @param events complete events ({@link Event#withDefaults(Instant)})
     * @param deduplicationToken the request's idempotency key, or {@code null} for a plain insert
     * @return rows sent (a deduplicated retry reports them too: the server does not say which blocks it dropped)
     */
    public long insert(List<Event> events, String deduplicationToken) {
        if (deduplicationToken == null) {
            return this.template.insert(this.table, events);
        }
        return this.template.insertInto(this.table)
            .deduplicationToken(deduplicationToken)
            .tokenPerBlock(true)
            .maxAttempts(3)
            .insert(events);
    }

    /**
     * Has the server generate and insert random events of the last 24 hours ({@code INSERT ... SELECT
     * ... FROM numbers(n)}); nothing crosses the network but the statement.
     * @param count how many
     * @return rows inserted
     */
    public long generateOnServer(long count) {
        return this.template.execute("INSERT INTO " + this.table + " (event_time, user_id, event_type, value, tags) "
                + "SELECT now64(3, 'UTC') - toIntervalMillisecond(rand(1) % 86400000), "
                + "rand64(2) % 1000 + 1, "
                + "['page_view', 'click', 'add_to_cart', 'purchase', 'signup'][rand(3) % 5 + 1], "
                + "round(randCanonical(4) * 100, 2), "
                + "arraySlice(['mobile', 'web', 'promo', 'beta', 'eu', 'us'], rand(5) % 6 + 1, rand(6) % 3) "
                + "FROM numbers({count:UInt64})", Map.of("count", count)).writtenRows();
    }

    /**
     * Generates random events of the last 24 hours in the app and inserts them in batches of records.
     * @param count how many
     * @param batchSize rows per INSERT
     * @return rows inserted
     */
    public long generateInClient(long count, int batchSize) {
        SplittableRandom random = new SplittableRandom();
        long now = Instant.now().toEpochMilli();
        long inserted = 0;
        List<Event> batch = new ArrayList<>((int) Math.min(count, batchSize));
        for (long i = 0; i < count; i++) {
            int first = random.nextInt(TAGS.length);
            List<String> tags = Arrays.asList(TAGS).subList(first, Math.min(TAGS.length, first + random.nextInt(3)));
            batch.add(new Event(Instant.ofEpochMilli(now - random.nextLong(86_400_000L)), random.nextLong(1000) + 1,
                    EVENT_TYPES[random.nextInt(EVENT_TYPES.length)], Math.round(random.nextDouble() * 10_000) / 100.0,
                    tags));
            if (batch.size() == batchSize) {
                inserted += this.template.insert(this.table, batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            inserted += this.template.insert(this.table, batch);
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
        return this.template.query(timelineSql(bucket, eventType, "bucket"), timelineParams(eventType, limit),
                TimeBucket.class);
    }

    /**
     * The timeline as three parallel columns, the shape a chart library plots (uPlot's {@code [xs, ys...]}),
     * for up to 100,000 buckets.
     * <p>This is the heavy aggregation, so it uses the block tier ({@code queryBlocks}): the callback gets
     * each block of the result as typed columns and copies their values straight into primitive arrays — no
     * row objects, no boxed {@code Long}/{@code Double} per value, a few array copies per block instead of
     * one allocation per cell. Blocks are valid only inside the callback, so values are copied out there.
     * @param bucket bucket width
     * @param eventType only this type, or {@code null} for all
     * @param limit the most recent buckets to return
     * @return buckets in time order, as columns
     */
    public Series series(Bucket bucket, String eventType, int limit) {
        SeriesBuilder builder = new SeriesBuilder();
        this.template.sql(timelineSql(bucket, eventType, "toUnixTimestamp(bucket)"))
            .params(timelineParams(eventType, limit))
            .queryBlocks(builder::add);
        return builder.build();
    }

    private String timelineSql(Bucket bucket, String eventType, String bucketColumn) {
        String where = (eventType != null) ? " WHERE event_type = {type:String}" : "";
        return "SELECT " + bucketColumn + " AS bucket, events, total_value FROM (SELECT " + bucket.function
                + "(event_time) AS bucket, count() AS events, round(sum(value), 2) AS total_value FROM " + this.table
                + where + " GROUP BY bucket ORDER BY bucket DESC LIMIT {limit:UInt32}) ORDER BY bucket";
    }

    private static Map<String, Object> timelineParams(String eventType, int limit) {
        return (eventType != null) ? Map.of("type", eventType, "limit", limit) : Map.of("limit", limit);
    }

    /**
     * Streams events for an export: the template's {@code stream} reads one block at a time and maps its
     * rows lazily, so memory stays constant however many rows there are. The stream holds a pooled
     * connection until it is read to the end or closed: <b>close it</b> (try-with-resources); closing it early
     * cancels the query and returns the connection to the pool.
     * @param eventType only this type, or {@code null} for all
     * @param limit at most this many rows, or 0 for all
     * @return the events in the table's order; the caller closes it
     */
    public Stream<Event> export(String eventType, long limit) {
        String where = (eventType != null) ? " WHERE event_type = {type:String}" : "";
        String limitClause = (limit > 0) ? " LIMIT {limit:UInt64}" : "";
        Map<String, Object> params = new java.util.HashMap<>();
        if (eventType != null) {
            params.put("type", eventType);
        }
        if (limit > 0) {
            params.put("limit", limit);
        }
        return this.template.sql("SELECT event_time, user_id, event_type, value, tags FROM " + this.table + where
                + limitClause).params(params).stream(Event.class);
    }

    /**
     * A report in several steps over one session: the users with at least {@code minEvents} events are put
     * in a temporary table once, and two queries then use it. A temporary table lives only in its session
     * (one connection, closed when the callback returns), so it needs {@code inSession}: over the pool,
     * each call could run on another connection that does not have it.
     * @param minEvents events a user needs to count as a power user
     * @return how many power users there are and what they do
     */
    public PowerUsers powerUsers(long minEvents) {
        return this.template.inSession((session) -> {
            session.execute("CREATE TEMPORARY TABLE power_users (user_id UInt64) ENGINE = Memory");
            session.execute("INSERT INTO power_users SELECT user_id FROM " + this.table
                    + " GROUP BY user_id HAVING count() >= {min:UInt64}", Map.of("min", minEvents));
            Long users = session.queryForObject("SELECT count() FROM power_users", Long.class);
            List<TypeCount> byType = session.query("SELECT event_type, count() AS events, "
                    + "round(sum(value), 2) AS total_value FROM " + this.table
                    + " WHERE user_id IN power_users GROUP BY event_type ORDER BY events DESC, event_type",
                    TypeCount.class);
            return new PowerUsers(minEvents, (users != null) ? users : 0, byType);
        });
    }

    /**
     * A deliberately slow query standing for a long analytical one: {@code sleepEachRow} over small blocks
     * ({@code max_block_size = 10}: 0.1 s per block), so it runs for {@code seconds} unless cancelled, and a
     * cancel takes effect at the next block. It carries the caller's query_id, which names it in
     * {@code system.processes} and {@code system.query_log} (and lets any client end it with
     * {@code KILL QUERY WHERE query_id = ...}). Interrupting the calling thread cancels it: the client sends
     * Cancel, drains the response and the connection goes back to the pool.
     * @param queryId the query_id to run it under
     * @param seconds how long it runs, 1 to 3600
     * @return the rows it counted
     */
    public long slowReport(String queryId, int seconds) {
        Long rows = this.template.sql("SELECT count() FROM numbers({rows:UInt64}) WHERE NOT ignore(sleepEachRow(0.01))")
            .param("rows", seconds * 100L)
            .setting("max_block_size", 10)
            .queryId(queryId)
            .queryForObject(Long.class);
        return (rows != null) ? rows : 0;
    }

    /**
     * Whether a query runs on the server, from {@code system.processes}.
     * @param queryId its query_id
     * @return whether the server lists it as running
     */
    public boolean isRunning(String queryId) {
        Long count = this.template.queryForObject("SELECT count() FROM system.processes WHERE query_id = {id:String}",
                Map.of("id", queryId), Long.class);
        return count != null && count > 0;
    }

    /**
     * The server's spans of one trace, from {@code system.opentelemetry_span_log} (which the server writes
     * in the background, every 7.5 s by default; {@code flush} forces it).
     * @param traceId the trace id, 32 lowercase hex digits
     * @param flush whether to run {@code SYSTEM FLUSH LOGS} first (needs the SYSTEM FLUSH LOGS grant)
     * @return the spans, earliest first
     */
    public List<ServerSpan> serverSpans(String traceId, boolean flush) {
        if (flush) {
            this.template.execute("SYSTEM FLUSH LOGS");
        }
        return this.template.query("SELECT operation_name, toString(kind) AS kind, "
                + "leftPad(lower(hex(span_id)), 16, '0') AS span_id, "
                + "leftPad(lower(hex(parent_span_id)), 16, '0') AS parent_span_id, "
                + "start_time_us, finish_time_us - start_time_us AS duration_us, "
                + "attribute['clickhouse.query_id'] AS query_id "
                + "FROM system.opentelemetry_span_log WHERE trace_id = toUUID({uuid:String}) "
                + "ORDER BY start_time_us, span_id", Map.of("uuid", toUuid(traceId)), ServerSpan.class);
    }

    private static String toUuid(String traceId) {
        return traceId.substring(0, 8) + "-" + traceId.substring(8, 12) + "-" + traceId.substring(12, 16) + "-"
                + traceId.substring(16, 20) + "-" + traceId.substring(20);
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

    /** Collects the columns of {@link #series} from the blocks of the result, growing primitive arrays. */
    private static final class SeriesBuilder {

        private long[] times = new long[256];

        private long[] events = new long[256];

        private double[] values = new double[256];

        private int size;

        void add(Block block) {
            Column time = block.column("bucket");
            Column count = block.column("events");
            Column value = block.column("total_value");
            int rows = block.rowCount();
            if (this.size + rows > this.times.length) {
                int capacity = Math.max(this.times.length * 2, this.size + rows);
                this.times = Arrays.copyOf(this.times, capacity);
                this.events = Arrays.copyOf(this.events, capacity);
                this.values = Arrays.copyOf(this.values, capacity);
            }
            for (int row = 0; row < rows; row++) {
                this.times[this.size + row] = time.getLong(row);
                this.events[this.size + row] = count.getLong(row);
                this.values[this.size + row] = value.getDouble(row);
            }
            this.size += rows;
        }

        Series build() {
            return new Series(Arrays.copyOf(this.times, this.size), Arrays.copyOf(this.events, this.size),
                    Arrays.copyOf(this.values, this.size));
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
     * A timeline as parallel columns: bucket {@code i} starts at {@code times[i]} and has {@code events[i]}
     * events whose values sum to {@code totalValues[i]}.
     * @param times bucket starts, Unix seconds, ascending
     * @param events events per bucket
     * @param totalValues sum of the values per bucket
     */
    public record Series(long[] times, long[] events, double[] totalValues) {
    }

    /**
     * @param minEvents the threshold asked for
     * @param users users with at least {@code minEvents} events
     * @param byType their events per type, most frequent first
     */
    public record PowerUsers(long minEvents, long users, List<TypeCount> byType) {
    }

    /**
     * One span ClickHouse recorded for a traced query.
     * @param operationName what the server did, for example {@code query} or {@code TCPHandler}
     * @param kind OpenTelemetry span kind ({@code SERVER}, {@code INTERNAL}, ...)
     * @param spanId its id, 16 hex digits
     * @param parentSpanId its parent's id (for the server's root span: the client span that sent the query)
     * @param startTimeUs start, microseconds since the epoch
     * @param durationUs duration in microseconds
     * @param queryId the query_id of the query it belongs to, empty when the span has none
     */
    public record ServerSpan(String operationName, String kind, String spanId, String parentSpanId, long startTimeUs,
            long durationUs, String queryId) {
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
