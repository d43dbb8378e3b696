package dev.clickhousetcp.examples;

import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The examples of query options: parameters, settings, ids, cancel, timeouts, listeners, sessions. */
@ClickHouseTest
class QueryOptionsExamplesTest extends ExampleTestSupport {

    @Test
    void parameters() {
        List<QueryParameters.Match> matches = QueryParameters.run(client);
        List<String[]> expected = Http.rows(server, "SELECT number, 'it''s #' || toString(number),"
                + " map('0', 10, '1', 20, '2', 30)[toString(number % 3)] FROM numbers(100)"
                + " WHERE has([3, 5, 8, 13, 21, 34], number) AND toDate('2024-01-01') + number >= toDate('2024-01-09')"
                + " ORDER BY number");
        assertThat(matches).isNotEmpty().hasSize(expected.size());
        for (int i = 0; i < matches.size(); i++) {
            assertThat(matches.get(i)).isEqualTo(new QueryParameters.Match(Long.parseLong(expected.get(i)[0]),
                    expected.get(i)[1], Long.parseLong(expected.get(i)[2])));
        }
    }

    @Test
    void perQuerySettings() {
        PerQuerySettings.Effective effective = PerQuerySettings.run(server.host(), server.tcpPort());
        assertThat(effective.defaults()).isEqualTo("2/" + Http.value(server, "SELECT getSetting('max_block_size')"));
        assertThat(effective.perQuery()).isEqualTo(Http.value(server,
                "SELECT getSetting('max_threads') || '/' || toString(getSetting('max_block_size'))"
                        + " SETTINGS max_threads = 1, max_block_size = 1000"));
        // result_overflow_mode = 'break' stops at the first block boundary at or after 100 rows
        assertThat(effective.rowsUnderLimit()).isBetween(100, 200);
    }

    @Test
    void queryIdAndCancel() {
        QueryIdAndCancel.Outcome outcome = QueryIdAndCancel.run(client);
        assertThat(outcome.cancelled()).isTrue();
        assertThat(outcome.rowsRead()).isGreaterThanOrEqualTo(50_000);
        server.httpQuery("SYSTEM FLUSH LOGS");
        assertThat(Http.longValue(server, "SELECT count() FROM system.query_log WHERE query_id = '"
                + outcome.queryId() + "' AND type != 'QueryStart'")).isPositive();
        assertThat(Http.longValue(server, "SELECT count() FROM system.processes WHERE query_id = '"
                + outcome.queryId() + "'")).isZero();
    }

    @Test
    void timeouts() {
        Timeouts.Expired expired = Timeouts.run(server.host(), server.tcpPort());
        assertThat(expired.deadline()).isEqualTo(ClickHouseTimeoutException.Deadline.QUERY);
        assertThat(expired.timeout()).isEqualTo(Duration.ofMillis(300));
        // the query alone would take about 5 s
        assertThat(expired.took()).isGreaterThanOrEqualTo(Duration.ofMillis(300)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void progressAndProfileEvents() {
        ProgressAndProfileEvents.Report report = ProgressAndProfileEvents.run(client);
        assertThat(report.count()).isEqualTo(Http.longValue(server, ProgressAndProfileEvents.SQL));
        assertThat(report.progressReadRows()).isEqualTo(Http.longValue(server, "SELECT count() FROM numbers(2000000)"));
        assertThat(report.profileRows()).isEqualTo(1);
        assertThat(report.events()).isNotEmpty().containsKey("Query");
        assertThat(report.events().get("Query")).isEqualTo(1);
    }

    @Test
    void serverLogs() {
        ServerLogs.Logged logged = ServerLogs.run(client);
        assertThat(logged.lines()).isNotEmpty()
                .allSatisfy(line -> assertThat(line.queryId()).isEqualTo(logged.queryId()))
                .anySatisfy(line -> assertThat(line.text()).isNotBlank());
    }

    @Test
    void totalsAndExtremes() {
        TotalsAndExtremes.Summary summary = TotalsAndExtremes.run(client);
        assertThat(summary.groups()).isEqualTo(Http.rows(server,
                "SELECT number % 5 AS k, count() FROM numbers(1003) GROUP BY k ORDER BY k").stream()
                .map(r -> r[0] + ": " + r[1]).toList());
        String[] all = Http.rows(server, "SELECT count(), sum(number) FROM numbers(1003)").get(0);
        assertThat(summary.totalCount()).isEqualTo(Long.parseLong(all[0]));
        assertThat(summary.totalSum()).isEqualTo(Long.parseLong(all[1]));
        String[] minMax = Http.rows(server,
                "SELECT min(s), max(s) FROM (SELECT sum(number) AS s FROM numbers(1003) GROUP BY number % 5)").get(0);
        assertThat(summary.minSum()).isEqualTo(Long.parseLong(minMax[0]));
        assertThat(summary.maxSum()).isEqualTo(Long.parseLong(minMax[1]));
    }

    @Test
    void sessionsAndTemporaryTables() {
        SessionsAndTemporaryTables.Result result = SessionsAndTemporaryTables.run(client);
        assertThat(result.matches()).isEqualTo(Http.longValue(server,
                "SELECT count() FROM numbers(10000) WHERE number IN (7, 70, 700, 7000, 70000)"));
        assertThat(result.maxThreads()).isEqualTo("1");
        assertThat(result.tableGoneAfterwards()).isTrue();
    }

    @Test
    void externalTables() {
        assertThat(ExternalTables.run(client)).isNotEmpty().isEqualTo(Http.rows(server,
                "SELECT l.label, count() AS n FROM numbers(1000) AS t INNER JOIN (SELECT * FROM"
                        + " values('id UInt64, label String', (1, 'one'), (2, 'two'), (3, 'three'))) AS l"
                        + " ON t.number % 10 = l.id GROUP BY l.label ORDER BY l.label").stream()
                .map(r -> r[0] + "=" + r[1]).toList());
    }
}
