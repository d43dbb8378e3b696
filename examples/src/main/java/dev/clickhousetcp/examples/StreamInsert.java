package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.InsertOptions;

import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * Inserting a stream: {@code insert(table, Type.class, stream, options)} consumes the stream lazily,
 * {@code maxRowsPerBlock} objects per wire block, so an input of any size (a file, a cursor, a
 * generator) is inserted with bounded memory.
 */
public final class StreamInsert {

    private StreamInsert() {
    }

    public record Reading(long sensor, long seq, double celsius) {
    }

    public static void main(String[] args) {
        String table = System.getProperty("example.table", "example_readings");
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            try {
                System.out.println(run(client, table, 100_000) + " rows");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + table);   // also after a failure: the next run starts clean
            }
        }
    }

    /** Creates {@code table} if missing and inserts {@code rows} generated readings; returns the rows inserted. */
    public static long run(ClickHouseTcpClient client, String table, long rows) {
        client.execute("CREATE TABLE IF NOT EXISTS " + table + " (sensor UInt32, seq UInt64, celsius Float64)"
                + " ENGINE = MergeTree ORDER BY (sensor, seq)");
        Stream<Reading> readings = LongStream.range(0, rows)
                .mapToObj(i -> new Reading(i % 16, i, 20 + (i % 100) / 10.0));   // generated on demand
        return client.insert(table, Reading.class, readings,
                InsertOptions.builder().maxRowsPerBlock(10_000).build());
    }
}
