package dev.clickhousetcp.examples;

import dev.clickhousetcp.examples.jdbc.JooqQueries;
import dev.clickhousetcp.jdbc.ClickHouseDataSource;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jOOQ example through the driver, checked over HTTP. jOOQ 3.20+ needs Java 21: compiled and run by the
 * parent's {@code java21} profile.
 */
@ClickHouseTest
class JooqExampleTest extends ExampleTestSupport {

    @Test
    void jooqQueries() {
        String table = table("sales");
        List<JooqQueries.CountrySales> read = JooqQueries.run(DSL.using(new ClickHouseDataSource(
                "jdbc:clickhouse:tcp://" + server.host() + ":" + server.tcpPort() + "/default?databaseTerm=catalog"),
                SQLDialect.CLICKHOUSE), table, 1_000);
        List<String[]> stored = Http.rows(server, "SELECT country, count(), sum(amount), max(at) FROM " + table
                + " WHERE amount >= 5 GROUP BY country ORDER BY sum(amount) DESC, country LIMIT 3");
        assertThat(Http.longValue(server, "SELECT count() FROM " + table)).isEqualTo(1_000);
        assertThat(read).hasSize(3).hasSize(stored.size());
        for (int i = 0; i < read.size(); i++) {
            String[] row = stored.get(i);
            JooqQueries.CountrySales sales = read.get(i);
            assertThat(sales.country()).isEqualTo(row[0]);
            assertThat(sales.orders()).isEqualTo(Integer.parseInt(row[1]));
            assertThat(sales.total()).isEqualByComparingTo(new BigDecimal(row[2]));
            assertThat(sales.latest()).isEqualTo(LocalDateTime.parse(row[3].replace(' ', 'T')).atOffset(ZoneOffset.UTC));
        }
    }

    @Test
    void mainPrintsItsResultAndDropsItsTable() throws Exception {
        String table = MainMethodsTest.uniqueTable();
        System.setProperty("clickhouse.host", server.host());
        System.setProperty("clickhouse.port", String.valueOf(server.tcpPort()));
        System.setProperty("example.table", table);
        try {
            assertThat(MainMethodsTest.runMain(JooqQueries.class)).contains("CountrySales[");
            assertThat(MainMethodsTest.exists(table)).isFalse();
        } finally {
            System.clearProperty("clickhouse.host");
            System.clearProperty("clickhouse.port");
            MainMethodsTest.dropQuietly(table);
        }
    }
}
