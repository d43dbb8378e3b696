package dev.clickhousetcp.examples;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The read examples against the 26.7 server, each result compared with the server's HTTP answer. */
@ClickHouseTest
class ReadExamplesTest extends ExampleTestSupport {

    @Test
    void connectAndPing() {
        assertThat(ConnectAndPing.run(server.host(), server.tcpPort()))
                // the Hello names major.minor.patch; version() adds the build number
                .isEqualTo("ClickHouse " + Http.value(server,
                        "SELECT arrayStringConcat(arraySlice(splitByChar('.', version()), 1, 3), '.')"));
    }

    @Test
    void blockTier() {
        BlockTierRead.Totals totals = BlockTierRead.run(client);
        String[] expected = Http.rows(server, "SELECT sum(number), sum(length(label)) FROM (" + BlockTierRead.SQL + ")")
                .get(0);
        assertThat(totals.sum()).isEqualTo(Long.parseLong(expected[0]));
        assertThat(totals.labelChars()).isEqualTo(Long.parseLong(expected[1]));
        assertThat(totals.blocks()).isPositive();
    }

    @Test
    void typedProjections() {
        TypedProjections.Projections p = TypedProjections.run(client);
        assertThat(p.squares()).isEqualTo(Http.rows(server, TypedProjections.SQUARES).stream()
                .map(r -> Long.parseLong(r[0])).toList());
        assertThat(p.days()).isEqualTo(Http.rows(server, TypedProjections.DAYS).stream()
                .map(r -> LocalDate.parse(r[0])).toList());
        assertThat(p.labels()).isEqualTo(Http.rows(server, TypedProjections.LABELS).stream()
                .map(r -> r[0] + ":" + r[1]).toList());
    }

    @Test
    void records() {
        List<ReadRecords.Trade> trades = ReadRecords.run(client);
        List<String[]> expected = Http.rows(server, ReadRecords.SQL);
        assertThat(trades).hasSize(expected.size());
        for (int i = 0; i < trades.size(); i++) {
            ReadRecords.Trade t = trades.get(i);
            String[] e = expected.get(i);
            assertThat(t.id()).isEqualTo(Long.parseLong(e[0]));
            assertThat(t.symbol()).isEqualTo(e[1]);
            assertThat(t.price()).isEqualTo(Double.parseDouble(e[2]));
            assertThat(t.qty()).isEqualTo(e[3].equals("\\N") ? null : Integer.valueOf(e[3]));
            assertThat(t.tradeDay()).isEqualTo(LocalDate.parse(e[4]));
        }
        assertThat(trades).extracting(ReadRecords.Trade::qty).containsNull();
    }

    @Test
    void beans() {
        List<ReadBeans.FunctionInfo> functions = ReadBeans.run(client);
        List<String[]> expected = Http.rows(server, ReadBeans.SQL);
        assertThat(functions).isNotEmpty().hasSize(expected.size());
        for (int i = 0; i < functions.size(); i++) {
            assertThat(functions.get(i).getName()).isEqualTo(expected.get(i)[0]);
            assertThat(functions.get(i).isAggregate()).isEqualTo(expected.get(i)[1].equals("1"));
            assertThat(functions.get(i).getLength()).isEqualTo(Integer.parseInt(expected.get(i)[2]));
        }
    }

    @Test
    void constructorBinding() {
        List<ConstructorBinding.Account> accounts = ConstructorBinding.run(client);
        List<String[]> expected = Http.rows(server, ConstructorBinding.SQL);
        assertThat(accounts).hasSize(expected.size());
        for (int i = 0; i < accounts.size(); i++) {
            assertThat(accounts.get(i).id()).isEqualTo(Long.parseLong(expected.get(i)[0]));
            assertThat(accounts.get(i).owner()).isEqualTo(expected.get(i)[1]);
            assertThat(accounts.get(i).balance()).isEqualByComparingTo(new BigDecimal(expected.get(i)[2]));
            assertThat(accounts.get(i).balance().scale()).isEqualTo(2);
        }
    }

    @Test
    void objectArrayRows() {
        List<Object[]> rows = ObjectArrayRows.run(client);
        List<String[]> expected = Http.rows(server,
                "SELECT small, big, toUnixTimestamp(at), toString(items) FROM (" + ObjectArrayRows.SQL + ")");
        assertThat(rows).hasSize(expected.size());
        for (int i = 0; i < rows.size(); i++) {
            Object[] row = rows.get(i);
            String[] e = expected.get(i);
            assertThat(row[0]).isEqualTo(Short.valueOf(e[0]));
            assertThat(row[1]).isEqualTo(new BigInteger(e[1]));
            assertThat(((ZonedDateTime) row[2]).toEpochSecond()).isEqualTo(Long.parseLong(e[2]));
            assertThat(row[3]).isInstanceOf(List.class);
            assertThat(row[3].toString().replace(" ", "")).isEqualTo(e[3]);
        }
    }

    @Test
    void streamsOfObjects() {
        StreamRows.Counts counts = StreamRows.run(client);
        String[] expected = Http.rows(server, "SELECT countIf(bucket = 7), count() FROM (" + StreamRows.SQL + ")").get(0);
        assertThat(counts.bucketSevenFromStream()).isEqualTo(Long.parseLong(expected[0]));
        assertThat(counts.rowsFromForEach()).isEqualTo(Long.parseLong(expected[1]));
        assertThat(client.poolStats().active()).isZero();   // the stream gave its connection back
    }
}
