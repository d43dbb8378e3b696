package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.InsertOptions;

import java.util.ArrayList;
import java.util.List;

/**
 * Exactly-once inserts: with a deduplication token and {@code tokenPerBlock(true)} every block is its own
 * INSERT with token {@code <token>-<block index>}, so running the same insert again (after a timeout or a
 * lost connection, when you cannot know what arrived) adds nothing twice. {@code maxAttempts(3)} lets the
 * client retry a re-iterable source by itself. The table must keep tokens: Replicated*MergeTree, or
 * MergeTree with {@code non_replicated_deduplication_window}.
 */
public final class DeduplicatedInsertWithRetry {

    private DeduplicatedInsertWithRetry() {
    }

    public record Payment(long id, String account, long cents) {
    }

    public static void main(String[] args) {
        String table = System.getProperty("example.table", "example_payments");
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            try {
                System.out.println(run(client, table) + " rows stored");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + table);   // also after a failure: the next run starts clean
            }
        }
    }

    /**
     * Creates {@code table} if missing and inserts the same 5 000 payments twice with one token; returns the
     * rows the table holds.
     */
    public static long run(ClickHouseTcpClient client, String table) {
        client.execute("CREATE TABLE IF NOT EXISTS " + table + " (id UInt64, account String, cents Int64)"
                + " ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 100");
        List<Payment> batch = new ArrayList<>();
        for (long i = 0; i < 5_000; i++) {
            batch.add(new Payment(i, "acct-" + (i % 7), i * 3));
        }
        InsertOptions once = InsertOptions.builder()
                .deduplicationToken("payments-batch-42")   // one token per logical batch, e.g. its id
                .tokenPerBlock(true)
                .maxRowsPerBlock(1_000)                    // 5 blocks; a retry must use the same size
                .maxAttempts(3)
                .build();
        client.insert(table, Payment.class, batch, once);
        client.insert(table, Payment.class, batch, once);  // a retry: every block is recognised
        return client.query("SELECT count() FROM " + table, Long.class).get(0);
    }
}
