package dev.clickhousetcp.sample;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app end to end: a real HTTP server on a random port, the real ClickHouse 26.7 server, and a
 * table of its own so reruns start clean. The first test asserts exact results on the data it inserts, so
 * the tests run in order; the later ones add data of their own event types.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(OutputCaptureExtension.class)
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
        clickhouse(registry, TABLE);
    }

    /** Points the app at the 26.7 server with its events in {@code table}. */
    static void clickhouse(DynamicPropertyRegistry registry, String table) {
        ClickHouseServer server = ClickHouseServers.modern();
        registry.add("clickhouse.tcp.host", server::host);
        registry.add("clickhouse.tcp.port", server::tcpPort);
        registry.add("sample.events.table", () -> table);
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
        awaitTrue("the events table to be created", Duration.ofSeconds(30),
                () -> this.http.get().uri("/actuator/health/readiness").retrieve().toBodilessEntity()
                    .getStatusCode().value() == 200);
    }

    @Test
    @Order(1)
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

        // the same timeline as columns (the block tier): Unix seconds, counts, sums
        Map<String, Object> series = this.http.get().uri("/analytics/series?bucket=minute").retrieve().body(MAP);
        int minute3 = Math.toIntExact(Instant.parse("2025-01-02T03:04:00Z").getEpochSecond()); // JSON numbers read as Integer
        assertThat(series).containsEntry("times", List.of(minute3, minute3 + 66 * 60, minute3 + 67 * 60))
            .containsEntry("events", List.of(2, 1, 1))
            .containsEntry("totalValues", List.of(20.5, 0.0, 0.5));

        // a report over a session with a temporary table: user 7 has 3 events, user 8 one
        Map<String, Object> power = this.http.get().uri("/reports/power-users?minEvents=3").retrieve().body(MAP);
        assertThat(power).containsEntry("users", 1).containsEntry("byType", List.of(
                Map.of("eventType", "click", "events", 2, "totalValue", 1.5),
                Map.of("eventType", "purchase", "events", 1, "totalValue", 19.5)));
        assertThat(this.http.get().uri("/reports/power-users?minEvents=4").retrieve().body(MAP))
            .containsEntry("users", 0).containsEntry("byType", List.of());

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

    /** The same batch sent twice with one Idempotency-Key is stored once; a new key stores it again. */
    @Test
    @Order(2)
    void insertWithIdempotencyKeyIsStoredOnce() {
        String batch = """
                [{"userId": 100, "eventType": "retry_probe", "value": 1},
                 {"userId": 101, "eventType": "retry_probe", "value": 2}]
                """;
        String key = "batch-" + UUID.randomUUID();
        for (int i = 0; i < 2; i++) {
            assertThat(this.http.post().uri("/events").contentType(MediaType.APPLICATION_JSON)
                .header("Idempotency-Key", key).body(batch).retrieve().body(MAP)).containsEntry("inserted", 2);
        }
        assertThat(countOf("retry_probe")).isEqualTo(2);
        this.http.post().uri("/events").contentType(MediaType.APPLICATION_JSON)
            .header("Idempotency-Key", key + "-2").body(batch).retrieve().toBodilessEntity();
        assertThat(countOf("retry_probe")).isEqualTo(4);
    }

    private long countOf(String eventType) {
        return Long.parseLong(ClickHouseServers.modern().httpQuery("SELECT count() FROM " + TABLE
                + " WHERE event_type = '" + eventType + "'").trim());
    }

    @Test
    @Order(3)
    void badRequestsAreRejected() {
        assertStatus(400, this.http.get().uri("/analytics/timeline?bucket=fortnight"));
        assertStatus(400, this.http.get().uri("/analytics/series?limit=0"));
        assertStatus(400, this.http.get().uri("/analytics/top-users?limit=0"));
        assertStatus(400, this.http.post().uri("/events/generate?count=5&mode=quantum"));
        assertStatus(400, this.http.post().uri("/events/generate?count=0"));
        assertStatus(400, this.http.post().uri("/events").contentType(MediaType.APPLICATION_JSON)
            .body("[{\"userId\": 1}]"));
        assertStatus(400, this.http.post().uri("/events").contentType(MediaType.APPLICATION_JSON)
            .body("[{\"userId\": -1, \"eventType\": \"click\"}]"));
        assertStatus(400, this.http.post().uri("/events").contentType(MediaType.APPLICATION_JSON)
            .body("[{\"userId\": 1, \"eventType\": \"click\", \"tags\": [null]}]"));
        assertStatus(400, this.http.post().uri("/events").contentType(MediaType.APPLICATION_JSON)
            .header("Idempotency-Key", "no spaces allowed").body("[{\"userId\": 1, \"eventType\": \"click\"}]"));
        assertStatus(400, this.http.get().uri("/events/export?format=xml"));
        assertStatus(400, this.http.get().uri("/events/export?limit=-1"));
        assertStatus(400, this.http.get().uri("/reports/power-users?minEvents=0"));
        assertStatus(400, this.http.post().uri("/reports/slow?seconds=0"));
        assertStatus(400, this.http.post().uri("/reports/slow?seconds=3601"));
        assertStatus(404, this.http.get().uri("/reports/not-a-uuid"));
        assertStatus(404, this.http.delete().uri("/reports/not-a-uuid"));
        assertStatus(404, this.http.delete().uri("/reports/" + UUID.randomUUID()), "no report");
        assertStatus(404, this.http.get().uri("/reports/" + UUID.randomUUID().toString().toUpperCase(Locale.ROOT)),
                "no report");
        assertStatus(405, this.http.get().uri("/reports/slow"));
        // values outside what the table and the analytics buckets hold, numbers that are not numbers
        assertStatus(400, postEvents("[{\"eventTime\": \"1900-01-01T00:00:00Z\", \"userId\": 1, \"eventType\": \"click\"}]"),
                "event 0: eventTime must be between 1970-01-01T00:00:00Z and 2105-12-31T23:59:59.999Z");
        assertStatus(400, postEvents("[{\"eventTime\": \"9999-12-31T00:00:00Z\", \"userId\": 1, \"eventType\": \"click\"}]"),
                "eventTime");
        assertStatus(400, postEvents("[{\"userId\": 1, \"eventType\": \"click\", \"value\": \"NaN\"}]"),
                "value must be a finite number");
        assertStatus(400, postEvents("[{\"userId\": 1, \"eventType\": \"click\", \"value\": 1e400}]"),
                "value must be a finite number");
        assertStatus(400, postEvents("[{\"userId\": 1, \"eventType\": \"click\", \"value\": \"-Infinity\"}]"),
                "value must be a finite number");
        assertStatus(400, postEvents("[{\"userId\": 1.5, \"eventType\": \"click\"}]"), "events[0].userId must be an integer");
        assertStatus(400, postEvents("[{\"userId\": \"abc\", \"eventType\": \"click\"}]"), "events[0].userId");
        assertStatus(400, postEvents("[{\"userId\": 1, \"eventType\": \"click\", \"eventTime\": \"yesterday\"}]"),
                "events[0].eventTime must be an ISO-8601 instant");
        // bodies that are not a JSON array of events, and a body that is not JSON at all
        assertStatus(400, postEvents("[{\"userId\": 1, \"eventType\":"), "not valid JSON");
        assertStatus(400, postEvents("userId=1&eventType=click"), "not valid JSON");
        assertStatus(400, postEvents("{\"userId\": 1, \"eventType\": \"click\"}"), "must be a JSON array of events");
        assertStatus(400, postEvents(""), "JSON array of events");
        assertStatus(415, this.http.post().uri("/events").contentType(MediaType.TEXT_PLAIN)
            .body("[{\"userId\": 1, \"eventType\": \"click\"}]"), "text/plain");
        // query parameters that are not numbers name the parameter
        assertStatus(400, this.http.post().uri("/events/generate?count=abc"), "count must be an integer");
        assertStatus(400, this.http.get().uri("/analytics/top-users?limit=100000000000"), "limit must be an integer");
        assertStatus(400, this.http.get().uri("/reports/power-users?minEvents=x"), "minEvents must be an integer");
        assertStatus(400, this.http.post().uri("/reports/slow?seconds=abc"), "seconds must be an integer");
        assertStatus(400, this.http.get().uri("/trace/xyz/spans"));
        assertStatus(400, this.http.get().uri("/trace/" + "0".repeat(32) + "/spans"));
        // nothing of the rejected batches was stored
        assertThat(countOf("click")).isEqualTo(3 + Long.parseLong(ClickHouseServers.modern().httpQuery(
                "SELECT count() FROM " + TABLE + " WHERE event_type = 'click' AND event_time > '2025-01-03'").trim()));
    }

    private RestClient.RequestHeadersSpec<?> postEvents(String body) {
        return this.http.post().uri("/events").contentType(MediaType.APPLICATION_JSON).body(body);
    }

    /**
     * Every 4xx is a problem detail whose detail says what was wrong (the given parts), without a stack trace or
     * the names of the app's or the parser's classes.
     */
    private static void assertStatus(int status, RestClient.RequestHeadersSpec<?> request, String... detailParts) {
        ResponseEntity<Map<String, Object>> response = request.retrieve().toEntity(MAP);
        assertThat(response.getStatusCode().value()).as("%s", response.getBody()).isEqualTo(status);
        assertThat(response.getHeaders().getContentType()).hasToString("application/problem+json");
        assertThat(response.getBody()).containsEntry("status", status).containsKey("detail");
        String detail = (String) response.getBody().get("detail");
        assertThat(detail).isNotBlank().doesNotContain("Exception", "jackson", "dev.clickhousetcp", "java.");
        if (detailParts.length > 0) {
            assertThat(detail).contains(detailParts);
        }
    }

    @Test
    @Order(4)
    void exportStreamsCsvAndNdjson() {
        this.http.post().uri("/events").contentType(MediaType.APPLICATION_JSON).body("""
                [{"eventTime": "2025-02-01T00:00:01.5Z", "userId": 1, "eventType": "export_probe", "value": 2.5, "tags": ["a", "b,c"]},
                 {"eventTime": "2025-02-01T00:00:02Z", "userId": 2, "eventType": "export_probe", "tags": ["say \\"hi\\""]}]
                """).retrieve().toBodilessEntity();
        ResponseEntity<String> csv = this.http.get().uri("/events/export?type=export_probe").retrieve()
            .toEntity(String.class);
        assertThat(csv.getHeaders().getContentType().toString()).startsWith("text/csv");
        assertThat(csv.getBody()).isEqualTo("""
                event_time,user_id,event_type,value,tags
                2025-02-01T00:00:01.500Z,1,export_probe,2.5,"a|b,c"
                2025-02-01T00:00:02Z,2,export_probe,0.0,"say ""hi\"""
                """);
        ResponseEntity<String> ndjson = this.http.get().uri("/events/export?format=ndjson&type=export_probe&limit=1")
            .retrieve().toEntity(String.class);
        assertThat(ndjson.getHeaders().getContentType().toString()).isEqualTo("application/x-ndjson");
        assertThat(ndjson.getBody()).isEqualTo("{\"eventTime\":\"2025-02-01T00:00:01.500Z\",\"userId\":1,"
                + "\"eventType\":\"export_probe\",\"value\":2.5,\"tags\":[\"a\",\"b,c\"]}\n");
    }

    /**
     * A client that stops reading an export and disconnects: the app notices on its next write, closes the
     * stream, the query leaves system.processes and the connection goes back to the pool (none stays active).
     */
    @Test
    @Order(5)
    void exportEndsWhenTheClientGoesAway() throws Exception {
        ClickHouseServer server = ClickHouseServers.modern();
        server.httpQuery("INSERT INTO " + TABLE + " (event_time, user_id, event_type, value, tags) SELECT "
                + "toDateTime64('2025-03-01 00:00:00', 3, 'UTC') + number, number % 100, 'bulk', number, ['x'] "
                + "FROM numbers(500000)");
        try (Socket socket = new Socket("127.0.0.1", this.port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /events/export?type=bulk HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[64 * 1024];
            int read = in.readNBytes(buffer, 0, buffer.length);
            assertThat(new String(buffer, 0, read, StandardCharsets.UTF_8)).startsWith("HTTP/1.1 200")
                .contains("event_time,user_id,event_type,value,tags");
            awaitTrue("the export query to run", Duration.ofSeconds(10), () -> exportQueriesRunning(server) > 0);
        }
        awaitTrue("the export query to end", Duration.ofSeconds(20), () -> exportQueriesRunning(server) == 0);
        awaitTrue("no pooled connection to stay active", Duration.ofSeconds(20), () -> poolActive() == 0);
    }

    private static long exportQueriesRunning(ClickHouseServer server) {
        return Long.parseLong(server.httpQuery("SELECT count() FROM system.processes WHERE query_id != queryID() "
                + "AND query LIKE 'SELECT event_time, user_id, event_type, value, tags FROM " + TABLE + "%'").trim());
    }

    @SuppressWarnings("unchecked")
    private int poolActive() {
        Map<String, Object> body = this.http.get().uri("/actuator/clickhouse").retrieve().body(MAP);
        Map<String, Object> client = (Map<String, Object>) ((Map<String, Object>) body.get("clients"))
            .get("clickHouseTcpClient");
        return (Integer) ((Map<String, Object>) client.get("pool")).get("active");
    }

    /** Start a long query, see it on the server, cancel it, and see it gone from system.processes. */
    @Test
    @Order(6)
    void slowReportCanBeCancelled() {
        ClickHouseServer server = ClickHouseServers.modern();
        ResponseEntity<Map<String, Object>> started = this.http.post().uri("/reports/slow?seconds=600").retrieve()
            .toEntity(MAP);
        assertThat(started.getStatusCode().value()).isEqualTo(202);
        String id = (String) started.getBody().get("queryId");
        assertThat(started.getBody()).containsEntry("state", "RUNNING");
        assertThat(started.getHeaders().getLocation()).hasToString("/reports/" + id);
        String running = "SELECT count() FROM system.processes WHERE query_id = '" + id + "'";
        awaitTrue("the report's query on the server", Duration.ofSeconds(10),
                () -> server.httpQuery(running).trim().equals("1"));
        assertThat(this.http.get().uri("/reports/" + id).retrieve().body(MAP)).containsEntry("state", "RUNNING");

        ResponseEntity<Map<String, Object>> cancelled = this.http.delete().uri("/reports/" + id).retrieve()
            .toEntity(MAP);
        assertThat(cancelled.getStatusCode().value()).isEqualTo(200);
        assertThat(cancelled.getBody().get("state")).isIn("CANCELLING", "CANCELLED");
        awaitTrue("the query to leave system.processes", Duration.ofSeconds(10),
                () -> server.httpQuery(running).trim().equals("0"));
        awaitTrue("the report to be CANCELLED", Duration.ofSeconds(10),
                () -> "CANCELLED".equals(this.http.get().uri("/reports/" + id).retrieve().body(MAP).get("state")));
        awaitTrue("no pooled connection to stay active", Duration.ofSeconds(20), () -> poolActive() == 0);
    }

    /**
     * A request that arrives with a W3C trace context: its trace id is in the app's log line, the app's
     * client spans and ClickHouse's server spans (system.opentelemetry_span_log) are in that trace, the
     * server's spans hang under the client spans, and GET /trace/{id}/spans shows both; the query metrics
     * show under /actuator/metrics and /actuator/prometheus.
     */
    @Test
    @Order(7)
    @SuppressWarnings("unchecked")
    void tracesAndMetrics(CapturedOutput output) {
        String traceId = UUID.randomUUID().toString().replace("-", "");
        Map<String, Object> inserted = this.http.post().uri("/events").contentType(MediaType.APPLICATION_JSON)
            .header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01")
            .body("[{\"userId\": 5, \"eventType\": \"traced\"}]").retrieve().body(MAP);
        assertThat(inserted).containsEntry("inserted", 1);
        assertThat(output.getOut().lines().filter((line) -> line.contains(traceId)))
            .anySatisfy((line) -> assertThat(line).contains("Inserted 1 events"));

        // the export writes its response on a task executor thread: the trace follows it there
        String exportTraceId = UUID.randomUUID().toString().replace("-", "");
        assertThat(this.http.get().uri("/events/export?type=traced").header("traceparent", "00-" + exportTraceId
                + "-00f067aa0ba902b7-01").retrieve().body(String.class)).contains(",5,traced,");
        assertThat(output.getOut().lines().filter((line) -> line.contains(exportTraceId)))
            .anySatisfy((line) -> assertThat(line).contains("Exported 1 events as csv"));

        Map<String, Object> trace = this.http.get().uri("/trace/" + traceId + "/spans?flush=true").retrieve()
            .body(MAP);
        List<Map<String, Object>> application = (List<Map<String, Object>>) trace.get("application");
        List<Map<String, Object>> clientSpans = application.stream()
            .filter((span) -> span.get("kind").equals("CLIENT"))
            .toList();
        assertThat(clientSpans).isNotEmpty().allSatisfy((span) -> assertThat(span.get("attributes").toString())
            .contains("db.system.name=clickhouse"));
        assertThat(application).anySatisfy((span) -> assertThat(span).containsEntry("kind", "SERVER")
            .containsEntry("parentSpanId", "00f067aa0ba902b7"));
        Set<String> clientSpanIds = clientSpans.stream().map((span) -> (String) span.get("spanId"))
            .collect(Collectors.toSet());
        List<Map<String, Object>> serverSpans = (List<Map<String, Object>>) trace.get("clickhouse");
        assertThat(serverSpans).isNotEmpty();
        Set<String> serverIds = serverSpans.stream().map((span) -> (String) span.get("spanId"))
            .collect(Collectors.toSet());
        Set<String> outsideParents = serverSpans.stream()
            .map((span) -> (String) span.get("parentSpanId"))
            .filter((parent) -> !serverIds.contains(parent))
            .collect(Collectors.toSet());
        assertThat(outsideParents).isNotEmpty().isSubsetOf(clientSpanIds);
        // the same spans straight from the server's log
        String uuid = traceId.replaceFirst("(.{8})(.{4})(.{4})(.{4})(.{12})", "$1-$2-$3-$4-$5");
        assertThat(ClickHouseServers.modern().httpQuery("SELECT count() FROM system.opentelemetry_span_log "
                + "WHERE trace_id = toUUID('" + uuid + "')").trim()).isEqualTo(String.valueOf(serverSpans.size()));

        Map<String, Object> timer = this.http.get().uri("/actuator/metrics/clickhouse.tcp.client.operation")
            .retrieve().body(MAP);
        assertThat(timer).containsEntry("name", "clickhouse.tcp.client.operation").containsEntry("baseUnit", "seconds");
        assertThat(timer.get("availableTags")).asString().contains("clickhouse.client.name")
            .contains("clickHouseTcpClient").contains("db.operation.name");
        String prometheus = this.http.get().uri("/actuator/prometheus").retrieve().body(String.class);
        assertThat(prometheus).contains("clickhouse_tcp_client_operation_seconds_count{")
            .contains("clickhouse_tcp_client_rows_read_rows_sum{")
            .contains("clickhouse_tcp_client_bytes_read_bytes_sum{")
            .contains("clickhouse_tcp_pool_max_connections{")
            .doesNotContain("db_query_text");
    }

    @Test
    @Order(8)
    @SuppressWarnings("unchecked")
    void healthShowsClickHouseAndTheSchema() {
        Map<String, Object> health = this.http.get().uri("/actuator/health").retrieve().body(MAP);
        assertThat(health).containsEntry("status", "UP");
        Map<String, Object> components = (Map<String, Object>) health.get("components");
        Map<String, Object> clickhouse = (Map<String, Object>) components.get("clickHouseTcp");
        assertThat(clickhouse).containsEntry("status", "UP");
        assertThat(clickhouse.get("details")).asString().contains("version=26.7.");
        Map<String, Object> readiness = this.http.get().uri("/actuator/health/readiness").retrieve().body(MAP);
        Map<String, Object> schema = (Map<String, Object>) ((Map<String, Object>) readiness.get("components"))
            .get("schema");
        assertThat(schema).containsEntry("status", "UP");
        assertThat((Map<String, Object>) schema.get("details")).containsEntry("table", TABLE)
            .containsEntry("matchesEventRecord", true).containsEntry("problems", List.of());
        Map<String, Object> metric = this.http.get().uri("/actuator/metrics/clickhouse.tcp.pool.max").retrieve()
            .body(MAP);
        assertThat(metric).containsEntry("name", "clickhouse.tcp.pool.max");
    }

    @Test
    @Order(9)
    @SuppressWarnings("unchecked")
    void clickhouseEndpointDescribesTheClient() {
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

    /**
     * The dashboard in headless Chromium against this app: the chart plots one point per minute bucket
     * (counted here on the server, independently of the app), the top users table is filled, the live pool
     * numbers come from the actuator; a screenshot goes to target/dashboard.png.
     */
    @Test
    @Order(10)
    void dashboardRendersInChromium() throws Exception {
        Chromium chromium = Chromium.require();
        ClickHouseServer server = ClickHouseServers.modern();
        long buckets = Long.parseLong(server.httpQuery("SELECT count() FROM (SELECT toStartOfMinute(event_time) AS b "
                + "FROM " + TABLE + " GROUP BY b ORDER BY b DESC LIMIT 1440)").trim());
        long users = Long.parseLong(server.httpQuery("SELECT least(10, uniqExact(user_id)) FROM " + TABLE).trim());
        assertThat(buckets).isGreaterThan(100);

        String dom = chromium.dumpDom("http://127.0.0.1:" + this.port + "/");
        assertThat(attribute(dom, "timeline", "data-points")).isEqualTo(String.valueOf(buckets));
        assertThat(dom).contains("<canvas");
        assertThat(attribute(dom, "top-users", "data-rows")).isEqualTo(String.valueOf(users));
        assertThat(dom).containsPattern("id=\"pool\">\\d+ / \\d+ / 10<");
        assertThat(dom).doesNotContain("Cannot load the timeline");

        Path png = Path.of("target", "dashboard.png");
        Files.deleteIfExists(png);
        chromium.screenshot("http://127.0.0.1:" + this.port + "/", png);
        byte[] bytes = Files.readAllBytes(png);
        assertThat(bytes.length).isGreaterThan(10_000);
        assertThat(new String(bytes, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    private static String attribute(String dom, String id, String name) {
        Matcher matcher = Pattern.compile("<[a-z]+ id=\"" + id + "\"[^>]*? " + name + "=\"([^\"]*)\"").matcher(dom);
        assertThat(matcher.find()).as("element #%s with %s in %s", id, name, dom).isTrue();
        return matcher.group(1);
    }

    static void awaitTrue(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(String.format(Locale.ROOT, "waited %s for %s", timeout, what));
            }
            try {
                Thread.sleep(50);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, ex);
            }
        }
    }
}
