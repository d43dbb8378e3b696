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

    public PageViews(ClickHouseTcpTemplate template, @Value("${example.table:example_page_views}") String table) {
        this.template = template;
        this.table = table;
        template.execute("CREATE TABLE IF NOT EXISTS " + table
                + " (page String, user_id UInt64, day Date) ENGINE = MergeTree ORDER BY (page, day)");
    }

    /** Records {@code count} generated page views. */
    public void record(int count) {
        List<PageView> views = IntStream.range(0, count)
                .mapToObj(i -> new PageView("/page/" + (i % 5), i % 13, LocalDate.of(2024, 7, 1 + i % 28)))
                .toList();
        this.template.insert(this.table, views);
    }

    /** The {@code limit} most viewed pages. */
    public List<PageCount> topPages(int limit) {
        return this.template.query("SELECT page, count() AS views FROM " + this.table
                + " GROUP BY page ORDER BY views DESC, page LIMIT {limit:UInt32}", Map.of("limit", limit),
                PageCount.class);
    }

    /** Distinct users who viewed {@code page}. */
    public long visitors(String page) {
        return this.template.queryForObject("SELECT uniqExact(user_id) FROM " + this.table
                + " WHERE page = {page:String}", Map.of("page", page), Long.class);
    }
}
