package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;

import java.time.LocalDate;
import java.util.List;

/**
 * Records: {@code client.query(sql, Trade.class)} maps each row to a record through its canonical
 * constructor; columns match components by name (ignoring case and underscores, so {@code trade_day}
 * fills {@code tradeDay}), and {@code Nullable} columns fill boxed components with {@code null}.
 */
public final class ReadRecords {

    public static final String SQL = "SELECT number AS id, ['ACME', 'INIT', 'TECH'][number % 3 + 1] AS symbol,"
            + " round(100 + number / 8, 2) AS price, if(number % 4 = 0, NULL, toInt32(number * 10)) AS qty,"
            + " toDate('2024-01-01') + number AS trade_day FROM numbers(12)";

    private ReadRecords() {
    }

    public record Trade(long id, String symbol, double price, Integer qty, LocalDate tradeDay) {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            run(client).forEach(System.out::println);
        }
    }

    public static List<Trade> run(ClickHouseTcpClient client) {
        return client.query(SQL, Trade.class);
    }
}
