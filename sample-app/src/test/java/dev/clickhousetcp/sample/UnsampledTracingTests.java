package dev.clickhousetcp.sample;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatusCode;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code management.tracing.sampling.probability=0.0} (Spring Boot's OpenTelemetry tracing) the
 * queries of a request the application does not sample carry no trace context, so ClickHouse 26.7 records no
 * span for them in {@code system.opentelemetry_span_log}; a request that arrives sampled (its upstream's
 * {@code traceparent} ending in {@code -01}) still leaves the server's spans in its trace.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "management.tracing.sampling.probability=0.0")
@Tag("clickhouse")
class UnsampledTracingTests {

    private static final String TABLE = "sample_unsampled_" + UUID.randomUUID().toString().replace("-", "");

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void clickhouse(DynamicPropertyRegistry registry) {
        SampleApplicationTests.clickhouse(registry, TABLE);
    }

    @AfterAll
    static void dropTable() {
        ClickHouseServers.modern().httpQuery("DROP TABLE IF EXISTS " + TABLE);
    }

    /** The query_ids of the finished statements that name the table, in order. */
    private static List<String> queriesOfTheTable(ClickHouseServer server) {
        server.httpQuery("SYSTEM FLUSH LOGS");
        return List.of(server.httpQuery("SELECT query_id FROM system.query_log WHERE type = 'QueryFinish' "
                + "AND query LIKE '%" + TABLE + "%' AND query NOT LIKE '%system.query_log%' "
                + "ORDER BY event_time_microseconds FORMAT TSV").trim().split("\n"));
    }

    private static long spansOf(ClickHouseServer server, List<String> queryIds) {
        return Long.parseLong(server.httpQuery("SELECT count() FROM system.opentelemetry_span_log WHERE "
                + "attribute['clickhouse.query_id'] IN ('" + String.join("', '", queryIds) + "')").trim());
    }

    @Test
    void unsampledRequestsLeaveNoServerSpans() {
        ClickHouseServer server = ClickHouseServers.modern();
        RestClient http = RestClient.builder().baseUrl("http://127.0.0.1:" + this.port)
            .defaultStatusHandler(HttpStatusCode::isError, (request, response) -> { })
            .build();
        SampleApplicationTests.awaitTrue("the events table to be created", Duration.ofSeconds(30),
                () -> http.get().uri("/actuator/health/readiness").retrieve().toBodilessEntity()
                    .getStatusCode().value() == 200);
        // not sampled: a new trace at probability 0, and one whose upstream did not sample it
        for (int i = 0; i < 3; i++) {
            assertThat(http.get().uri("/analytics/counts").retrieve().toBodilessEntity().getStatusCode().value())
                .isEqualTo(200);
        }
        String unsampledTrace = UUID.randomUUID().toString().replace("-", "");
        assertThat(http.get().uri("/analytics/counts").header("traceparent", "00-" + unsampledTrace + "-00f067aa0ba902b7-00")
            .retrieve().toBodilessEntity().getStatusCode().value()).isEqualTo(200);
        List<String> unsampled = queriesOfTheTable(server);
        assertThat(unsampled).hasSizeGreaterThanOrEqualTo(5); // the schema's statements and four queries
        assertThat(spansOf(server, unsampled)).as("server spans of unsampled queries %s", unsampled).isZero();

        // sampled upstream: the parent-based sampler keeps it, the server records its spans
        String sampledTrace = UUID.randomUUID().toString().replace("-", "");
        assertThat(http.get().uri("/analytics/counts").header("traceparent", "00-" + sampledTrace + "-00f067aa0ba902b7-01")
            .retrieve().toBodilessEntity().getStatusCode().value()).isEqualTo(200);
        List<String> all = queriesOfTheTable(server);
        assertThat(all).hasSizeGreaterThan(unsampled.size());
        assertThat(spansOf(server, all.subList(unsampled.size(), all.size()))).isPositive();
        String uuid = sampledTrace.replaceFirst("(.{8})(.{4})(.{4})(.{4})(.{12})", "$1-$2-$3-$4-$5");
        assertThat(Long.parseLong(server.httpQuery("SELECT count() FROM system.opentelemetry_span_log "
                + "WHERE trace_id = toUUID('" + uuid + "')").trim())).isPositive();
    }
}
