package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;

import java.time.LocalDate;
import java.util.List;

/**
 * Inserting records: {@code client.insert(table, list)} matches record components (or bean getters) to the
 * table's columns by name, so the INSERT names only mapped columns and the others take their defaults
 * (here {@code inserted_at}). Reading back into the same record closes the loop.
 */
public final class RecordInsert {

    private RecordInsert() {
    }

    public record Order(long orderId, String customer, double amount, LocalDate day) {
    }

    public static void main(String[] args) {
        String table = System.getProperty("example.table", "example_orders");
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

    /** Creates {@code table} if missing, inserts three orders and returns them as read back, ordered by id. */
    public static List<Order> run(ClickHouseTcpClient client, String table) {
        client.execute("CREATE TABLE IF NOT EXISTS " + table
                + " (order_id UInt64, customer String, amount Float64, day Date,"
                + " inserted_at DateTime DEFAULT now()) ENGINE = MergeTree ORDER BY order_id");
        List<Order> orders = List.of(
                new Order(1, "alice", 19.99, LocalDate.of(2024, 6, 1)),
                new Order(2, "bob", 5.25, LocalDate.of(2024, 6, 2)),
                new Order(3, "carol", 120.0, LocalDate.of(2024, 6, 2)));
        client.insert(table, orders);
        return client.query("SELECT * FROM " + table + " ORDER BY order_id", Order.class);
    }
}
