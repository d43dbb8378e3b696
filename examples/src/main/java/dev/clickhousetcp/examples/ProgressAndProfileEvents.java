package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryListener;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;

import java.util.Map;
import java.util.TreeMap;

/**
 * Progress and profile events: a {@link QueryListener} in the {@code QueryOptions} receives the server's
 * Progress packets (rows and bytes read so far, as increments), its ProfileInfo and its ProfileEvents
 * (counters such as {@code SelectedRows}, one row per counter in a block with columns {@code name} and
 * {@code value}). Listeners run on the thread reading the result.
 */
public final class ProgressAndProfileEvents {

    public static final String SQL = "SELECT count() FROM numbers(2000000) WHERE number % 3 = 0";

    private ProgressAndProfileEvents() {
    }

    public record Report(long count, long progressReadRows, long profileRows, Map<String, Long> events) {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            System.out.println(run(client));
        }
    }

    public static Report run(ClickHouseTcpClient client) {
        long[] readRows = new long[1];
        long[] profileRows = new long[1];
        Map<String, Long> events = new TreeMap<>();
        QueryListener listener = new QueryListener() {
            @Override
            public void onProgress(Progress increment) {
                readRows[0] += increment.readRows();
            }

            @Override
            public void onProfileInfo(ProfileInfo info) {
                profileRows[0] = info.rows();
            }

            @Override
            public void onProfileEvents(Block block) {
                for (int row = 0; row < block.rowCount(); row++) {
                    events.merge(block.column("name").getString(row), block.column("value").getLong(row), Long::sum);
                }
            }
        };
        long count = client.query(SQL, QueryOptions.builder().listener(listener).build(), Long.class).get(0);
        return new Report(count, readRows[0], profileRows[0], events);
    }
}
