package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.ExternalTable;
import dev.clickhousetcp.client.QueryOptions;

import java.util.List;

/**
 * External tables: send a small table along with one query (ClickHouse's "external data") and use it by
 * name, e.g. in {@code IN} or a {@code JOIN}. No temporary table and no session needed.
 */
public final class ExternalTables {

    public static final String SQL = "SELECT l.label, count() AS n FROM numbers(1000) AS t"
            + " INNER JOIN labels AS l ON t.number % 10 = l.id GROUP BY l.label ORDER BY l.label";

    private ExternalTables() {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            run(client).forEach(System.out::println);
        }
    }

    public static List<String> run(ClickHouseTcpClient client) {
        List<Object[]> rows = List.of(new Object[] {1L, "one"}, new Object[] {2L, "two"}, new Object[] {3L, "three"});
        QueryOptions options = QueryOptions.builder()
                .externalTable(ExternalTable.of("labels", "id UInt64, label String", rows))
                .build();
        return client.query(SQL, options, (row, n) -> row.getString("label") + "=" + row.getLong("n"));
    }
}
