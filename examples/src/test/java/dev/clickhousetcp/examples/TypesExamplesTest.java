package dev.clickhousetcp.examples;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The type examples, compared with the server's own text of the same values. */
@ClickHouseTest
class TypesExamplesTest extends ExampleTestSupport {

    @Test
    void compositeTypes() {
        String table = table("items");
        List<CompositeTypes.Item> read = CompositeTypes.run(client, table);
        assertThat(read).isEqualTo(CompositeTypes.ITEMS);
        String[] stored = Http.rows(server, "SELECT count(), countIf(rating IS NULL), sum(length(tags)),"
                + " sum(length(counters)), sum(location.1), (SELECT toTypeName(country) FROM " + table + " LIMIT 1) FROM " + table).get(0);
        assertThat(stored[0]).isEqualTo(String.valueOf(read.size()));
        assertThat(Long.parseLong(stored[1])).isEqualTo(read.stream().filter(i -> i.rating() == null).count());
        assertThat(Long.parseLong(stored[2])).isEqualTo(read.stream().mapToLong(i -> i.tags().size()).sum());
        assertThat(Long.parseLong(stored[3])).isEqualTo(read.stream().mapToLong(i -> i.counters().size()).sum());
        assertThat(Double.parseDouble(stored[4])).isEqualTo(read.stream().mapToDouble(i -> i.location().x()).sum());
        assertThat(stored[5]).isEqualTo("LowCardinality(String)");
        assertThat(Http.value(server, "SELECT toString(tags) FROM " + table + " WHERE id = 3")).isEqualTo("['it\\'s']");
    }

    @Test
    void semiStructuredTypes() {
        String table = table("semi");
        List<SemiStructuredTypes.Stored> read = SemiStructuredTypes.run(client, table);
        List<String[]> stored = Http.rows(server, "SELECT id, toString(doc), toString(dyn), dynamicType(dyn),"
                + " variantType(var), toString(var) FROM " + table + " ORDER BY id");
        assertThat(read).hasSize(4).hasSize(stored.size());
        for (int i = 0; i < read.size(); i++) {
            SemiStructuredTypes.Stored row = read.get(i);
            String[] e = stored.get(i);
            assertThat(row.id()).isEqualTo(Long.parseLong(e[0]));
            assertThat(row.docText()).isEqualTo(e[1]);
            assertThat(row.doc()).isInstanceOf(Map.class);
            assertThat(row.dynText() == null ? "" : row.dynText()).isEqualTo(e[2]);
        }
        assertThat(stored).extracting(r -> r[3]).containsExactly("Int64", "String", "Date", "None");
        assertThat(stored).extracting(r -> r[4]).containsExactly("String", "UInt64", "Array(UInt64)", "None");
        assertThat(read.get(0).dyn()).isEqualTo(Long.parseLong(stored.get(0)[2]));
        assertThat(read.get(1).var()).isEqualTo(new BigInteger(stored.get(1)[5]));        // UInt64: BigInteger
        assertThat(read.get(2).var()).isEqualTo(List.of(BigInteger.ONE, BigInteger.TWO));
        assertThat(read.get(3).dyn()).isNull();
        @SuppressWarnings("unchecked")
        Map<String, Object> user = (Map<String, Object>) ((Map<String, Object>) read.get(0).doc()).get("user");
        assertThat(user.get("age")).isEqualTo(Long.parseLong(Http.value(server,
                "SELECT doc.user.age FROM " + table + " WHERE id = 1")));
    }

    @Test
    void dateTimeZones() {
        List<DateTimeZones.Times> times = DateTimeZones.run(client);
        String check = "SELECT toUnixTimestamp(ny), toUnixTimestamp64Milli(tokyo), toString(plain),"
                + " toUnixTimestamp(plain), timezone() FROM (" + DateTimeZones.SQL + ")";
        String[] serverZone = Http.rows(server, check).get(0);
        String[] berlin = Http.rows(server, check + " SETTINGS session_timezone = 'Europe/Berlin'").get(0);
        DateTimeFormatter text = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
        for (int i = 0; i < 2; i++) {
            DateTimeZones.Times t = times.get(i);
            String[] e = i == 0 ? serverZone : berlin;
            assertThat(t.ny().toEpochSecond()).isEqualTo(Long.parseLong(e[0]));
            assertThat(t.ny().getZone()).isEqualTo(ZoneId.of("America/New_York"));
            assertThat(t.tokyo().toEpochMilli()).isEqualTo(Long.parseLong(e[1]));
            assertThat(t.plain()).isEqualTo(LocalDateTime.parse(e[2], text));
            assertThat(t.plainZoned().toEpochSecond()).isEqualTo(Long.parseLong(e[3]));
        }
        assertThat(times.get(0).plainZoned().getZone().normalized()).isEqualTo(ZoneId.of(serverZone[4]).normalized());
        assertThat(times.get(1).plainZoned().getZone()).isEqualTo(ZoneId.of("Europe/Berlin"));
        assertThat(times.get(0).plain()).isEqualTo(times.get(1).plain());           // same wall clock text
        assertThat(times.get(0).plainZoned().toInstant()).isNotEqualTo(times.get(1).plainZoned().toInstant());
    }

    @Test
    void decimalsAndBigIntegers() {
        List<DecimalsAndBigIntegers.Amount> amounts = DecimalsAndBigIntegers.run(client);
        List<String[]> expected = Http.rows(server, DecimalsAndBigIntegers.SQL);
        assertThat(amounts).hasSize(expected.size());
        for (int i = 0; i < amounts.size(); i++) {
            DecimalsAndBigIntegers.Amount a = amounts.get(i);
            String[] e = expected.get(i);
            assertThat(a.id()).isEqualTo(Long.parseLong(e[0]));
            assertThat(a.amount()).isEqualByComparingTo(new BigDecimal(e[1]));
            assertThat(a.amount().scale()).isEqualTo(10);
            assertThat(a.total()).isEqualByComparingTo(new BigDecimal(e[2]));
            assertThat(a.big()).isEqualTo(new BigInteger(e[3]));
            assertThat(a.huge()).isEqualTo(new BigInteger(e[4]));
            assertThat(a.maxU64()).isEqualTo(new BigInteger(e[5]));
        }
    }
}
