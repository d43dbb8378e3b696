package dev.clickhousetcp.sample;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The events table exists before the app starts, created without {@code non_replicated_deduplication_window}
 * (so a plain MergeTree keeps no block tokens): the app turns deduplication on for it, and the same batch sent
 * twice with one Idempotency-Key is stored once. A table of another engine cannot deduplicate: the schema
 * report says so and an insert with a key is refused.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Tag("clickhouse")
class DeduplicationTests {

    private static final String TABLE = "sample_app_dedup_" + UUID.randomUUID().toString().replace("-", "");

    private static final String LOG_TABLE = TABLE + "_log";

    private static final String COLUMNS = "(event_time DateTime64(3, 'UTC'), user_id UInt64, "
            + "event_type LowCardinality(String), value Float64, tags Array(String))";

    private static final ParameterizedTypeReference<Map<String, Object>> MAP = new ParameterizedTypeReference<>() { };

    @LocalServerPort
    private int port;

    @Autowired
    private ClickHouseTcpTemplate template;

    @DynamicPropertySource
    static void clickhouse(DynamicPropertyRegistry registry) {
        ClickHouseServers.modern().httpQuery("CREATE TABLE " + TABLE + " " + COLUMNS
                + " ENGINE = MergeTree ORDER BY (event_type, event_time)");
        registry.add("clickhouse.tcp.host", () -> ClickHouseServers.modern().host());
        registry.add("clickhouse.tcp.port", () -> ClickHouseServers.modern().tcpPort());
        registry.add("sample.events.table", () -> TABLE);
    }

    @AfterAll
    static void dropTables() {
        ClickHouseServers.modern().httpQuery("DROP TABLE IF EXISTS " + TABLE);
        ClickHouseServers.modern().httpQuery("DROP TABLE IF EXISTS " + LOG_TABLE);
    }

    @Test
    @SuppressWarnings("unchecked")
    void existingTableWithoutTheSettingDeduplicatesAfterStartup() {
        RestClient http = RestClient.builder()
            .baseUrl("http://127.0.0.1:" + this.port)
            .defaultStatusHandler(HttpStatusCode::isError, (request, response) -> { })
            .build();
        SampleApplicationTests.awaitTrue("readiness UP", Duration.ofSeconds(30),
                () -> http.get().uri("/actuator/health/readiness").retrieve().toBodilessEntity().getStatusCode()
                    .value() == 200);
        Map<String, Object> readiness = http.get().uri("/actuator/health/readiness").retrieve().body(MAP);
        Map<String, Object> schema = (Map<String, Object>) ((Map<String, Object>) readiness.get("components"))
            .get("schema");
        assertThat((Map<String, Object>) schema.get("details")).containsEntry("deduplication", true);

        String batch = "[{\"userId\": 1, \"eventType\": \"dedup\"}, {\"userId\": 2, \"eventType\": \"dedup\"}]";
        for (int i = 0; i < 2; i++) {
            assertThat(http.post().uri("/events").contentType(MediaType.APPLICATION_JSON)
                .header("Idempotency-Key", "same-key").body(batch).retrieve().toEntity(MAP).getStatusCode().value())
                .isEqualTo(200);
        }
        assertThat(ClickHouseServers.modern().httpQuery("SELECT count() FROM " + TABLE).trim()).isEqualTo("2");
        assertThat(ClickHouseServers.modern().httpQuery("SELECT value FROM system.merge_tree_settings "
                + "WHERE name = 'non_replicated_deduplication_window'").trim()).isEqualTo("0");
    }

    @Test
    void tableOfAnotherEngineRefusesAnIdempotencyKey() {
        ClickHouseServers.modern().httpQuery("CREATE TABLE " + LOG_TABLE + " " + COLUMNS + " ENGINE = Log");
        EventsProperties properties = new EventsProperties();
        properties.setTable(LOG_TABLE);
        EventRepository events = new EventRepository(this.template, properties);
        SchemaInitializer schema = new SchemaInitializer(events, properties);
        schema.start();
        try {
            SampleApplicationTests.awaitTrue("the schema check", Duration.ofSeconds(30), schema::isReady);
            assertThat(schema.health().getDetails()).containsEntry("deduplication", false)
                .hasEntrySatisfying("deduplicationDetail", (detail) -> assertThat(detail).asString().contains("Log"));
            EventController controller = new EventController(events, properties, schema);
            List<Event> batch = List.of(new Event(null, 1L, "dedup", null, null));
            assertThatThrownBy(() -> controller.ingest(batch, "a-key"))
                .isInstanceOf(SchemaInitializer.DeduplicationUnavailableException.class)
                .hasMessageContaining("cannot deduplicate");
            assertThat(ClickHouseServers.modern().httpQuery("SELECT count() FROM " + LOG_TABLE).trim()).isEqualTo("0");
            assertThat(controller.ingest(batch, null)).containsEntry("inserted", 1L);
        }
        finally {
            schema.stop();
        }
    }
}
