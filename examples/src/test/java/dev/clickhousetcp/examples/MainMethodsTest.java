package dev.clickhousetcp.examples;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every example without a table of its own, run as a user runs it: its {@code main} with the system
 * properties pointing at the test servers, printing its result. (The examples that create tables use a
 * fixed table name in {@code main}, so their tests call {@code run} with a name unique to the run.)
 */
@ClickHouseTest
class MainMethodsTest {
    static final String[] PROPERTIES = {"clickhouse.host", "clickhouse.port", "clickhouse.tls.port", "clickhouse.tls.ca"};

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
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            example.getMethod("main", String[].class).invoke(null, (Object) new String[0]);
        } finally {
            System.setOut(original);
        }
        assertThat(out.toString(StandardCharsets.UTF_8)).isNotBlank();
    }
}
