package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;

import java.time.LocalDate;
import java.util.List;

/**
 * Typed projections: a one-column result straight into a Java type ({@code query(sql, Long.class)},
 * {@code LocalDate.class}, {@code String.class}, ...), and any shape through a row mapper
 * {@code (row, rowNum) -> ...} that reads columns by index or name.
 */
public final class TypedProjections {

    public static final String SQUARES = "SELECT number * number FROM numbers(10)";
    public static final String DAYS = "SELECT toDate('2024-02-27') + number FROM numbers(4)";
    public static final String LABELS = "SELECT number % 3 AS k, count() AS n FROM numbers(100) GROUP BY k ORDER BY k";

    private TypedProjections() {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            System.out.println(run(client));
        }
    }

    public record Projections(List<Long> squares, List<LocalDate> days, List<String> labels) {
    }

    public static Projections run(ClickHouseTcpClient client) {
        List<Long> squares = client.query(SQUARES, Long.class);          // one value per row
        List<LocalDate> days = client.query(DAYS, LocalDate.class);
        List<String> labels = client.query(LABELS,
                (row, rowNum) -> row.getLong("k") + ":" + row.getLong(1)); // your own mapping
        return new Projections(squares, days, labels);
    }
}
