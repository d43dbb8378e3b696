package dev.clickhousetcp.benchmarks;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.data_formats.ClickHouseBinaryFormatReader;
import com.clickhouse.client.api.query.QueryResponse;
import com.clickhouse.client.api.query.QuerySettings;
import com.clickhouse.data.ClickHouseFormat;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.Compression;

import java.util.concurrent.TimeUnit;

/**
 * The official HTTP client ({@code com.clickhouse:client-v2}) against the same server's HTTP port, and
 * our client configured to match it. "Compressed" means ClickHouse's own LZ4 block framing on both:
 * our native connection with {@link Compression#LZ4}; client-v2 with {@code compressServerResponse(true)}
 * and {@code compressClientRequest(true)} and HTTP content encoding off ({@code useHttpCompression(false)}),
 * its fastest correct compressed configuration. Both send {@code async_insert=0}.
 */
final class HttpPeer {
    private HttpPeer() {
    }

    static Client newHttpClient(boolean compressed) {
        return new Client.Builder()
                .addEndpoint("http://" + BenchmarkServer.host() + ":" + BenchmarkServer.httpPort())
                .setUsername("default")
                .setPassword("")
                .compressServerResponse(compressed)
                .compressClientRequest(compressed)
                .useHttpCompression(false)
                .serverSetting("async_insert", "0")
                .build();
    }

    static ClickHouseTcpClient newTcpClient(boolean compressed) {
        ClickHouseTcpClient c = BenchmarkServer.track(BenchmarkServer.builder()
                .compression(compressed ? Compression.LZ4 : Compression.NONE)
                .setting("async_insert", 0)
                .build());
        c.ping();
        return c;
    }

    /** client-v2's streaming reader over RowBinaryWithNamesAndTypes: getLong, getString, getDouble per row. */
    @SuppressWarnings("try") // client-v2's close() declares InterruptedException
    static long read(Client http, String sql, long[] rowsOut) {
        QuerySettings settings = new QuerySettings().setFormat(ClickHouseFormat.RowBinaryWithNamesAndTypes);
        long sum = 0;
        double fsum = 0;
        long rows = 0;
        try (QueryResponse response = http.query(sql, settings).get(60, TimeUnit.SECONDS);
             ClickHouseBinaryFormatReader reader = http.newBinaryFormatReader(response)) {
            while (reader.hasNext()) {
                reader.next();
                sum += reader.getLong(1) + reader.getString(2).length();
                fsum += reader.getDouble(3);
                rows++;
            }
        } catch (Exception e) {
            throw new IllegalStateException("client-v2 query failed: " + sql, e);
        }
        if (rowsOut != null) {
            rowsOut[0] = rows;
        }
        return sum + (long) fsum;
    }
}
