package dev.clickhousetcp.examples.jdbc;

import dev.clickhousetcp.jdbc.ClickHouseDataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;

/**
 * Spring's {@code JdbcClient} through the JDBC driver: named parameters (a list for {@code IN}) become server-side
 * typed query parameters, and {@code query(Order.class)} fills a record by column label (snake_case labels match
 * camelCase components).
 */
public final class JdbcClientRecords {

    private JdbcClientRecords() {
    }

    public record Order(long orderId, UUID customerId, String customer, BigDecimal amount, LocalDate day,
                        List<String> tags) {
    }

    public static void main(String[] args) {
        String table = System.getProperty("example.table", "example_jdbc_orders");
        JdbcClient jdbc = JdbcClient.create(new ClickHouseDataSource("jdbc:clickhouse:tcp://"
                + System.getProperty("clickhouse.host", "127.0.0.1") + ":"
                + Integer.getInteger("clickhouse.port", 19000) + "/default"));
        try {
            run(jdbc, table).forEach(System.out::println);
        } finally {
            jdbc.sql("DROP TABLE IF EXISTS " + table).update();   // also after a failure: the next run starts clean
        }
    }

    /** Creates {@code table} if missing, inserts four orders, returns those of bob and carol over 10.00 by id. */
    public static List<Order> run(JdbcClient jdbc, String table) {
        jdbc.sql("CREATE TABLE IF NOT EXISTS " + table + " (order_id UInt64, customer_id UUID, customer String,"
                + " amount Decimal(12, 2), day Date, tags Array(String)) ENGINE = MergeTree ORDER BY order_id").update();
        List<Order> orders = List.of(
                new Order(1, UUID.nameUUIDFromBytes("alice".getBytes()), "alice", new BigDecimal("19.99"),
                        LocalDate.of(2024, 6, 1), List.of("new")),
                new Order(2, UUID.nameUUIDFromBytes("bob".getBytes()), "bob", new BigDecimal("5.25"),
                        LocalDate.of(2024, 6, 2), List.of()),
                new Order(3, UUID.nameUUIDFromBytes("carol".getBytes()), "carol", new BigDecimal("120.00"),
                        LocalDate.of(2024, 6, 2), List.of("vip", "gift")),
                new Order(4, UUID.nameUUIDFromBytes("bob".getBytes()), "bob", new BigDecimal("42.50"),
                        LocalDate.of(2024, 6, 3), List.of("gift")));
        for (Order o : orders) {
            jdbc.sql("INSERT INTO " + table + " (order_id, customer_id, customer, amount, day, tags)"
                            + " VALUES (:id, :customerId, :customer, :amount, :day, :tags)")
                    .param("id", o.orderId()).param("customerId", o.customerId()).param("customer", o.customer())
                    .param("amount", o.amount()).param("day", o.day()).param("tags", o.tags().toArray(new String[0]))
                    .update();
        }
        return jdbc.sql("SELECT order_id, customer_id, customer, amount, day, tags FROM " + table
                        + " WHERE customer IN (:customers) AND amount > :min ORDER BY order_id")
                .param("customers", List.of("bob", "carol")).param("min", new BigDecimal("10.00"))
                .query(Order.class).list();
    }
}
