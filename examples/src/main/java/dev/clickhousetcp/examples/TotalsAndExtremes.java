package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;

import java.util.ArrayList;
import java.util.List;

/**
 * Totals and extremes: {@code GROUP BY ... WITH TOTALS} and the setting {@code extremes = 1} make the
 * server send extra blocks after the data; read the result to its end, then take them from
 * {@code QueryResult.totals()} (one row) and {@code extremes()} (two rows: minimums, maximums).
 */
public final class TotalsAndExtremes {

    public static final String SQL = "SELECT number % 5 AS k, count() AS n, sum(number) AS s"
            + " FROM numbers(1003) GROUP BY k WITH TOTALS ORDER BY k";

    private TotalsAndExtremes() {
    }

    public record Summary(List<String> groups, long totalCount, long totalSum, long minSum, long maxSum) {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            System.out.println(run(client));
        }
    }

    public static Summary run(ClickHouseTcpClient client) {
        List<String> groups = new ArrayList<>();
        try (QueryResult result = client.query(SQL, QueryOptions.builder().setting("extremes", 1).build())) {
            for (Block block : result) {
                for (int row = 0; row < block.rowCount(); row++) {
                    groups.add(block.column("k").getString(row) + ": " + block.column("n").getString(row));
                }
            }
            Block totals = result.totals();        // available once the data is read
            Block extremes = result.extremes();
            return new Summary(groups, totals.column("n").getLong(0), totals.column("s").getLong(0),
                    extremes.column("s").getLong(0), extremes.column("s").getLong(1));
        }
    }
}
