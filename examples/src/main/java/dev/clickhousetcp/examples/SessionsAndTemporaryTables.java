package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseSession;
import dev.clickhousetcp.client.ClickHouseTcpClient;

import java.util.Map;

/**
 * Sessions: the native protocol's session is its TCP connection, so {@code client.openSession()} pins one
 * connection; temporary tables and {@code SET} last until the session is closed (its connection is then
 * closed, never handed to another caller). A session is not thread-safe.
 */
public final class SessionsAndTemporaryTables {

    private SessionsAndTemporaryTables() {
    }

    public record Result(long matches, String maxThreads, boolean tableGoneAfterwards) {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            System.out.println(run(client));
        }
    }

    public static Result run(ClickHouseTcpClient client) {
        long matches;
        String maxThreads;
        try (ClickHouseSession session = client.openSession()) {
            session.execute("CREATE TEMPORARY TABLE wanted (id UInt64)");
            session.insertColumns("wanted", Map.of("id", new long[] {7, 70, 700, 7000, 70000}));
            session.execute("SET max_threads = 1");
            matches = session.query("SELECT count() FROM numbers(10000) WHERE number IN wanted", Long.class).get(0);
            maxThreads = session.query("SELECT getSetting('max_threads')", String.class).get(0);
        }
        // outside the session (another connection) neither the table nor the SET exists
        boolean gone = client.query("SELECT count() FROM system.tables WHERE is_temporary AND name = 'wanted'",
                Long.class).get(0) == 0;
        return new Result(matches, maxThreads, gone);
    }
}
