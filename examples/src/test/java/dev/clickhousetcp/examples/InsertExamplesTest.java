package dev.clickhousetcp.examples;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The insert examples, each into a table of its own (unique per run), checked over HTTP. */
@ClickHouseTest
class InsertExamplesTest extends ExampleTestSupport {

    @Test
    void columnarInsert() {
        String table = table("columnar");
        long rows = ColumnarInsert.run(client, table);
        String[] stored = Http.rows(server, "SELECT count(), sum(id), sum(value), sum(length(name)),"
                + " sum(length(tags)), sum(arraySum(tags)), countIf(tags[1] = id AND tags[2] = -id) FROM " + table).get(0);
        assertThat(rows).isEqualTo(Long.parseLong(stored[0])).isEqualTo(10_000);
        assertThat(Long.parseLong(stored[1])).isEqualTo(10_000L * 9_999 / 2);
        assertThat(Double.parseDouble(stored[2])).isEqualTo(10_000 * 9_999 / 2 * 0.5);
        assertThat(Long.parseLong(stored[3])).isEqualTo(Http.longValue(server,
                "SELECT sum(length(concat('row-', toString(number)))) FROM numbers(10000)"));
        assertThat(stored[4]).isEqualTo("20000");
        assertThat(stored[5]).isEqualTo("0");
        assertThat(stored[6]).isEqualTo("10000");
    }

    @Test
    void recordInsert() {
        String table = table("orders");
        List<RecordInsert.Order> read = RecordInsert.run(client, table);
        List<String[]> stored = Http.rows(server, "SELECT order_id, customer, amount, day FROM " + table
                + " ORDER BY order_id");
        assertThat(read).hasSize(3).hasSize(stored.size());
        for (int i = 0; i < read.size(); i++) {
            assertThat(read.get(i)).isEqualTo(new RecordInsert.Order(Long.parseLong(stored.get(i)[0]), stored.get(i)[1],
                    Double.parseDouble(stored.get(i)[2]), LocalDate.parse(stored.get(i)[3])));
        }
        assertThat(Http.longValue(server, "SELECT countIf(inserted_at > toDateTime('2020-01-01')) FROM " + table))
                .isEqualTo(3);   // the column left out took its DEFAULT
    }

    @Test
    void streamInsert() {
        String table = table("readings");
        long inserted = StreamInsert.run(client, table, 25_000);
        String[] stored = Http.rows(server, "SELECT count(), uniqExact(seq), uniqExact(sensor), sum(celsius) FROM " + table)
                .get(0);
        assertThat(inserted).isEqualTo(Long.parseLong(stored[0])).isEqualTo(25_000);
        assertThat(stored[1]).isEqualTo("25000");
        assertThat(stored[2]).isEqualTo("16");
        double expectedSum = Double.parseDouble(Http.value(server,
                "SELECT sum(20 + (number % 100) / 10) FROM numbers(25000)"));
        assertThat(Double.parseDouble(stored[3])).isCloseTo(expectedSum, within(1e-6));
    }

    @Test
    void deduplicatedInsertWithRetry() {
        String table = table("payments");
        long count = DeduplicatedInsertWithRetry.run(client, table);
        String[] stored = Http.rows(server, "SELECT count(), uniqExact(id), sum(cents) FROM " + table).get(0);
        assertThat(count).isEqualTo(Long.parseLong(stored[0])).isEqualTo(5_000);
        assertThat(stored[1]).isEqualTo("5000");
        assertThat(Long.parseLong(stored[2])).isEqualTo(3L * 4_999 * 5_000 / 2);
    }
}
