package dev.clickhousetcp.sample;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app end to end: a real HTTP server on a random port, the real ClickHouse 26.7 server, and
 * a table of its own so reruns start clean.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Tag("clickhouse")
class SampleApplicationTests {

    private static final String TABLE = "sample_app_test_" + UUID.randomUUID().toString().replace("-", "");

    private static final ParameterizedTypeReference<List<Map<String, Object>>> LIST_OF_MAPS =
            new ParameterizedTypeReference<>() { };

    private static final ParameterizedTypeReference<Map<String, Object>> MAP = new ParameterizedTypeReference<>() { };

    @LocalServerPort
    private int port;

    private RestClient http;

    @DynamicPropertySource
    static void clickhouse(DynamicPropertyRegistry registry) {
        ClickHouseServer server = ClickHouseServers.modern();
        registry.add("clickhouse.tcp.host", server::host);
        registry.add("clickhouse.tcp.port", server::tcpPort);
        registry.add("sample.events.table", () -> TABLE);
    }

    @AfterAll
    static void dropTable() {
        ClickHouseServers.modern().httpQuery("DROP TABLE IF EXISTS " + TABLE);
    }

    @BeforeEach
    void client() {
        this.http = RestClient.builder()
            .baseUrl("http://127.0.0.1:" + this.port)
            .defaultStatusHandler(HttpStatusCode::isError, (request, response) -> { })
            .build();
    }

    @Test
    void ingestAndAnalyze() {
        String events = """
                [
                  {"eventTime": "2025-01-02T03:04:05.678Z", "userId": 7, "eventType": "purchase", "value": 19.5, "tags": ["web", "it's"]},
                  {"eventTime": "2025-01-02T03:04:59.000Z", "userId": 7, "eventType": "click", "value": 1},
                  {"eventTime": "2025-01-02T04:10:00Z", "userId": 8, "eventType": "click"},
                  {"eventTime": "2025-01-02T04:11:00Z", "userId": 7, "eventType": "click", "value": 0.5}
                ]
                """;
        Map<String, Object> inserted = this.http.post().uri("/events").contentType(MediaType.APPLICATION_JSON)
            .body(events).retrieve().body(MAP);
        assertThat(inserted).containsEntry("inserted", 4);

        List<Map<String, Object>> counts = this.http.get().uri("/analytics/counts").retrieve().body(LIST_OF_MAPS);
        assertThat(counts).containsExactly(
                Map.of("eventType", "click", "events", 3, "totalValue", 1.5),
                Map.of("eventType", "purchase", "events", 1, "totalValue", 19.5));

        List<Map<String, Object>> top = this.http.get().uri("/analytics/top-users?limit=1").retrieve()
            .body(LIST_OF_MAPS);
        assertThat(top).hasSize(1);
        assertThat(top.get(0)).containsEntry("userId", 7).containsEntry("events", 3)
            .containsEntry("totalValue", 21.0).containsEntry("lastSeen", "2025-01-02T04:11:00Z");

        List<Map<String, Object>> hours = this.http.get().uri("/analytics/timeline?bucket=hour").retrieve()
            .body(LIST_OF_MAPS);
        assertThat(hours).containsExactly(
                Map.of("bucket", "2025-01-02T03:00:00Z", "events", 2, "totalValue", 20.5),
                Map.of("bucket", "2025-01-02T04:00:00Z", "events", 2, "totalValue", 0.5));
        List<Map<String, Object>> minutes = this.http.get().uri("/analytics/timeline?bucket=minute&type=click")
            .retrieve().body(LIST_OF_MAPS);
        assertThat(minutes).extracting((bucket) -> bucket.get("bucket"))
            .containsExactly("2025-01-02T03:04:00Z", "2025-01-02T04:10:00Z", "2025-01-02T04:11:00Z");

        Map<String, Object> summary = this.http.get().uri("/analytics/summary").retrieve().body(MAP);
        assertThat(summary).containsEntry("totalEvents", 4).containsEntry("distinctUsers", 2)
            .containsEntry("eventTypes", 2).containsEntry("firstEvent", "2025-01-02T03:04:05.678Z");
        assertThat(summary.get("serverVersion")).asString().startsWith("26.7.");

        // Generated events, both ways, land in the same table.
        Map<String, Object> server = this.http.post().uri("/events/generate?count=5000&mode=server").retrieve()
            .body(MAP);
        assertThat(server).containsEntry("inserted", 5000).containsEntry("mode", "server");
        Map<String, Object> client = this.http.post().uri("/events/generate?count=3000&mode=client").retrieve()
            .body(MAP);
        assertThat(client).containsEntry("inserted", 3000).containsEntry("mode", "client");
        assertThat(this.http.get().uri("/analytics/summary").retrieve().body(MAP))
            .containsEntry("totalEvents", 4 + 5000 + 3000);
    }

    @Test
    void badRequestsAreRejected() {
        assertThat(this.http.get().uri("/analytics/timeline?bucket=fortnight").retrieve().toBodilessEntity()
            .getStatusCode().value()).isEqualTo(400);
        assertThat(this.http.post().uri("/events/generate?count=5&mode=quantum").retrieve().toBodilessEntity()
            .getStatusCode().value()).isEqualTo(400);
        assertThat(this.http.post().uri("/events").contentType(MediaType.APPLICATION_JSON)
            .body("[{\"userId\": 1}]").retrieve().toBodilessEntity().getStatusCode().value()).isEqualTo(400);
    }

    @Test
    void healthShowsClickHouse() {
        Map<String, Object> health = this.http.get().uri("/actuator/health").retrieve().body(MAP);
        assertThat(health).containsEntry("status", "UP");
        @SuppressWarnings("unchecked")
        Map<String, Object> clickhouse = (Map<String, Object>) ((Map<String, Object>) health.get("components"))
            .get("clickHouseTcp");
        assertThat(clickhouse).containsEntry("status", "UP");
        assertThat(clickhouse.get("details")).asString().contains("version=26.7.");
        Map<String, Object> metric = this.http.get().uri("/actuator/metrics/clickhouse.tcp.pool.max").retrieve()
            .body(MAP);
        assertThat(metric).containsEntry("name", "clickhouse.tcp.pool.max");
    }

    @Test
    @SuppressWarnings("unchecked")
    void clickhouseEndpointDescribesTheClient() {
        this.http.get().uri("/actuator/health").retrieve().toBodilessEntity(); // the pool connects at least once
        Map<String, Object> body = this.http.get().uri("/actuator/clickhouse").retrieve().body(MAP);
        Map<String, Object> client = (Map<String, Object>) ((Map<String, Object>) body.get("clients"))
            .get("clickHouseTcpClient");
        List<Map<String, Object>> endpoints = (List<Map<String, Object>>) client.get("endpoints");
        assertThat(endpoints).singleElement().satisfies((endpoint) -> {
            assertThat(endpoint).containsEntry("status", "known");
            assertThat(endpoint.get("server")).asString().contains("version=26.7.");
        });
        assertThat((Map<String, Object>) client.get("pool")).containsEntry("max", 10);
        assertThat((Map<String, Object>) client.get("configuration")).containsEntry("username", "******");
        assertThat((Map<String, Object>) client.get("memory")).containsEntry("maxConnections", 10);
    }
}
