package dev.clickhousetcp.sample;

import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A report through plain JDBC: Spring's {@link JdbcClient} over the {@code DataSource} the starter defines with
 * {@code clickhouse.tcp.jdbc.enabled=true}, which borrows from the same connection pool as the
 * {@code ClickHouseTcpTemplate} of the other endpoints (one pool, one limit, one set of pool metrics).
 *
 * <ul>
 * <li>{@code GET /analytics/event-types?minEvents=1} — each event type with at least that many events, by name;
 * {@code minEvents} is a {@code ?} parameter, sent to the server as a typed query parameter.</li>
 * </ul>
 */
@RestController
public class JdbcReportController {

    private final JdbcClient jdbc;

    private final EventRepository events;

    private final SchemaInitializer schema;

    /**
     * @param jdbc the JdbcClient Spring Boot makes over the DataSource
     * @param events names the table
     * @param schema tells whether the table exists yet
     */
    public JdbcReportController(JdbcClient jdbc, EventRepository events, SchemaInitializer schema) {
        this.jdbc = jdbc;
        this.events = events;
        this.schema = schema;
    }

    /**
     * An event type and its number of events.
     * @param eventType the type
     * @param events how many events it has
     */
    public record EventTypeCount(String eventType, long events) {
    }

    @GetMapping("/analytics/event-types")
    List<EventTypeCount> eventTypes(@RequestParam(defaultValue = "1") long minEvents) {
        if (minEvents < 1) {
            throw new IllegalArgumentException("minEvents must be 1 or more");
        }
        this.schema.requireReady();
        return this.jdbc.sql("SELECT event_type, count() AS events FROM " + this.events.table()
                + " GROUP BY event_type HAVING events >= ? ORDER BY event_type")
            .param(minEvents)
            .query((rs, row) -> new EventTypeCount(rs.getString("event_type"), rs.getLong("events")))
            .list();
    }

}
