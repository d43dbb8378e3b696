package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.observe.ClickHouseTcpObservationContext;
import dev.clickhousetcp.observe.DefaultClickHouseTcpObservationConvention;
import dev.clickhousetcp.observe.MaskingCorpus;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

/**
 * The statement text the client records hides at least what ClickHouse 26.7 hides in its own
 * {@code system.query_log}: every statement of {@link MaskingCorpus} is run on the server (most fail there,
 * the log keeps their text all the same), and each literal the server's logged text no longer holds must be
 * missing from the observation's {@code db.query.text} too.
 */
@ClickHouseTest
class QueryMaskingServerTest {

    /** The literals of a statement, unquoted. */
    private static final Pattern LITERAL = Pattern.compile("'((?:[^'\\\\]|\\\\.|'')*)'|\\$\\$(.*?)\\$\\$");
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|--[^\n]*");
    private static final Pattern CREATE_DATABASE = Pattern.compile("CREATE DATABASE (\\w+)");
    private static final Pattern SECRET = Pattern.compile("Secret-[0-9]+[a-z-]*");

    @Test
    void theClientHidesWhatTheServerHides() {
        ClickHouseServer server = ClickHouseServers.modern();
        String database = TestClients.table("masking");
        server.httpQuery("CREATE DATABASE " + database);
        Map<String, MaskingCorpus.Case> byQueryId = new LinkedHashMap<>();
        Map<String, String> recorded = new LinkedHashMap<>();
        Map<String, String> messages = new LinkedHashMap<>();
        List<ClickHouseTcpObservationContext> stopped = new ArrayList<>();
        ObservationRegistry registry = ObservationRegistry.create();
        TracePropagationTest.onStop(registry, stopped::add);
        try (ClickHouseTcpClient client = TestClients.builder(server).database(database).observationRegistry(registry)
                .socketTimeout(java.time.Duration.ofSeconds(20))
                .build()) {
            for (MaskingCorpus.Case c : MaskingCorpus.CASES) {
                if (c.sql().startsWith("BACKUP") || c.sql().contains("odbc(")) {
                    continue; // the server answers these only after minutes here (no backup disk, no ODBC bridge)
                }
                String queryId = "masking-" + UUID.randomUUID();
                byQueryId.put(queryId, c);
                try {
                    client.execute(c.sql(), QueryOptions.builder().queryId(queryId)
                            .setting("max_execution_time", "5").setting("s3_retry_attempts", "0")
                            .setting("s3_connect_timeout_ms", "300").setting("http_max_tries", "1").build());
                    messages.put(queryId, "");
                } catch (ClickHouseException e) {
                    StringBuilder all = new StringBuilder();
                    for (Throwable t = e; t != null; t = t.getCause()) {
                        all.append(t).append('\n');
                    }
                    messages.put(queryId, all.toString());
                }
                ClickHouseTcpObservationContext context = stopped.get(stopped.size() - 1);
                KeyValue text = DefaultClickHouseTcpObservationConvention.INSTANCE.getHighCardinalityKeyValues(context)
                        .stream().filter(kv -> kv.getKey().equals("db.query.text")).findFirst().orElseThrow();
                recorded.put(queryId, text.getValue());
            }
        } finally {
            server.httpQuery("DROP DATABASE IF EXISTS " + database + " SYNC");
            for (MaskingCorpus.Case c : MaskingCorpus.CASES) {
                Matcher created = CREATE_DATABASE.matcher(c.sql());
                if (created.lookingAt()) {
                    server.httpQuery("DROP DATABASE IF EXISTS " + created.group(1) + " SYNC");
                }
            }
        }
        server.httpQuery("SYSTEM FLUSH LOGS");
        Map<String, String> logged = new LinkedHashMap<>();
        String tsv = server.httpQuery("SELECT query_id, replaceAll(replaceAll(query, '\\\\', '\\\\\\\\'), '\\n', '\\\\n') "
                + "FROM system.query_log WHERE query_id LIKE 'masking-%' AND type != 'QueryStart' "
                + "AND current_database = '" + database + "' FORMAT TSVRaw");
        for (String line : tsv.split("\n")) {
            String[] f = line.split("\t", 2);
            if (f.length == 2) {
                logged.put(f[0], f[1].replace("\\n", "\n").replace("\\\\", "\\"));
            }
        }
        assertThat(logged.keySet()).as("statements the server logged").hasSizeGreaterThanOrEqualTo(25);
        assertSoftly(soft -> {
            for (Map.Entry<String, MaskingCorpus.Case> e : byQueryId.entrySet()) {
                String sql = e.getValue().sql();
                String mine = recorded.get(e.getKey());
                soft.assertThat(mine).as("db.query.text of %s", sql).isEqualTo(e.getValue().masked());
                soft.assertThat(messages.get(e.getKey())).as("exception of %s", sql).doesNotContain("Secret-");
                String theirs = logged.get(e.getKey());
                if (theirs == null) {
                    continue;
                }
                Matcher m = LITERAL.matcher(COMMENT.matcher(sql).replaceAll(" ")); // the corpus nests no comments
                while (m.find()) {
                    String literal = m.group(1) != null ? m.group(1) : m.group(2);
                    if (!literal.isEmpty() && !theirs.contains(literal)) {
                        soft.assertThat(mine).as("the server hid %s in %s", literal, theirs).doesNotContain(literal);
                    }
                }
                Matcher s = SECRET.matcher(sql);
                while (s.find()) {
                    if (!theirs.contains(s.group())) {
                        soft.assertThat(mine).as("the server hid %s in %s", s.group(), theirs).doesNotContain(s.group());
                    }
                }
            }
        });
    }
}
