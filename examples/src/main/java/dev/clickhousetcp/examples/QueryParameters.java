package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * Query parameters: the SQL names each value with its ClickHouse type, {@code {name:Type}}, and the
 * value travels apart from the SQL (no quoting, no injection). Java lists and arrays fill
 * {@code Array(T)}, maps fill {@code Map(K, V)}, {@code java.time} values fill dates and times.
 */
public final class QueryParameters {

    public static final String SQL = "SELECT number, {prefix:String} || toString(number) AS label,"
            + " {weights:Map(String, UInt32)}[toString(number % 3)] AS weight"
            + " FROM numbers(100) WHERE has({wanted:Array(UInt64)}, number) AND toDate('2024-01-01') + number"
            + " >= {since:Date} ORDER BY number";

    private QueryParameters() {
    }

    public record Match(long number, String label, long weight) {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            run(client).forEach(System.out::println);
        }
    }

    public static List<Match> run(ClickHouseTcpClient client) {
        QueryOptions options = QueryOptions.builder()
                .parameter("prefix", "it's #")                               // quotes need no escaping
                .parameter("wanted", List.of(3L, 5L, 8L, 13L, 21L, 34L))     // Array(UInt64)
                .parameter("weights", Map.of("0", 10, "1", 20, "2", 30))     // Map(String, UInt32)
                .parameter("since", LocalDate.of(2024, 1, 9))                // Date
                .build();
        return client.query(SQL, options, Match.class);
    }
}
