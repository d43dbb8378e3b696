package dev.clickhousetcp.spring.core;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.core.ClickHouseErrorCodes.Category;
import dev.clickhousetcp.spring.core.ClickHouseErrorCodes.Entry;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.FaultProxy;
import dev.clickhousetcp.testsupport.FaultProxy.Direction;
import dev.clickhousetcp.testsupport.LegacyServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.dao.DataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The translation table row by row against real servers: each error provoked the way it happens in practice
 * where a single server can produce it (a parameterized test), every other code of the table raised by the
 * server itself through {@code throwIf(1, msg, code)}, and the client-side failures produced for real (a
 * closed port, an exhausted pool, a stalled, cut or corrupted connection through a fault proxy in front of the
 * legacy server, which unlike the embedded 26.7 server survives such faults).
 */
@ClickHouseTest
class ClickHouseTcpExceptionTranslationTests {

    private static final String DB = "spring_translation_test";

    /**
     * Codes not raised through {@code throwIf} on the shared 26.7 server: its native protocol handler treats
     * some codes as network failures or rethrows them (which aborts the embedded server), and authentication
     * failures must not reach it. They are covered with real exception objects by
     * {@link ClickHouseTcpExceptionTranslatorTests}, and authentication against the legacy server below.
     */
    private static final Set<Integer> NOT_THROWN_ON_THE_SHARED_SERVER = Set.of(3, 32, 33, 99, 101, 102, 159, 192,
            193, 194, 195, 209, 210, 236, 394, 516);

    private static ClickHouseServer modern;

    private static ClickHouseTcpClient client;

    private static ClickHouseTcpTemplate template;

    private static ClickHouseTcpClient readonlyClient;

    @BeforeAll
    static void connect(ClickHouseServer server) {
        modern = server;
        client = ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort()).build();
        template = new ClickHouseTcpTemplate(client);
        readonlyClient = ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort())
            .user(ClickHouseServer.READONLY_USER).build();
        template.execute("DROP DATABASE IF EXISTS " + DB);
        template.execute("CREATE DATABASE " + DB);
        template.execute("CREATE TABLE " + DB + ".t1 (a UInt8) ENGINE = Memory");
        template.execute("CREATE TABLE " + DB + ".checked (a UInt8, CONSTRAINT small CHECK a < 5) ENGINE = Memory");
    }

    @AfterAll
    static void close() {
        if (template != null) {
            template.execute("DROP DATABASE IF EXISTS " + DB);
        }
        if (readonlyClient != null) {
            readonlyClient.close();
        }
        if (client != null) {
            client.close();
        }
    }

    /** One way to make the server raise {@code code}. */
    record Provoked(int code, String how, Consumer<String> action) {

        /** A statement run with the given query_id. */
        static Provoked sql(int code, String sql) {
            return new Provoked(code, sql, (queryId) -> template.sql(sql).queryId(queryId).execute());
        }

        @Override
        public String toString() {
            return this.code + " " + ClickHouseErrorCodes.name(this.code, null) + ": " + this.how;
        }
    }

    static Stream<Provoked> provoked() {
        String t1 = DB + ".t1";
        return Stream.of(
                // BadSqlGrammar
                Provoked.sql(62, "SELEKT 1"),
                Provoked.sql(47, "SELECT nope"),
                Provoked.sql(60, "SELECT * FROM " + DB + ".nope"),
                Provoked.sql(81, "SELECT * FROM no_such_db_xyz.t"),
                Provoked.sql(46, "SELECT nofunc(1)"),
                new Provoked(16, "insert into a column the table does not have",
                        (id) -> template.insertInto(t1).queryId(id)
                            .insert(List.of("nope"), List.<Object[]>of(new Object[] { 1 }))),
                Provoked.sql(10, "ALTER TABLE " + t1 + " DROP COLUMN nope"),
                Provoked.sql(20, "INSERT INTO " + t1 + " SELECT 1, 2"),
                Provoked.sql(50, "SELECT CAST(1 AS Nope)"),
                Provoked.sql(57, "CREATE TABLE " + t1 + " (a UInt8) ENGINE = Memory"),
                Provoked.sql(82, "CREATE DATABASE " + DB),
                Provoked.sql(386, "SELECT [1, 'a']"),
                // limits
                Provoked.sql(158, "SELECT * FROM numbers(100) SETTINGS max_rows_to_read = 5"),
                Provoked.sql(307, "SELECT * FROM numbers(100) SETTINGS max_bytes_to_read = 5"),
                Provoked.sql(396, "SELECT number FROM numbers(100000) SETTINGS max_result_bytes = 5, "
                        + "result_overflow_mode = 'throw'"),
                Provoked.sql(241, "SELECT groupArray(number) FROM numbers(1000000) SETTINGS max_memory_usage = 100000"),
                Provoked.sql(128, "SELECT arrayResize([1], -1000000000000)"),
                Provoked.sql(131, "SELECT randomString(-1)"),
                // permissions
                new Provoked(164, "a readonly user creates a table",
                        (id) -> new ClickHouseTcpTemplate(readonlyClient).sql("CREATE TABLE " + DB
                                + ".forbidden (a UInt8) ENGINE = Memory").queryId(id).execute()),
                // timeouts
                Provoked.sql(159, "SELECT sleepEachRow(0.05) FROM numbers(100) SETTINGS max_execution_time = 0.2, "
                        + "max_block_size = 1"),
                Provoked.sql(160, "SELECT count() FROM numbers_mt(100000000000) SETTINGS "
                        + "min_execution_speed = 1000000000000, timeout_before_checking_execution_speed = 0.01"),
                // invalid API usage
                new Provoked(115, "a per-call setting the server does not know",
                        (id) -> template.sql("SELECT 1").setting("no_such_setting_xyz", 1).queryId(id).execute()),
                Provoked.sql(36, "SELECT dictGet('no_such_dictionary', 'a', 1)"),
                Provoked.sql(43, "SELECT 1 + 'a'"),
                Provoked.sql(215, "SELECT number, count() FROM numbers(2)"),
                Provoked.sql(42, "SELECT toDate(1, 2, 3, 4)"),
                Provoked.sql(35, "SELECT sequenceMatch('(?1)(?3)')(number, number = 1) FROM numbers(2)"),
                Provoked.sql(69, "SELECT toDecimal32(1, 100)"),
                Provoked.sql(12, "SELECT quantile(2)(1)"),
                Provoked.sql(456, "SELECT {p:UInt8}"),
                new Provoked(457, "a parameter value the server cannot parse as its type",
                        (id) -> template.sql("SELECT {p:UInt8}").param("p", "abc").queryId(id).execute()),
                // data integrity
                Provoked.sql(6, "SELECT toInt32('abc')"),
                Provoked.sql(41, "SELECT toDateTime('abc')"),
                Provoked.sql(72, "SELECT toFloat64('abc')"),
                Provoked.sql(153, "SELECT intDiv(1, 0)"),
                Provoked.sql(376, "SELECT toUUID('x')"),
                Provoked.sql(395, "SELECT throwIf(1)"),
                Provoked.sql(407, "SELECT toDecimal32(1e10, 2)"),
                Provoked.sql(469, "INSERT INTO " + DB + ".checked SELECT 7"),
                Provoked.sql(675, "SELECT toIPv4('x')"),
                Provoked.sql(691, "SELECT CAST('x' AS Enum8('a' = 1))"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("provoked")
    void serverErrorsProvokedOnTheServer(Provoked provoked) {
        String queryId = "translation-" + UUID.randomUUID();
        DataAccessException ex = catchThrowableOfType(DataAccessException.class, () -> provoked.action().accept(queryId));
        assertTranslated(ex, provoked.code());
        assertThat(((ClickHouseErrorDetails) ex).getQueryId()).isEqualTo(queryId);
        assertThat(ex).hasMessageContaining("query_id " + queryId);
    }

    static Stream<Entry> raisedByThrowIf() {
        Set<Integer> provoked = new HashSet<>();
        provoked().forEach((p) -> provoked.add(p.code()));
        return ClickHouseErrorCodes.entries().values().stream()
            .filter((e) -> !provoked.contains(e.code()) && !NOT_THROWN_ON_THE_SHARED_SERVER.contains(e.code()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("raisedByThrowIf")
    void everyOtherCodeRaisedByTheServer(Entry entry) {
        DataAccessException ex = catchThrowableOfType(DataAccessException.class,
                () -> template.execute("SELECT throwIf(1, 'provoked by a test', toInt32(" + entry.code()
                        + ")) SETTINGS allow_custom_error_code_in_throwif = 1"));
        assertTranslated(ex, entry.code());
    }

    private static void assertTranslated(DataAccessException ex, int code) {
        assertThat(ex).as("translated exception").isNotNull();
        Category category = ClickHouseErrorCodes.category(code,
                ((ClickHouseServerException) ex.getCause()).serverMessage());
        assertThat(ex).isExactlyInstanceOf(ClickHouseTcpExceptionTranslatorTests.ourType(category))
            .isInstanceOf(ClickHouseTcpExceptionTranslatorTests.springType(category))
            .hasCauseInstanceOf(ClickHouseServerException.class);
        ClickHouseErrorDetails details = (ClickHouseErrorDetails) ex;
        assertThat(details.getErrorCode()).isEqualTo(code);
        assertThat(details.getErrorName()).isEqualTo(ClickHouseErrorCodes.entries().get(code).name());
        assertThat(details.getQueryId()).isNotNull();
        assertThat(((ClickHouseServerException) details.getClickHouseException()).code()).isEqualTo(code);
    }

    @Test
    void tableNamesAreTheServersNames() {
        java.util.Map<Long, String> names = new java.util.HashMap<>();
        template.query("SELECT number, errorCodeToName(number) FROM numbers(1000)",
                (row, n) -> names.put(row.getLong(0), row.getString(1)));
        for (Entry entry : ClickHouseErrorCodes.entries().values()) {
            assertThat(names.get((long) entry.code())).as("name of code " + entry.code()).isEqualTo(entry.name());
        }
    }

    @Test
    void killedQueryIsCancelledAndASecondQueryWithItsIdIsRejected() throws Exception {
        String queryId = "killed-" + UUID.randomUUID();
        CompletableFuture<Void> running = CompletableFuture.runAsync(() -> template
            .sql("SELECT sleepEachRow(0.1) FROM numbers(300) SETTINGS max_block_size = 1")
            .queryId(queryId)
            .execute());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (template.queryForObject("SELECT count() FROM system.processes WHERE query_id = {id:String}",
                java.util.Map.of("id", queryId), Long.class) == 0) {
            assertThat(System.nanoTime()).as("query started").isLessThan(deadline);
            Thread.sleep(20);
        }
        DataAccessException duplicate = catchThrowableOfType(DataAccessException.class,
                () -> template.sql("SELECT 1").queryId(queryId).execute());
        assertTranslated(duplicate, 216);
        assertThat(duplicate).isInstanceOf(ClickHouseInvalidApiUsageException.class);

        template.execute("KILL QUERY WHERE query_id = {id:String} SYNC", java.util.Map.of("id", queryId));
        Throwable killed = catchThrowableOfType(java.util.concurrent.ExecutionException.class,
                () -> running.get(20, TimeUnit.SECONDS)).getCause();
        assertThat(killed).isInstanceOf(DataAccessException.class);
        assertTranslated((DataAccessException) killed, 394);
        assertThat(killed).isInstanceOf(ClickHouseQueryTimeoutException.class);
    }

    @Test
    void rejectedSettingsNameTheirOrigin() {
        assertThatExceptionOfType(ClickHouseInvalidApiUsageException.class)
            .isThrownBy(() -> template.sql("SELECT 1").setting("no_such_setting_xyz", 1).execute())
            .withMessageContaining("the server does not know the setting 'no_such_setting_xyz', which this call sets");
        try (ClickHouseTcpClient withDefault = ClickHouseTcpClient.builder().host(modern.host())
            .port(modern.tcpPort()).setting("no_such_setting_xyz", 1).build()) {
            assertThatExceptionOfType(ClickHouseInvalidApiUsageException.class)
                .isThrownBy(() -> new ClickHouseTcpTemplate(withDefault).execute("SELECT 1"))
                .withMessageContaining("the server does not know the setting 'no_such_setting_xyz', which comes from "
                        + "the client's default settings");
        }
        assertThatExceptionOfType(ClickHousePermissionDeniedException.class)
            .isThrownBy(() -> new ClickHouseTcpTemplate(readonlyClient).sql("SELECT 1").setting("max_block_size", 5)
                .execute())
            .withMessageContaining("Cannot modify 'max_block_size' setting in readonly mode")
            .withMessageContaining("setting 'max_block_size', which this call sets");
        try (ClickHouseTcpClient readonlyWithDefault = ClickHouseTcpClient.builder().host(modern.host())
            .port(modern.tcpPort()).user(ClickHouseServer.READONLY_USER).setting("max_block_size", 5).build()) {
            assertThatExceptionOfType(ClickHousePermissionDeniedException.class)
                .isThrownBy(() -> new ClickHouseTcpTemplate(readonlyWithDefault).execute("SELECT 1"))
                .withMessageContaining("setting 'max_block_size', which comes from the client's default settings");
        }
    }

    @Test
    void refusedConnectionIsAResourceFailure() {
        try (ClickHouseTcpClient closed = ClickHouseTcpClient.builder().host("127.0.0.1").port(1).build()) {
            assertThatExceptionOfType(ClickHouseResourceFailureException.class)
                .isThrownBy(() -> new ClickHouseTcpTemplate(closed).execute("SELECT 1"))
                .withCauseInstanceOf(ClickHouseConnectionException.class)
                .satisfies((ex) -> assertThat(ex.getErrorCode()).isEqualTo(-1));
        }
    }

    @Test
    void exhaustedPoolIsTransient() {
        try (ClickHouseTcpClient one = ClickHouseTcpClient.builder().host(modern.host()).port(modern.tcpPort())
            .maxPoolSize(1).acquireTimeout(Duration.ofMillis(200)).build()) {
            ClickHouseTcpTemplate small = new ClickHouseTcpTemplate(one);
            try (Stream<Long> holding = small.stream("SELECT number FROM numbers(10)", Long.class)) {
                assertThatExceptionOfType(ClickHouseTransientResourceException.class)
                    .isThrownBy(() -> small.execute("SELECT 1"))
                    .withMessageContaining("deadline ACQUIRE (acquireTimeout PT0.2S)")
                    .satisfies((ex) -> assertThat(((ClickHouseTimeoutException) ex.getCause()).deadline())
                        .isEqualTo(Deadline.ACQUIRE));
                assertThat(holding.count()).isEqualTo(10);
            }
        }
    }

    @Test
    void wrongPasswordIsPermissionDenied(@LegacyServer ClickHouseServer legacy) {
        try (ClickHouseTcpClient wrong = ClickHouseTcpClient.builder().host(legacy.host()).port(legacy.tcpPort())
            .user(ClickHouseServer.SECRET_USER).password("not-the-password").build()) {
            assertThatExceptionOfType(ClickHousePermissionDeniedException.class)
                .isThrownBy(() -> new ClickHouseTcpTemplate(wrong).execute("SELECT 1"))
                .satisfies((ex) -> assertThat(ex.getErrorCode()).isIn(192, 193, 516))
                .satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain("not-the-password"));
        }
    }

    @Test
    void parametersOnAServerTooOldForThemAreInvalidApiUsage(@LegacyServer ClickHouseServer legacy) {
        try (ClickHouseTcpClient old = ClickHouseTcpClient.builder().host(legacy.host()).port(legacy.tcpPort())
            .build()) {
            ClickHouseTcpTemplate template = new ClickHouseTcpTemplate(old);
            assertThatExceptionOfType(ClickHouseInvalidApiUsageException.class)
                .isThrownBy(() -> template.queryForObject("SELECT {x:UInt8}", Map.of("x", 1), Integer.class))
                .withMessageContaining("query parameters need protocol revision")
                .satisfies((ex) -> assertThat(ex.getErrorCode()).isEqualTo(-1))
                .satisfies((ex) -> assertThat(ex.getQueryId()).isNotNull());
            assertThat(template.queryForObject("SELECT 1", Integer.class)).isEqualTo(1);
        }
    }

    @Test
    void stalledHandshakeIsAResourceFailure(@LegacyServer ClickHouseServer legacy) {
        try (FaultProxy proxy = FaultProxy.forNativePort(legacy);
                ClickHouseTcpClient stalled = ClickHouseTcpClient.builder().host(proxy.host()).port(proxy.port())
                    .handshakeTimeout(Duration.ofMillis(300)).build()) {
            proxy.on(Direction.SERVER_TO_CLIENT).atOffset(0).stall().onNextConnection();
            assertThatExceptionOfType(ClickHouseResourceFailureException.class)
                .isThrownBy(() -> new ClickHouseTcpTemplate(stalled).execute("SELECT 1"))
                .withMessageContaining("deadline HANDSHAKE (handshakeTimeout PT0.3S)");
            proxy.releaseStalls();
        }
    }

    @Test
    void silentServerMidQueryIsAQueryTimeout(@LegacyServer ClickHouseServer legacy) {
        try (FaultProxy proxy = FaultProxy.forNativePort(legacy);
                ClickHouseTcpClient silent = ClickHouseTcpClient.builder().host(proxy.host()).port(proxy.port())
                    .socketTimeout(Duration.ofMillis(300)).build()) {
            proxy.on(Direction.SERVER_TO_CLIENT).afterMarker(Direction.CLIENT_TO_SERVER, "marker-silent").plusBytes(0)
                .stall().once();
            assertThatExceptionOfType(ClickHouseQueryTimeoutException.class)
                .isThrownBy(() -> new ClickHouseTcpTemplate(silent).execute("SELECT 'marker-silent'"))
                .withMessageContaining("deadline SOCKET (socketTimeout PT0.3S)");
            proxy.releaseStalls();
        }
    }

    @Test
    void connectionCutMidResponseIsTransient(@LegacyServer ClickHouseServer legacy) {
        try (FaultProxy proxy = FaultProxy.forNativePort(legacy);
                ClickHouseTcpClient cut = ClickHouseTcpClient.builder().host(proxy.host()).port(proxy.port()).build()) {
            proxy.on(Direction.SERVER_TO_CLIENT).afterMarker(Direction.CLIENT_TO_SERVER, "marker-cut")
                .plusBytes(20_000).truncate().once();
            ClickHouseTcpTemplate cutTemplate = new ClickHouseTcpTemplate(cut);
            assertThatExceptionOfType(ClickHouseTransientResourceException.class)
                .isThrownBy(() -> cutTemplate.execute("SELECT number, 'marker-cut' FROM system.numbers LIMIT 2000000"))
                .withCauseInstanceOf(ClickHouseConnectionException.class);
            assertThat(cutTemplate.queryForObject("SELECT 1", Integer.class)).isEqualTo(1);
        }
    }

    @Test
    void corruptedResponseIsANonTransientResourceFailure(@LegacyServer ClickHouseServer legacy) {
        try (FaultProxy proxy = FaultProxy.forNativePort(legacy);
                ClickHouseTcpClient corrupt = ClickHouseTcpClient.builder().host(proxy.host()).port(proxy.port())
                    .build()) {
            proxy.on(Direction.SERVER_TO_CLIENT).afterMarker(Direction.CLIENT_TO_SERVER, "marker-flip")
                .plusBytes(5_000).flip().once();
            ClickHouseTcpTemplate corruptTemplate = new ClickHouseTcpTemplate(corrupt);
            assertThatExceptionOfType(ClickHouseNonTransientResourceException.class)
                .isThrownBy(() -> corruptTemplate
                    .execute("SELECT number, 'marker-flip' FROM system.numbers LIMIT 2000000"))
                .withCauseInstanceOf(ClickHouseProtocolException.class);
            assertThat(corruptTemplate.queryForObject("SELECT 1", Integer.class)).isEqualTo(1);
        }
    }

    @Test
    void valuesAndClassesThatDoNotFitAreTypeMismatches() {
        assertThatExceptionOfType(ClickHouseTypeMismatchException.class)
            .isThrownBy(() -> template.insert(DB + ".t1", List.of("a"), List.<Object[]>of(new Object[] { 1000 })))
            .withMessageContaining("INSERT INTO " + DB + ".t1");
        record Dated(java.time.LocalDate day) {
        }
        assertThatExceptionOfType(ClickHouseTypeMismatchException.class)
            .isThrownBy(() -> template.query("SELECT 'x' AS day", Dated.class))
            .withMessageContaining("java.time.LocalDate");
        // Nothing was left behind.
        assertThat(ClickHouseServers.modern().isAlive()).isTrue();
        assertThat(client.poolStats().active()).isZero();
    }
}
