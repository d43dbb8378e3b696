package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;

import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * Streams of objects: {@code client.stream(sql, Type.class)} maps rows lazily, one block at a time, so a
 * result of any size is read with bounded memory. The stream holds a pooled connection until it is
 * closed: always use try-with-resources. {@code client.forEach(...)} is the push-style alternative.
 */
public final class StreamRows {

    public static final String SQL = "SELECT number AS id, number % 10 AS bucket FROM numbers(500000)";

    private StreamRows() {
    }

    public record Event(long id, int bucket) {
    }

    public record Counts(long bucketSevenFromStream, long rowsFromForEach) {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            System.out.println(run(client));
        }
    }

    public static Counts run(ClickHouseTcpClient client) {
        long sevens;
        try (Stream<Event> events = client.stream(SQL, Event.class)) {
            sevens = events.filter(e -> e.bucket() == 7).count();
        }
        LongAdder seen = new LongAdder();
        long rows = client.forEach(SQL, Event.class, e -> seen.increment());   // returns the rows read
        if (rows != seen.sum()) {
            throw new IllegalStateException(rows + " != " + seen.sum());
        }
        return new Counts(sevens, rows);
    }
}
