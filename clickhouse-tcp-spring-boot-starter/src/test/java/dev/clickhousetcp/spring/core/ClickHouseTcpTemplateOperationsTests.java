package dev.clickhousetcp.spring.core;

import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.ExternalTable;
import dev.clickhousetcp.client.QueryListener;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Int64Column;
import dev.clickhousetcp.mapping.ClickHouseColumn;
import dev.clickhousetcp.mapping.SchemaReport;
import dev.clickhousetcp.mapping.TableColumn;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.spring.core.ClickHouseTcpOperations.StatementSpec;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TypeMismatchDataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Every operation of {@link ClickHouseTcpTemplate} and its specs against the real ClickHouse 26.7 server, in a
 * database of its own; after each test no pooled connection is left in use.
 */
@ClickHouseTest
class ClickHouseTcpTemplateOperationsTests {

    private static final String DB = "spring_template_ops_test";

    private static ClickHouseTcpClient client;

    private static ClickHouseTcpTemplate template;

    @BeforeAll
    static void connect(ClickHouseServer server) {
        client = ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort()).maxPoolSize(4).build();
        template = new ClickHouseTcpTemplate(client);
        template.execute("DROP DATABASE IF EXISTS " + DB);
        template.execute("CREATE DATABASE " + DB);
        template.execute("CREATE TABLE " + DB + ".trades (id UInt64, symbol String, price Float64, "
                + "qty Nullable(Int32), day Date) ENGINE = MergeTree ORDER BY id");
        template.insertColumns(DB + ".trades", Map.of("id", new long[] { 1, 2, 3 }, "symbol",
                List.of("ACME", "INIT", "ACME"), "price", new double[] { 10.5, 20.25, 11.0 }, "qty",
                java.util.Arrays.asList(100, null, 300), "day",
                List.of(LocalDate.of(2024, 1, 2), LocalDate.of(2024, 1, 3), LocalDate.of(2024, 1, 4))));
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

    @AfterEach
    void noConnectionLeftInUse() {
        assertThat(client.poolStats().active()).as("connections in use after the test").isZero();
    }

    /** A record read through the compiled mappers. */
    record Trade(long id, String symbol, double price, Integer qty, LocalDate day) {
    }

    /** A bean read through setters. */
    public static class TradeBean {

        private long id;

        private String ticker;

        public long getId() {
            return this.id;
        }

        public void setId(long id) {
            this.id = id;
        }

        public String getTicker() {
            return this.ticker;
        }

        @ClickHouseColumn("symbol")
        public void setTicker(String ticker) {
            this.ticker = ticker;
        }
    }

    @Test
    void queryMapsRecordsBeansAndValues() {
        List<Trade> trades = template.query("SELECT * FROM " + DB + ".trades ORDER BY id", Trade.class);
        assertThat(trades).containsExactly(new Trade(1, "ACME", 10.5, 100, LocalDate.of(2024, 1, 2)),
                new Trade(2, "INIT", 20.25, null, LocalDate.of(2024, 1, 3)),
                new Trade(3, "ACME", 11.0, 300, LocalDate.of(2024, 1, 4)));
        assertThat(template.queryForList("SELECT id, symbol FROM " + DB + ".trades ORDER BY id", TradeBean.class))
            .extracting(TradeBean::getTicker).containsExactly("ACME", "INIT", "ACME");
        assertThat(template.queryForList("SELECT symbol FROM " + DB + ".trades ORDER BY id", String.class))
            .containsExactly("ACME", "INIT", "ACME");
        assertThat(template.query("SELECT id FROM " + DB + ".trades WHERE symbol = {s:String} ORDER BY id",
                Map.of("s", "ACME"), Long.class)).containsExactly(1L, 3L);
    }

    @Test
    void queryForObjectMapsOneRowOfAnObjectType() {
        Trade trade = template.queryForObject("SELECT * FROM " + DB + ".trades WHERE id = {id:UInt64}",
                Map.of("id", 2), Trade.class);
        assertThat(trade).isEqualTo(new Trade(2, "INIT", 20.25, null, LocalDate.of(2024, 1, 3)));
        assertThatExceptionOfType(IncorrectResultSizeDataAccessException.class)
            .isThrownBy(() -> template.queryForObject("SELECT * FROM " + DB + ".trades", Trade.class));
        assertThatExceptionOfType(IncorrectResultSizeDataAccessException.class)
            .isThrownBy(() -> template.queryForObject("SELECT * FROM " + DB + ".trades WHERE id = 0", Trade.class))
            .satisfies((ex) -> assertThat(ex.getActualSize()).isZero());
        // A class that does not fit the result is a type mismatch, reported before any row is mapped.
        assertThatExceptionOfType(TypeMismatchDataAccessException.class)
            .isThrownBy(() -> template.queryForObject("SELECT 'x' AS day", Trade.class));
    }

    @Test
    void forEachHandsOverEveryRowOneBlockAtATime() {
        AtomicLong sum = new AtomicLong();
        long rows = template.sql("SELECT number AS id, 'S' AS symbol, 1.0 AS price, NULL AS qty, today() AS day "
                + "FROM numbers(100000)").setting("max_block_size", 1000)
            .forEach(Trade.class, (trade) -> sum.addAndGet(trade.id()));
        assertThat(rows).isEqualTo(100000);
        assertThat(sum.get()).isEqualTo(99999L * 100000 / 2);
    }

    @Test
    void streamHoldsItsConnectionUntilClosedOrExhausted() {
        try (Stream<Long> numbers = template.sql("SELECT number FROM numbers(1000000)")
            .setting("max_block_size", 1000)
            .stream(Long.class)) {
            Iterator<Long> it = numbers.iterator();
            assertThat(it.next()).isZero();
            assertThat(client.poolStats().active()).isEqualTo(1);
        }
        // Closed early: the query was cancelled and the connection is back.
        assertThat(client.poolStats().active()).isZero();
        assertThat(template.queryForObject("SELECT 1", Integer.class)).isEqualTo(1);

        Stream<Long> all = template.stream("SELECT number FROM numbers(10)", Long.class);
        assertThat(all.mapToLong(Long::longValue).sum()).isEqualTo(45);
        // Read to the end: released even before close.
        assertThat(client.poolStats().active()).isZero();
        all.close();
    }

    @Test
    void forEachRowHandsOverFreshArraysAndTranslatesFailures() {
        java.util.List<Object[]> rows = new java.util.ArrayList<>();
        assertThat(template.forEachRow("SELECT id, symbol, price, qty FROM " + DB + ".trades ORDER BY id", rows::add))
            .isEqualTo(3);
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0)).containsExactly(java.math.BigInteger.ONE, "ACME", 10.5, 100);
        assertThat(rows.get(1)).containsExactly(java.math.BigInteger.TWO, "INIT", 20.25, null);
        AtomicLong sum = new AtomicLong();
        assertThat(template.sql("SELECT number FROM numbers(100000)").setting("max_block_size", 1000)
            .forEachRow((row) -> sum.addAndGet(((Number) row[0]).longValue()))).isEqualTo(100000);
        assertThat(sum.get()).isEqualTo(99999L * 100000 / 2);
        assertThatExceptionOfType(DataIntegrityViolationException.class)
            .isThrownBy(() -> template.sql("SELECT throwIf(number = 5000) + number FROM numbers(20000)")
                .setting("max_block_size", 1000)
                .forEachRow((row) -> { }));
        // An exception of the action is rethrown as is, and the query cancelled.
        IllegalStateException stop = new IllegalStateException("stop");
        assertThatExceptionOfType(IllegalStateException.class)
            .isThrownBy(() -> template.forEachRow("SELECT number FROM numbers(100000000)", (row) -> {
                throw stop;
            }))
            .isSameAs(stop);
        assertThat(template.queryForObject("SELECT 1", Integer.class)).isEqualTo(1);
    }

    @Test
    void streamRowsHoldsItsConnectionUntilClosedAndTranslatesFailures() {
        try (Stream<Object[]> rows = template.sql("SELECT number, toString(number) FROM numbers(1000000)")
            .setting("max_block_size", 1000)
            .streamRows()) {
            Iterator<Object[]> it = rows.iterator();
            assertThat(it.next()).containsExactly(java.math.BigInteger.ZERO, "0");
            assertThat(client.poolStats().active()).isEqualTo(1);
        }
        // Closed early: the query was cancelled and the connection is back.
        assertThat(client.poolStats().active()).isZero();
        try (Stream<Object[]> all = template.streamRows("SELECT toInt64(number) FROM numbers(10)")) {
            assertThat(all.mapToLong((row) -> (Long) row[0]).sum()).isEqualTo(45);
        }
        Stream<Object[]> failing = template.sql("SELECT throwIf(number = 5000) + number FROM numbers(20000)")
            .setting("max_block_size", 1000)
            .streamRows();
        assertThatExceptionOfType(DataIntegrityViolationException.class).isThrownBy(() -> failing.forEach((n) -> { }));
        assertThat(client.poolStats().active()).isZero();
        failing.close();
    }

    @Test
    void streamTranslatesFailuresWhileItIsConsumedAndReleasesItsConnection() {
        Stream<Long> failing = template.sql("SELECT throwIf(number = 5000) + number FROM numbers(20000)")
            .setting("max_block_size", 1000)
            .queryId("stream-failure-" + UUID.randomUUID())
            .stream(Long.class);
        assertThat(client.poolStats().active()).isEqualTo(1);
        assertThatExceptionOfType(DataIntegrityViolationException.class)
            .isThrownBy(() -> failing.forEach((n) -> { }))
            .isInstanceOf(ClickHouseErrorDetails.class)
            .satisfies((ex) -> {
                ClickHouseErrorDetails details = (ClickHouseErrorDetails) ex;
                assertThat(details.getErrorCode()).isEqualTo(395);
                assertThat(details.getErrorName()).isEqualTo("FUNCTION_THROW_IF_VALUE_IS_NON_ZERO");
                assertThat(details.getQueryId()).startsWith("stream-failure-");
                assertThat(details.getSql()).contains("throwIf");
            });
        // Not closed by the caller, yet released.
        assertThat(client.poolStats().active()).isZero();
        failing.close();

        // A NULL into a primitive in a later block: translated, and the connection released at once.
        try (Stream<Integer> primitives = template.sql("SELECT if(number < 3000, 1, NULL) FROM numbers(5000)")
            .setting("max_block_size", 1000)
            .stream(int.class)) {
            assertThatExceptionOfType(TypeMismatchDataAccessException.class).isThrownBy(() -> primitives.count());
            assertThat(client.poolStats().active()).isZero();
        }
    }

    @Test
    void queryBlocksReadsColumnsAndReportsTotals() {
        long[] sum = new long[1];
        QuerySummary summary = template.sql("SELECT toInt64(number % 3) AS k, count() AS c FROM numbers(3000) "
                + "GROUP BY k WITH TOTALS ORDER BY k").queryId("blocks-" + UUID.randomUUID())
            .queryBlocks((block) -> {
                Int64Column keys = (Int64Column) block.column(0);
                for (int row = 0; row < block.rowCount(); row++) {
                    sum[0] += keys.getLong(row);
                }
            });
        assertThat(sum[0]).isEqualTo(3);
        assertThat(summary.rows()).isEqualTo(3);
        assertThat(summary.queryId()).startsWith("blocks-");
        assertThat(summary.totals()).isNotNull();
        assertThat(summary.totals().column(1).getObject(0)).asString().isEqualTo("3000");
        assertThat(summary.progress().readRows()).isEqualTo(3000);
    }

    @Test
    void insertsObjectsStreamsRowsColumnsAndBlocks() {
        String table = DB + ".insert_all";
        template.execute("CREATE TABLE " + table + " (id UInt64, symbol String, price Float64, qty Nullable(Int32), "
                + "day Date) ENGINE = MergeTree ORDER BY id");
        LocalDate day = LocalDate.of(2025, 5, 6);
        assertThat(template.insert(table, List.of(new Trade(1, "A", 1.0, 1, day), new Trade(2, "B", 2.0, null, day))))
            .isEqualTo(2);
        assertThat(template.insert(table, List.of())).isZero();
        assertThat(template.insert(table, LongStream.range(10, 20).mapToObj((i) -> new Trade(i, "S", i, null, day))))
            .isEqualTo(10);
        assertThat(template.insert(table, Stream.<Trade>empty())).isZero();
        assertThat(template.insert(table, List.of("id", "symbol", "price", "qty", "day"),
                List.<Object[]>of(new Object[] { 30L, "R", 3.0, null, day }))).isEqualTo(1);
        assertThat(template.insertColumns(table, Map.of("id", new long[] { 40, 41 }, "symbol", List.of("C", "D"),
                "price", new double[] { 4, 5 }, "qty", java.util.Arrays.asList(null, null), "day",
                List.of(day, day)))).isEqualTo(2);
        List<Block> copies = new ArrayList<>();
        template.sql("SELECT id + 100 AS id, symbol, price, qty, day FROM (SELECT * FROM " + table
                + " WHERE id < 3) ORDER BY id")
            .queryBlocks((block) -> copies.add(block.copy()));
        assertThat(template.insertBlocks(table, copies)).isEqualTo(2);
        assertThat(template.queryForObject("SELECT count() FROM " + table, Long.class)).isEqualTo(2 + 10 + 1 + 2 + 2);
        assertThat(template.queryForObject("SELECT symbol FROM " + table + " WHERE id = 101", String.class))
            .isEqualTo("A");
    }

    @Test
    void insertSpecRetriesSafelyWithTokensPerBlock() {
        String table = DB + ".dedup";
        template.execute("CREATE TABLE " + table + " (id UInt64, symbol String, price Float64, qty Nullable(Int32), "
                + "day Date) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 1000");
        List<Trade> rows = LongStream.range(0, 1000)
            .mapToObj((i) -> new Trade(i, "S", i, null, LocalDate.of(2024, 1, 1)))
            .toList();
        ClickHouseTcpOperations.InsertSpec insert = template.insertInto(table)
            .deduplicationToken("batch-7")
            .tokenPerBlock(true)
            .maxRowsPerBlock(100)
            .maxAttempts(2);
        assertThat(insert.insert(rows)).isEqualTo(1000);
        // The same insert again (a retry after an unknown outcome): every block is recognized, nothing doubles.
        assertThat(insert.insert(rows)).isEqualTo(1000);
        assertThat(template.queryForObject("SELECT count() FROM " + table, Long.class)).isEqualTo(1000);
        assertThat(template.queryForObject("SELECT sum(id) FROM " + table, Long.class)).isEqualTo(999L * 1000 / 2);

        assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
            .isThrownBy(() -> template.insertInto(table).tokenPerBlock(true).insert(rows))
            .withMessageContaining("tokenPerBlock");
        assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
            .isThrownBy(() -> insert.insert(rows.stream()))
            .withMessageContaining("Stream");
        assertThatIllegalArgumentException().isThrownBy(() -> template.insertInto(table).maxRowsPerBlock(0));
    }

    @Test
    void specsAreImmutableAndReusableFromSeveralThreads() throws Exception {
        StatementSpec base = template.sql("SELECT toString(getSetting('max_threads')) AS t, {n:UInt32} AS n")
            .param("n", 1);
        StatementSpec two = base.setting("max_threads", 2);
        StatementSpec three = base.setting("max_threads", 3).param("n", 3);
        assertThat(two).isNotSameAs(base);
        Map<String, Object> defaults = base.queryForList().get(0);
        assertThat(two.queryForList().get(0)).containsEntry("t", "2").containsEntry("n", 1L);
        assertThat(three.queryForList().get(0)).containsEntry("t", "3").containsEntry("n", 3L);
        assertThat(base.queryForList().get(0)).isEqualTo(defaults);

        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Long>> results = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                StatementSpec spec = (i % 2 == 0) ? two : three;
                results.add(pool.submit(() -> spec.queryForObject((row, n) -> Long.parseLong(row.getString(0)))));
            }
            for (int i = 0; i < results.size(); i++) {
                assertThat(results.get(i).get()).isEqualTo((i % 2 == 0) ? 2L : 3L);
            }
        }
        finally {
            pool.shutdownNow();
        }
        // A parameter value of an unsupported type fails when it is set.
        assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
            .isThrownBy(() -> base.param("n", new Object()))
            .withMessageContaining("'n'");
        assertThatIllegalArgumentException().isThrownBy(() -> base.timeout(Duration.ZERO));
    }

    @Test
    void specOptionsReachTheServer() {
        String id = "spec-" + UUID.randomUUID();
        assertThat(template.sql("SELECT queryID()").queryId(id).queryForObject(String.class)).isEqualTo(id);
        assertThat(template.sql("SELECT currentDatabase()").database(DB).queryForObject(String.class)).isEqualTo(DB);
        assertThat(template.sql("SELECT getSetting('max_execution_time')")
            .timeoutOnServerToo(Duration.ofMillis(2500))
            .queryForObject(String.class)).isEqualTo("3");

        List<Progress> progress = new ArrayList<>();
        template.sql("SELECT count() FROM numbers(100000)").listener(new QueryListener() {
            @Override
            public void onProgress(Progress increment) {
                progress.add(increment);
            }
        }).execute();
        assertThat(progress.stream().mapToLong(Progress::readRows).sum()).isEqualTo(100000);

        ExternalTable ids = ExternalTable.of("ids", "id UInt64", List.of(new Object[] { 1L }, new Object[] { 3L }));
        StatementSpec withIds = template.sql("SELECT symbol FROM " + DB + ".trades WHERE id IN ids ORDER BY id")
            .externalTable(ids);
        assertThat(withIds.query(String.class)).containsExactly("ACME", "ACME");
        assertThat(withIds.query(String.class)).as("run twice").hasSize(2);
    }

    @Test
    void timeoutsAreQueryTimeoutsNamingTheirDeadline() {
        assertThatExceptionOfType(QueryTimeoutException.class)
            .isThrownBy(() -> template.sql("SELECT sleepEachRow(0.05) FROM numbers(100)")
                .setting("max_block_size", 1)
                .timeout(Duration.ofMillis(300))
                .execute())
            .withMessageContaining("deadline QUERY (queryTimeout PT0.3S)")
            .satisfies((ex) -> {
                assertThat(ex.getCause()).isInstanceOf(ClickHouseTimeoutException.class);
                assertThat(((ClickHouseTimeoutException) ex.getCause()).deadline())
                    .isEqualTo(ClickHouseTimeoutException.Deadline.QUERY);
                assertThat(((ClickHouseErrorDetails) ex).getQueryId()).isNotNull();
            });
        assertThat(template.queryForObject("SELECT 1", Integer.class)).isEqualTo(1);
    }

    @Test
    void sessionsKeepTemporaryTablesAndSettingsAndAlwaysEnd() {
        int totalBefore = client.poolStats().total();
        long count = template.inSession((session) -> {
            session.execute("CREATE TEMPORARY TABLE tmp_ids (id UInt64)");
            session.insertColumns("tmp_ids", Map.of("id", new long[] { 1, 2, 3 }));
            session.execute("SET max_threads = 1");
            assertThat(session.queryForObject("SELECT getSetting('max_threads')", Long.class)).isEqualTo(1L);
            Long inner = session.inSession((same) -> same.queryForObject("SELECT count() FROM tmp_ids", Long.class));
            assertThat(inner).isEqualTo(3L);
            assertThat(client.poolStats().active()).isEqualTo(1);
            return session.queryForObject("SELECT count() FROM " + DB + ".trades WHERE id IN tmp_ids", Long.class);
        });
        assertThat(count).isEqualTo(3);
        // The session's connection was closed, not pooled: its state is gone.
        assertThat(client.poolStats().active()).isZero();
        assertThat(client.poolStats().total()).isLessThanOrEqualTo(Math.max(totalBefore, 1));
        assertThatExceptionOfType(org.springframework.dao.DataAccessException.class)
            .isThrownBy(() -> template.queryForObject("SELECT count() FROM tmp_ids", Long.class));

        // Ends on exceptions too, and its operations refuse to be used afterwards.
        ClickHouseTcpOperations[] leaked = new ClickHouseTcpOperations[1];
        assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> template.inSession((session) -> {
            leaked[0] = session;
            session.execute("CREATE TEMPORARY TABLE tmp_fail (id UInt64)");
            throw new IllegalStateException("boom");
        }));
        assertThat(client.poolStats().active()).isZero();
        assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
            .isThrownBy(() -> leaked[0].execute("SELECT 1"))
            .withMessageContaining("inSession");
        // A failing statement in a session is translated like any other.
        assertThatExceptionOfType(org.springframework.dao.InvalidDataAccessResourceUsageException.class)
            .isThrownBy(() -> template.inSession((session) -> session.execute("SELEKT 1")));
    }

    @Test
    void statementsThatChangeTheSessionAreRefusedOutsideASession() {
        String threads = template.queryForObject("SELECT toString(getSetting('max_threads'))", String.class);
        for (String sql : List.of("USE system", "/* c */ set max_threads = 1, max_block_size = 7", "SET ROLE NONE",
                "CREATE TEMPORARY TABLE leaked (id UInt64)", "// c\nSET max_threads = 1",
                "/* a /* nested */ b */ SET max_threads = 1", "\u00a0USE system", "\ufeffSET max_threads = 1")) {
            assertThatExceptionOfType(InvalidDataAccessApiUsageException.class).as(sql)
                .isThrownBy(() -> template.execute(sql))
                .withMessageContaining("outside a session is refused")
                .withMessageContaining("inSession(...)")
                .withCauseInstanceOf(dev.clickhousetcp.ClickHouseSessionRequiredException.class);
            assertThatExceptionOfType(InvalidDataAccessApiUsageException.class).as(sql)
                .isThrownBy(() -> template.sql(sql).execute());
        }
        assertThat(template.queryForObject("SELECT currentDatabase()", String.class)).isEqualTo("default");
        assertThat(template.queryForObject("SELECT toString(getSetting('max_threads'))", String.class))
            .isEqualTo(threads);
        String inSession = template.inSession((session) -> {
            session.execute("USE system");
            session.execute("SET max_threads = 1");
            return session.queryForObject("SELECT currentDatabase() || ' ' || toString(getSetting('max_threads'))",
                    String.class);
        });
        assertThat(inSession).isEqualTo("system 1");
        assertThat(template.queryForObject("SELECT currentDatabase()", String.class)).isEqualTo("default");
    }

    @Test
    void describeAndCheckSchema() {
        List<TableColumn> columns = template.describe(DB + ".trades");
        assertThat(columns).extracting(TableColumn::name).containsExactly("id", "symbol", "price", "qty", "day");
        assertThat(template.checkSchema(Trade.class, DB + ".trades").ok()).isTrue();
        SchemaReport report = template.checkSchema(TradeBean.class, DB + ".trades");
        assertThat(report.ok()).isFalse();
        assertThat(report.problems()).extracting(SchemaReport.Problem::kind)
            .contains(SchemaReport.Kind.COLUMN_WITHOUT_PROPERTY);
        assertThatExceptionOfType(org.springframework.dao.InvalidDataAccessResourceUsageException.class)
            .isThrownBy(() -> template.describe(DB + ".no_such_table"))
            .withMessageContaining("DESCRIBE TABLE " + DB + ".no_such_table");
    }

    @Test
    void queryForObjectWithARowMapperStopsAtTheSecondRow() {
        AtomicLong mapped = new AtomicLong();
        assertThatExceptionOfType(IncorrectResultSizeDataAccessException.class)
            .isThrownBy(() -> template.queryForObject("SELECT number FROM numbers(1000000)", (row, n) -> {
                mapped.incrementAndGet();
                return row.getLong(0);
            }));
        assertThat(mapped.get()).isEqualTo(1);
        assertThat(IntStream.range(0, 3).mapToObj((i) -> template.queryForObject("SELECT {i:UInt8}",
                Map.of("i", i), (row, n) -> row.getLong(0))).toList()).containsExactly(0L, 1L, 2L);
    }
}
