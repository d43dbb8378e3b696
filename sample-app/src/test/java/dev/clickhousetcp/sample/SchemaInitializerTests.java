package dev.clickhousetcp.sample;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.FaultProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The app starts while ClickHouse cannot be reached: every connection through a proxy is ended before the
 * handshake. It is live but not ready (the {@code schema} component DOWN with its attempts and last error),
 * the endpoints answer 503; once ClickHouse can be reached the table is created on a later attempt, readiness
 * turns UP and the endpoints work.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "sample.events.schema-retry.initial-backoff=100ms", "sample.events.schema-retry.max-backoff=400ms" })
@Tag("clickhouse")
class SchemaInitializerTests {

    private static final String TABLE = "sample_app_down_" + UUID.randomUUID().toString().replace("-", "");

    private static final ParameterizedTypeReference<Map<String, Object>> MAP = new ParameterizedTypeReference<>() { };

    private static final FaultProxy PROXY = FaultProxy.forNativePort(ClickHouseServers.modern());

    static {
        // a graceful end (FIN) at the first byte the client sends: the server only sees a connection close
        PROXY.on(FaultProxy.Direction.CLIENT_TO_SERVER).atOffset(0).truncate().onEveryConnection();
    }

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void clickhouse(DynamicPropertyRegistry registry) {
        registry.add("clickhouse.tcp.host", PROXY::host);
        registry.add("clickhouse.tcp.port", PROXY::port);
        registry.add("sample.events.table", () -> TABLE);
    }

    @AfterAll
    static void cleanUp() {
        PROXY.close();
        ClickHouseServers.modern().httpQuery("DROP TABLE IF EXISTS " + TABLE);
    }

    @Test
    @SuppressWarnings("unchecked")
    void startsWhileClickHouseIsDownAndBecomesReadyWhenItIsBack() {
        RestClient http = RestClient.builder()
            .baseUrl("http://127.0.0.1:" + this.port)
            .defaultStatusHandler(HttpStatusCode::isError, (request, response) -> { })
            .build();
        SampleApplicationTests.awaitTrue("two failed attempts", Duration.ofSeconds(20), () -> {
            Map<String, Object> schema = schemaComponent(http);
            return ((Integer) ((Map<String, Object>) schema.get("details")).get("attempts")) >= 2;
        });
        ResponseEntity<Map<String, Object>> readiness = http.get().uri("/actuator/health/readiness").retrieve()
            .toEntity(MAP);
        assertThat(readiness.getStatusCode().value()).isEqualTo(503);
        Map<String, Object> schema = schemaComponent(http);
        assertThat(schema).containsEntry("status", "DOWN");
        assertThat((Map<String, Object>) schema.get("details")).containsEntry("table", TABLE)
            .containsKey("lastError");
        assertThat(http.get().uri("/actuator/health/liveness").retrieve().toBodilessEntity().getStatusCode().value())
            .isEqualTo(200);
        ResponseEntity<String> counts = http.get().uri("/analytics/counts").retrieve().toEntity(String.class);
        assertThat(counts.getStatusCode().value()).isEqualTo(503);
        assertThat(counts.getHeaders().getFirst("Retry-After")).isEqualTo("5");
        assertThat(counts.getBody()).contains("not ready");
        assertThat(ClickHouseServers.modern().httpQuery("EXISTS TABLE " + TABLE).trim()).isEqualTo("0");

        PROXY.clearRules();
        SampleApplicationTests.awaitTrue("readiness UP", Duration.ofSeconds(20),
                () -> http.get().uri("/actuator/health/readiness").retrieve().toBodilessEntity().getStatusCode()
                    .value() == 200);
        assertThat(schemaComponent(http)).containsEntry("status", "UP");
        assertThat(ClickHouseServers.modern().httpQuery("EXISTS TABLE " + TABLE).trim()).isEqualTo("1");
        assertThat(http.get().uri("/analytics/counts").retrieve().toEntity(String.class).getBody()).isEqualTo("[]");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> schemaComponent(RestClient http) {
        Map<String, Object> readiness = http.get().uri("/actuator/health/readiness").retrieve().body(MAP);
        return (Map<String, Object>) ((Map<String, Object>) readiness.get("components")).get("schema");
    }
}
