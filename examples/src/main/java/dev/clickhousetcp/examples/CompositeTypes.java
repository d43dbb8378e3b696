package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;

import java.util.List;
import java.util.Map;

/**
 * LowCardinality, Nullable, Array, Map and Tuple, in and out. Records read them as the plain Java types
 * (LowCardinality(String) as {@code String}, Nullable as a boxed type or {@code null}, Array as
 * {@code List}, Map as {@code Map}, a named Tuple as a nested record); inserts accept the same values.
 */
public final class CompositeTypes {

    private CompositeTypes() {
    }

    public record Point(double x, double y) {
    }

    public record Item(long id, String country, Integer rating, List<String> tags, Map<String, Long> counters,
                       Point location) {
    }

    public static void main(String[] args) {
        String table = System.getProperty("example.table", "example_items");
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            try {
                run(client, table).forEach(System.out::println);
            } finally {
                client.execute("DROP TABLE IF EXISTS " + table);   // also after a failure: the next run starts clean
            }
        }
    }

    /** The items {@link #ITEMS} inserted into {@code table} (created if missing) and read back, ordered by id. */
    public static List<Item> run(ClickHouseTcpClient client, String table) {
        client.execute("CREATE TABLE IF NOT EXISTS " + table + " (id UInt64, country LowCardinality(String),"
                + " rating Nullable(Int32), tags Array(String), counters Map(String, UInt64),"
                + " location Tuple(x Float64, y Float64)) ENGINE = MergeTree ORDER BY id");
        client.insert(table, ITEMS);
        return client.query("SELECT * FROM " + table + " ORDER BY id", Item.class);
    }

    public static final List<Item> ITEMS = List.of(
            new Item(1, "NL", 5, List.of("new", "sale"), Map.of("views", 120L), new Point(52.37, 4.89)),
            new Item(2, "DE", null, List.of(), Map.of(), new Point(52.52, 13.40)),
            new Item(3, "NL", 3, List.of("it's"), Map.of("views", 7L, "likes", 2L), new Point(0, -0.5)));
}
