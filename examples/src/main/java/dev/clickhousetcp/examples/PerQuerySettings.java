package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;

import java.util.List;

/**
 * Settings: client-wide defaults on the builder ({@code .setting("max_threads", 2)}), overridden per
 * query with {@code QueryOptions.builder().setting(name, value)}. Settings are sent as "important", so a
 * misspelt name fails the query instead of being ignored.
 */
public final class PerQuerySettings {

    public static final String SQL = "SELECT getSetting('max_threads') AS threads,"
            + " getSetting('max_block_size') AS block_size";

    private PerQuerySettings() {
    }

    public record Effective(String defaults, String perQuery, int rowsUnderLimit) {
    }

    public static void main(String[] args) {
        System.out.println(run(System.getProperty("clickhouse.host", "127.0.0.1"),
                Integer.getInteger("clickhouse.port", 19000)));
    }

    public static Effective run(String host, int port) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host(host).port(port)
                .setting("max_threads", 2)                        // every query of this client
                .build()) {
            String defaults = client.query(SQL, (row, n) -> row.getString(0) + "/" + row.getString(1)).get(0);
            QueryOptions tuned = QueryOptions.builder()
                    .setting("max_threads", 1)                    // this query only
                    .setting("max_block_size", 1000)
                    .build();
            String perQuery = client.query(SQL, tuned, (row, n) -> row.getString(0) + "/" + row.getString(1)).get(0);
            QueryOptions capped = QueryOptions.builder()
                    .setting("max_result_rows", 100).setting("result_overflow_mode", "break")
                    .setting("max_block_size", 10)
                    .build();
            List<Object[]> rows = client.queryRows("SELECT number FROM numbers(1000000)", capped);
            return new Effective(defaults, perQuery, rows.size());
        }
    }
}
