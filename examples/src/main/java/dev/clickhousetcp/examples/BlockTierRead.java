package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Int64Column;
import dev.clickhousetcp.data.StringColumn;

/**
 * The block tier: the fastest way to read. A result is a stream of {@link Block}s; cast each column to
 * its class ({@code Int64Column} for Int64 and UInt64, {@code StringColumn} for String) and read values
 * without boxing. A block is valid only until the next one is read: copy what you keep.
 */
public final class BlockTierRead {

    public static final String SQL = "SELECT number, toString(number * 7) AS label FROM numbers(200000)";

    private BlockTierRead() {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            System.out.println(run(client));
        }
    }

    /** The sum of {@code number} and the total length of {@code label}, read block by block. */
    public record Totals(long sum, long labelChars, long blocks) {
    }

    public static Totals run(ClickHouseTcpClient client) {
        long sum = 0;
        long chars = 0;
        long blocks = 0;
        try (QueryResult result = client.query(SQL)) {   // always close: an unread result is cancelled
            for (Block block : result) {
                Int64Column numbers = (Int64Column) block.column(0);
                StringColumn labels = (StringColumn) block.column("label");
                for (int row = 0; row < block.rowCount(); row++) {
                    sum += numbers.getLong(row);
                    chars += labels.getString(row).length();
                }
                blocks++;
            }
        }
        return new Totals(sum, chars, blocks);
    }
}
