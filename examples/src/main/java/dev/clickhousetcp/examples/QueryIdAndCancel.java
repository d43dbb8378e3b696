package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;

import java.util.UUID;

/**
 * Query ids and cancelling: give a query your own {@code queryId} (to find it in
 * {@code system.query_log} or {@code system.processes}), and stop it early with
 * {@code QueryResult.cancel()} (callable from any thread). The stream then ends, the server stops the
 * query and the connection goes back to the pool.
 */
public final class QueryIdAndCancel {

    private QueryIdAndCancel() {
    }

    public record Outcome(String queryId, long rowsRead, boolean cancelled) {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            System.out.println(run(client));
        }
    }

    public static Outcome run(ClickHouseTcpClient client) {
        String queryId = "report-" + UUID.randomUUID();
        long rows = 0;
        boolean cancelled;
        // an endless query: system.numbers never ends on its own
        try (QueryResult result = client.query("SELECT number FROM system.numbers",
                QueryOptions.builder().queryId(queryId).setting("max_block_size", 10_000).build())) {
            Block block;
            while ((block = result.next()) != null) {
                rows += block.rowCount();
                if (rows >= 50_000) {
                    result.cancel();                 // sends Cancel; next() returns null once it is done
                }
            }
            cancelled = result.isCancelled();
        }
        client.ping();                               // the pooled connection is usable again
        return new Outcome(queryId, rows, cancelled);
    }
}
