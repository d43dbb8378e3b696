package dev.clickhousetcp.client;

import dev.clickhousetcp.protocol.TraceContext;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A W3C trace context sent in ClientInfo makes the server's spans join the caller's trace. */
@ClickHouseTest
class TraceContextTest {

    @Test
    void serverSpansCarryTheCallersTraceId() {
        ClickHouseServer server = ClickHouseServers.modern();
        String traceId = UUID.randomUUID().toString().replace("-", "");
        TraceContext ctx = TraceContext.fromTraceparent("00-" + traceId + "-b7ad6b7169203331-01", "vendor=x");
        String queryId = "trace-" + UUID.randomUUID();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.queryRows("SELECT 1", QueryOptions.builder().queryId(queryId).traceContext(ctx).build());
            client.execute("SYSTEM FLUSH LOGS");
        }
        // the span log stores the 128-bit id as a UUID; its text is the 32 hex digits with dashes
        String expected = traceId.substring(0, 8) + "-" + traceId.substring(8, 12) + "-" + traceId.substring(12, 16) + "-"
                + traceId.substring(16, 20) + "-" + traceId.substring(20);
        String spans = server.httpQuery("SELECT count() FROM system.opentelemetry_span_log WHERE trace_id = toUUID('"
                + expected + "') AND attribute['clickhouse.query_id'] = '" + queryId + "'").trim();
        assertThat(Long.parseLong(spans)).isPositive();
    }
}
