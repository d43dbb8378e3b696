package dev.clickhousetcp.examples.spring.template;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;

/**
 * A service on {@link ClickHouseTcpTemplate}: DDL with {@code execute}, object inserts with
 * {@code insert}, queries into records with {@code query}, one value with {@code queryForObject}, and
 * {@code {name:Type}} parameters as a map.
 *
 * <p>The table is created on first use, not in the constructor (nor in an {@code ApplicationRunner}): an
 * exception there fails startup, so a ClickHouse outage would keep the application from starting at all.
 * Here the first call fails instead, and the next one tries again. (An application that also wants a
 * readiness probe creates it in the background: see the sample app's {@code SchemaInitializer}.)
 */
@Service
public class PageViews {

    /** One row of the table. */
    public record PageView(String page, long userId, LocalDate day) {
    }

    /** One line of the report. */
    public record PageCount(String page, long views) {
    }

    private final ClickHouseTcpTemplate template;

    private final String table;

    private volatile boolean tableCreated;

    public PageViews(ClickHouseTcpTemplate template, @Value("${example.table:example_page_views}") String table) {
        this.template = template;
        this.table = table;
    }

    /** Records {@code count} generated page views. */
    public void record(int count) {
        createTableOnFirstUse();
        List<PageView> views = IntStream.range(0, count)
                .mapToObj(i -> new PageView("/page/" + (i % 5), i % 13, LocalDate.of(2024, 7, 1 + i % 28)))
                .toList();
        this.template.insert(this.table, views);
    }

    /** The {@code limit} most viewed pages. */
    public List<PageCount> topPages(int limit) {
        createTableOnFirstUse();
        return this.template.query("SELECT page, count() AS views FROM " + this.table
                + " GROUP BY page ORDER BY views DESC, page LIMIT {limit:UInt32}", Map.of("limit", limit),
                PageCount.class);
    }

    /** Distinct users who viewed {@code page}. */
    public long visitors(String page) {
        createTableOnFirstUse();
        return this.template.queryForObject("SELECT uniqExact(user_id) FROM " + this.table
                + " WHERE page = {page:String}", Map.of("page", page), Long.class);
    }

    /** Drops the table (the example cleans up after itself; an application keeps its data). */
    public void dropTable() {
        this.template.execute("DROP TABLE IF EXISTS " + this.table);
        this.tableCreated = false;
    }

    private void createTableOnFirstUse() {
        if (!this.tableCreated) {
            // IF NOT EXISTS: harmless when two threads get here at once, or when the table is already there
            this.template.execute("CREATE TABLE IF NOT EXISTS " + this.table
                    + " (page String, user_id UInt64, day Date) ENGINE = MergeTree ORDER BY (page, day)");
            this.tableCreated = true;
        }
    }
}
