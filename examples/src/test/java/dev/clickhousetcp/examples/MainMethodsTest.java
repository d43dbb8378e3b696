package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.examples.spring.connectiondetails.ConnectionDetailsApplication;
import dev.clickhousetcp.examples.spring.template.TemplateApplication;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every example run as a user runs it: its {@code main} with the system properties (or, for the Spring
 * applications, the arguments) pointing at the test servers, printing its result. The examples that create
 * a table get a name unique to the run ({@code -Dexample.table}); their {@code main} must leave no table
 * behind, also when it fails, and must run again after a run that was killed before it could drop it.
 */
@ClickHouseTest
class MainMethodsTest {
    static final String[] PROPERTIES = {"clickhouse.host", "clickhouse.port", "clickhouse.tls.port",
            "clickhouse.tls.ca", "example.table"};

    /** Each example that creates a table, and its {@code run} filling a table of the given name. */
    static final Map<Class<?>, BiConsumer<ClickHouseTcpClient, String>> TABLE_EXAMPLES = Map.of(
            ColumnarInsert.class, ColumnarInsert::run,
            RecordInsert.class, RecordInsert::run,
            StreamInsert.class, (client, table) -> StreamInsert.run(client, table, 1_000),
            DeduplicatedInsertWithRetry.class, DeduplicatedInsertWithRetry::run,
            CompositeTypes.class, CompositeTypes::run,
            SemiStructuredTypes.class, SemiStructuredTypes::run);

    @BeforeAll
    static void pointAtTestServers() {
        ClickHouseServer modern = ClickHouseServers.modern();
        ClickHouseServer legacy = ClickHouseServers.legacy();
        System.setProperty("clickhouse.host", modern.host());
        System.setProperty("clickhouse.port", String.valueOf(modern.tcpPort()));
        System.setProperty("clickhouse.tls.port", String.valueOf(legacy.tlsPort()));
        System.setProperty("clickhouse.tls.ca",
                legacy.serverCertificatePem().orElseThrow().getParent().resolve("ca.crt").toString());
    }

    @AfterAll
    static void clear() {
        for (String name : PROPERTIES) {
            System.clearProperty(name);
        }
    }

    @ParameterizedTest
    @ValueSource(classes = {ConnectAndPing.class, BlockTierRead.class, TypedProjections.class, ReadRecords.class,
            ReadBeans.class, ConstructorBinding.class, ObjectArrayRows.class, StreamRows.class, QueryParameters.class,
            PerQuerySettings.class, QueryIdAndCancel.class, Timeouts.class, ProgressAndProfileEvents.class,
            ServerLogs.class, TotalsAndExtremes.class, SessionsAndTemporaryTables.class, ExternalTables.class,
            DateTimeZones.class, DecimalsAndBigIntegers.class, Tls.class, Failover.class, Tracing.class})
    void mainPrintsItsResult(Class<?> example) throws Exception {
        assertThat(runMain(example)).isNotBlank();
    }

    @ParameterizedTest
    @ValueSource(classes = {ColumnarInsert.class, RecordInsert.class, StreamInsert.class,
            DeduplicatedInsertWithRetry.class, CompositeTypes.class, SemiStructuredTypes.class})
    void mainPrintsItsResultAndDropsItsTable(Class<?> example) throws Exception {
        String table = uniqueTable();
        System.setProperty("example.table", table);
        try {
            assertThat(runMain(example)).isNotBlank();
            assertThat(exists(table)).isFalse();
        } finally {
            dropQuietly(table);
        }
    }

    @ParameterizedTest
    @ValueSource(classes = {ColumnarInsert.class, RecordInsert.class, StreamInsert.class,
            DeduplicatedInsertWithRetry.class, CompositeTypes.class, SemiStructuredTypes.class})
    void mainRunsAgainAfterARunKilledBeforeItsDrop(Class<?> example) throws Exception {
        ClickHouseServer server = ClickHouseServers.modern();
        String table = uniqueTable();
        System.setProperty("example.table", table);
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort())
                .build()) {
            TABLE_EXAMPLES.get(example).accept(client, table);   // the table of a run that never reached its DROP
            assertThat(runMain(example)).isNotBlank();
            assertThat(exists(table)).isFalse();
        } finally {
            dropQuietly(table);
        }
    }

    @ParameterizedTest
    @ValueSource(classes = {ColumnarInsert.class, RecordInsert.class, StreamInsert.class,
            DeduplicatedInsertWithRetry.class, CompositeTypes.class, SemiStructuredTypes.class})
    void mainDropsItsTableWhenItFails(Class<?> example) {
        String table = uniqueTable();
        System.setProperty("example.table", table);
        // a table of that name but another shape: the example's insert fails
        ClickHouseServers.modern().httpQuery("CREATE TABLE " + table + " (unrelated UInt8) ENGINE = Memory");
        try {
            assertThatThrownBy(() -> runMain(example)).isInstanceOf(InvocationTargetException.class);
            assertThat(exists(table)).isFalse();
        } finally {
            dropQuietly(table);
        }
    }

    @Test
    void templateApplicationMainPrintsTopPagesAndDropsItsTable() throws Exception {
        ClickHouseServer server = ClickHouseServers.modern();
        String table = uniqueTable();
        try {
            String out = runMain(TemplateApplication.class, "--clickhouse.tcp.host=" + server.host(),
                    "--clickhouse.tcp.port=" + server.tcpPort(), "--example.table=" + table);
            assertThat(out).contains("PageCount[page=/page/0, views=200]", "/page/0");
            assertThat(exists(table)).isFalse();
        } finally {
            dropQuietly(table);
        }
    }

    @Test
    void connectionDetailsApplicationMainPrintsWhereItConnected() throws Exception {
        ClickHouseServer server = ClickHouseServers.modern();
        String out = runMain(ConnectionDetailsApplication.class, "--example.clickhouse.host=" + server.host(),
                "--example.clickhouse.port=" + server.tcpPort());
        assertThat(out.strip()).endsWith("@" + server.tcpPort());
    }

    /** Runs {@code example.main(args)} and returns what it printed. */
    static String runMain(Class<?> example, String... args) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            example.getMethod("main", String[].class).invoke(null, (Object) args);
        } finally {
            System.setOut(original);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    static String uniqueTable() {
        return "example_main_" + UUID.randomUUID().toString().replace("-", "");
    }

    static boolean exists(String table) {
        return Http.longValue(ClickHouseServers.modern(), "EXISTS TABLE " + table) == 1;
    }

    static void dropQuietly(String table) {
        System.clearProperty("example.table");
        ClickHouseServers.modern().httpQuery("DROP TABLE IF EXISTS " + table);
    }
}
