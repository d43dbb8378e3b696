package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryListener;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.data.Block;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Server logs: with the setting {@code send_logs_level} the server streams its own log lines of the query
 * to the client. They always go to SLF4J under the logger {@code dev.clickhousetcp.server}, and also to
 * {@code QueryListener.onLog} as blocks with columns such as {@code query_id}, {@code priority},
 * {@code source} and {@code text}.
 */
public final class ServerLogs {

    private ServerLogs() {
    }

    public record LogLine(String queryId, String source, String text) {
    }

    public record Logged(String queryId, List<LogLine> lines) {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            run(client).lines().forEach(System.out::println);
        }
    }

    public static Logged run(ClickHouseTcpClient client) {
        List<LogLine> lines = new ArrayList<>();
        String queryId = UUID.randomUUID().toString();
        QueryOptions options = QueryOptions.builder()
                .queryId(queryId)
                .setting("send_logs_level", "debug")
                .listener(new QueryListener() {
                    @Override
                    public void onLog(Block logs) {
                        for (int row = 0; row < logs.rowCount(); row++) {
                            lines.add(new LogLine(logs.column("query_id").getString(row),
                                    logs.column("source").getString(row), logs.column("text").getString(row)));
                        }
                    }
                })
                .build();
        client.queryRows("SELECT sum(number) FROM numbers(100000)", options);
        return new Logged(queryId, lines);
    }
}
