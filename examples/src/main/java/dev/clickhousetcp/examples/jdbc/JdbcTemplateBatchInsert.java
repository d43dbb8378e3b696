package dev.clickhousetcp.examples.jdbc;

import dev.clickhousetcp.jdbc.ClickHouseDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.stream.LongStream;

/**
 * Spring's {@code JdbcTemplate.batchUpdate} through the JDBC driver: the rows of each {@code executeBatch} are sent
 * as native Data blocks of one INSERT, not as one statement per row. The {@code (sql, rows, batchSize, setter)} form
 * runs {@code executeBatch} every {@code batchSize} rows on the same PreparedStatement.
 */
public final class JdbcTemplateBatchInsert {

    private JdbcTemplateBatchInsert() {
    }

    public record PageView(long id, String page, Instant at) {
    }

    public static void main(String[] args) {
        String table = System.getProperty("example.table", "example_page_views");
        DataSource dataSource = new ClickHouseDataSource("jdbc:clickhouse:tcp://"
                + System.getProperty("clickhouse.host", "127.0.0.1") + ":"
                + Integer.getInteger("clickhouse.port", 19000) + "/default");
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        try {
            System.out.println(run(jdbc, table, 10_000) + " rows inserted into " + table);
        } finally {
            jdbc.execute("DROP TABLE IF EXISTS " + table);   // also after a failure: the next run starts clean
        }
    }

    /**
     * Creates {@code table} if missing and inserts {@code rows} page views in batches of 2,000 rows.
     *
     * @return the rows the batches reported written
     */
    public static long run(JdbcTemplate jdbc, String table, int rows) {
        jdbc.execute("CREATE TABLE IF NOT EXISTS " + table
                + " (id UInt64, page String, at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY id");
        Instant start = Instant.parse("2024-06-01T00:00:00Z");
        List<PageView> views = LongStream.range(0, rows)
                .mapToObj(i -> new PageView(i, "/page/" + i % 50, start.plusMillis(i * 1_500))).toList();
        int[][] counts = jdbc.batchUpdate("INSERT INTO " + table + " (id, page, at) VALUES (?, ?, ?)", views, 2_000,
                (ps, view) -> {
                    ps.setLong(1, view.id());
                    ps.setString(2, view.page());
                    ps.setTimestamp(3, Timestamp.from(view.at()));
                });
        long written = 0;
        for (int[] batch : counts) {
            for (int count : batch) {
                written += count;
            }
        }
        return written;
    }
}
