package dev.clickhousetcp.sample;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.jdbc.ClickHouseClientDataSource;
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

/**
 * {@code GET /analytics/event-types}: JdbcClient over the starter's DataSource, which borrows from the pool of the
 * {@code ClickHouseTcpTemplate} (no second pool), against the real ClickHouse 26.7 server with a table of its own.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Tag("clickhouse")
class JdbcReportTests {

    private static final String TABLE = "sample_jdbc_test_" + UUID.randomUUID().toString().replace("-", "");

    @LocalServerPort
    private int port;

    @Autowired
    private DataSource dataSource;

    @Autowired
    private ClickHouseTcpTemplate template;

    @DynamicPropertySource
    static void clickhouse(DynamicPropertyRegistry registry) {
        SampleApplicationTests.clickhouse(registry, TABLE);
    }

    @AfterAll
    static void dropTable() {
        ClickHouseServers.modern().httpQuery("DROP TABLE IF EXISTS " + TABLE);
    }

    @Test
    void eventTypesComeThroughJdbcOverTheTemplatesPool() {
        RestClient http = RestClient.builder()
            .baseUrl("http://127.0.0.1:" + this.port)
            .defaultStatusHandler(HttpStatusCode::isError, (request, response) -> { })
            .build();
        SampleApplicationTests.awaitTrue("the events table to be created", Duration.ofSeconds(30),
                () -> http.get().uri("/actuator/health/readiness").retrieve().toBodilessEntity()
                    .getStatusCode().value() == 200);
        String events = """
                [{"userId": 1, "eventType": "click"}, {"userId": 2, "eventType": "click"},
                 {"userId": 1, "eventType": "view"}, {"userId": 3, "eventType": "click"},
                 {"userId": 3, "eventType": "purchase", "value": 9.5}, {"userId": 2, "eventType": "view"}]
                """;
        http.post().uri("/events").contentType(MediaType.APPLICATION_JSON).body(events).retrieve().toBodilessEntity();

        ParameterizedTypeReference<List<Map<String, Object>>> listOfMaps = new ParameterizedTypeReference<>() { };
        assertThat(http.get().uri("/analytics/event-types").retrieve().body(listOfMaps)).containsExactly(
                Map.of("eventType", "click", "events", 3), Map.of("eventType", "purchase", "events", 1),
                Map.of("eventType", "view", "events", 2));
        assertThat(http.get().uri("/analytics/event-types?minEvents=2").retrieve().body(listOfMaps))
            .containsExactly(Map.of("eventType", "click", "events", 3), Map.of("eventType", "view", "events", 2));
        assertThat(http.get().uri("/analytics/event-types?minEvents=0").retrieve().toBodilessEntity()
            .getStatusCode().value()).isEqualTo(400);

        // one pool: the DataSource is over the template's client, and its connections go back after each request
        ClickHouseTcpClient client = this.template.getClient();
        assertThat(this.dataSource).isInstanceOf(ClickHouseClientDataSource.class);
        assertThat(((ClickHouseClientDataSource) this.dataSource).getClient()).isSameAs(client);
        assertThat(client.poolStats().active()).isZero();
        Map<String, Object> db = http.get().uri("/actuator/health/db").retrieve()
            .body(new ParameterizedTypeReference<Map<String, Object>>() { });
        assertThat(db).containsEntry("status", "UP");
    }

}
