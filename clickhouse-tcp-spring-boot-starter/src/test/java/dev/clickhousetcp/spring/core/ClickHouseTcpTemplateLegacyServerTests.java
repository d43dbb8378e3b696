package dev.clickhousetcp.spring.core;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.ExternalTable;
import dev.clickhousetcp.data.Int64Column;
import dev.clickhousetcp.mapping.SchemaReport;
import dev.clickhousetcp.mapping.TableColumn;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.LegacyServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.dao.InvalidDataAccessResourceUsageException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The template tour of docs/spring.md against the ClickHouse 18.16 server: its protocol revision, its
 * {@code DESCRIBE TABLE} columns and its temporary tables.
 */
@ClickHouseTest
class ClickHouseTcpTemplateLegacyServerTests {

    private static final String DB = "spring_template_legacy_test";

    private static ClickHouseTcpClient client;

    private static ClickHouseTcpTemplate template;

    record Trade(long id, String symbol, double price, Integer qty, LocalDate day) {
    }

    @BeforeAll
    static void connect(@LegacyServer ClickHouseServer legacy) {
        client = ClickHouseTcpClient.builder().host(legacy.host()).port(legacy.tcpPort()).maxPoolSize(4).build();
        template = new ClickHouseTcpTemplate(client);
        template.execute("DROP DATABASE IF EXISTS " + DB);
        template.execute("CREATE DATABASE " + DB);
        template.execute("CREATE TABLE " + DB + ".trades (id UInt64, symbol String, price Float64, "
                + "qty Nullable(Int32), day Date) ENGINE = MergeTree ORDER BY id");
    }

    @AfterAll
    static void close() {
        if (template != null) {
            template.execute("DROP DATABASE IF EXISTS " + DB);
        }
        if (client != null) {
            client.close();
        }
    }

    @Test
    void tourOnTheLegacyServer() {
        String table = DB + ".trades";
        LocalDate day = LocalDate.of(2024, 1, 2);
        assertThat(template.insert(table, List.of(new Trade(1, "ACME", 10.5, 100, day)))).isEqualTo(1);
        assertThat(template.insert(table, Stream.of(new Trade(2, "INIT", 20.25, null, day)))).isEqualTo(1);
        assertThat(template.insert(table, List.of("id", "symbol", "price", "qty", "day"),
                List.<Object[]>of(new Object[] { 3L, "ACME", 11.0, 300, day }))).isEqualTo(1);
        assertThat(template.insertColumns(table, Map.of("id", new long[] { 4 }, "symbol", List.of("ZED"), "price",
                new double[] { 1.0 }, "qty", java.util.Arrays.asList((Integer) null), "day", List.of(day))))
            .isEqualTo(1);

        assertThat(template.query("SELECT * FROM " + table + " ORDER BY id", Trade.class)).hasSize(4)
            .first()
            .isEqualTo(new Trade(1, "ACME", 10.5, 100, day));
        assertThat(template.queryForList("SELECT DISTINCT symbol FROM " + table + " ORDER BY symbol", String.class))
            .containsExactly("ACME", "INIT", "ZED");
        assertThat(template.queryForObject("SELECT * FROM " + table + " WHERE id = 2", Trade.class)).isEqualTo(new Trade(2, "INIT", 20.25, null, day));
        assertThat(template.queryForObject("SELECT count() FROM " + table, Long.class)).isEqualTo(4L);
        assertThat(template.forEach("SELECT * FROM " + table, Trade.class, (trade) -> { })).isEqualTo(4);
        try (Stream<Trade> trades = template.stream("SELECT * FROM " + table + " ORDER BY id", Trade.class)) {
            assertThat(trades.filter((t) -> t.price() > 10).count()).isEqualTo(3);
        }
        long[] sum = new long[1];
        QuerySummary summary = template.queryBlocks("SELECT toInt64(id) FROM " + table, (block) -> {
            Int64Column ids = (Int64Column) block.column(0);
            for (int row = 0; row < block.rowCount(); row++) {
                sum[0] += ids.getLong(row);
            }
        });
        assertThat(sum[0]).isEqualTo(10);
        assertThat(summary.rows()).isEqualTo(4);

        String id = "legacy-" + UUID.randomUUID();
        assertThat(template.sql("SELECT symbol FROM " + table + " WHERE id IN ids ORDER BY id")
            .externalTable(ExternalTable.of("ids", "id UInt64", List.of(new Object[] { 1L }, new Object[] { 3L })))
            .setting("max_threads", 2)
            .queryId(id)
            .query(String.class)).containsExactly("ACME", "ACME");

        List<TableColumn> columns = template.describe(table);
        assertThat(columns).extracting(TableColumn::name).containsExactly("id", "symbol", "price", "qty", "day");
        SchemaReport report = template.checkSchema(Trade.class, table);
        assertThat(report.ok()).as(report.toString()).isTrue();

        long matches = template.inSession((session) -> {
            session.execute("CREATE TEMPORARY TABLE wanted (id UInt64)");
            session.insertColumns("wanted", Map.of("id", new long[] { 1, 2, 3 }));
            session.execute("SET max_threads = 1");
            return session.queryForObject("SELECT count() FROM " + table + " WHERE id IN wanted", Long.class);
        });
        assertThat(matches).isEqualTo(3);
        assertThat(client.poolStats().active()).isZero();
        assertThatExceptionOfType(InvalidDataAccessResourceUsageException.class)
            .isThrownBy(() -> template.queryForObject("SELECT count() FROM wanted", Long.class));
        // outside a session, statements that change the connection's session are refused, on 18.16 too
        assertThatExceptionOfType(org.springframework.dao.InvalidDataAccessApiUsageException.class)
            .isThrownBy(() -> template.execute("use system"))
            .withMessageContaining("inSession(...)");
        assertThatExceptionOfType(org.springframework.dao.InvalidDataAccessApiUsageException.class)
            .isThrownBy(() -> template.execute("SET max_threads = 1"));
        assertThat(template.queryForObject("SELECT currentDatabase()", String.class)).isEqualTo("default");
    }

}
