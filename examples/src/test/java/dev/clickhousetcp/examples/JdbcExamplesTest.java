package dev.clickhousetcp.examples;

import dev.clickhousetcp.examples.jdbc.FlywayMigration;
import dev.clickhousetcp.examples.jdbc.JdbcClientRecords;
import dev.clickhousetcp.examples.jdbc.JdbcTemplateBatchInsert;
import dev.clickhousetcp.jdbc.ClickHouseDataSource;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The JDBC examples (JdbcTemplate, JdbcClient, Flyway) through the driver, each checked over HTTP. */
@ClickHouseTest
class JdbcExamplesTest extends ExampleTestSupport {
    private ClickHouseDataSource dataSource;

    @BeforeEach
    void dataSource() {
        dataSource = new ClickHouseDataSource("jdbc:clickhouse:tcp://" + server.host() + ":" + server.tcpPort()
                + "/default");
    }

    @Test
    void jdbcTemplateBatchInsert() {
        String table = table("page_views");
        String logComment = "example-" + UUID.randomUUID();
        dataSource.setProperty("setting.log_comment", logComment);
        long written = JdbcTemplateBatchInsert.run(new JdbcTemplate(dataSource), table, 10_000);
        String[] stored = Http.rows(server, "SELECT count(), sum(id), uniqExact(page), min(at), max(at) FROM " + table)
                .get(0);
        assertThat(written).isEqualTo(Long.parseLong(stored[0])).isEqualTo(10_000);
        assertThat(stored).containsExactly("10000", String.valueOf(10_000L * 9_999 / 2), "50",
                "2024-06-01 00:00:00.000", "2024-06-01 04:09:58.500");
        server.httpQuery("SYSTEM FLUSH LOGS");
        // five batches of 2,000 rows: five INSERTs, not 10,000
        assertThat(Http.rows(server, "SELECT written_rows FROM system.query_log WHERE log_comment = '" + logComment
                + "' AND type = 'QueryFinish' AND query_kind = 'Insert'")).extracting(r -> r[0])
                .containsExactly("2000", "2000", "2000", "2000", "2000");
    }

    @Test
    void jdbcClientRecords() {
        String table = table("jdbc_orders");
        List<JdbcClientRecords.Order> read = JdbcClientRecords.run(JdbcClient.create(dataSource), table);
        List<String[]> stored = Http.rows(server, "SELECT order_id, customer_id, customer, amount, day,"
                + " arrayStringConcat(tags, ',') FROM " + table
                + " WHERE customer IN ('bob', 'carol') AND amount > 10 ORDER BY order_id");
        assertThat(read).extracting(JdbcClientRecords.Order::orderId).containsExactly(3L, 4L);
        assertThat(read).hasSize(stored.size());
        for (int i = 0; i < read.size(); i++) {
            String[] row = stored.get(i);
            // Decimal(12, 2): the scale is the column's, the server's text drops trailing zeros
            assertThat(read.get(i)).isEqualTo(new JdbcClientRecords.Order(Long.parseLong(row[0]), UUID.fromString(row[1]),
                    row[2], new BigDecimal(row[3]).setScale(2), LocalDate.parse(row[4]),
                    row[5].isEmpty() ? List.of() : Arrays.asList(row[5].split(","))));
        }
    }

    @Test
    void flywayMigration() {
        String table = table("events");
        String history = FlywayMigration.historyTable(table);
        try {
            assertThat(FlywayMigration.run(dataSource, table)).isEqualTo(new FlywayMigration.Migrated(3, "3"));
            // the database already held other tables: Flyway baselined it at version 0 first
            assertThat(Http.rows(server, "SELECT id, name, country, at FROM " + table + " ORDER BY id"))
                    .containsExactly(new String[] {"1", "signup", "NP", "2024-06-01 10:00:00.250"},
                            new String[] {"2", "login", "unknown", "2024-06-01 10:05:00.000"});
            assertThat(Http.rows(server, "SELECT version, type, success FROM " + history + " ORDER BY installed_rank"))
                    .containsExactly(new String[] {"0", "BASELINE", "true"}, new String[] {"1", "SQL", "true"},
                            new String[] {"2", "SQL", "true"}, new String[] {"3", "SQL", "true"});
            assertThat(FlywayMigration.run(dataSource, table)).isEqualTo(new FlywayMigration.Migrated(0, "3"));
            assertThat(Http.longValue(server, "SELECT count() FROM " + table)).isEqualTo(2);
        } finally {
            server.httpQuery("DROP TABLE IF EXISTS " + history);
        }
    }

    @ParameterizedTest
    @ValueSource(classes = {JdbcTemplateBatchInsert.class, JdbcClientRecords.class, FlywayMigration.class})
    void mainPrintsItsResultAndDropsItsTables(Class<?> example) throws Exception {
        String table = MainMethodsTest.uniqueTable();
        System.setProperty("clickhouse.host", server.host());
        System.setProperty("clickhouse.port", String.valueOf(server.tcpPort()));
        System.setProperty("example.table", table);
        try {
            assertThat(MainMethodsTest.runMain(example)).isNotBlank();
            assertThat(MainMethodsTest.exists(table)).isFalse();
            assertThat(MainMethodsTest.exists(FlywayMigration.historyTable(table))).isFalse();
        } finally {
            System.clearProperty("clickhouse.host");
            System.clearProperty("clickhouse.port");
            MainMethodsTest.dropQuietly(table);
            server.httpQuery("DROP TABLE IF EXISTS " + FlywayMigration.historyTable(table));
        }
    }
}
