package dev.clickhousetcp.spring.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.Compression;
import dev.clickhousetcp.client.LoadBalancing;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.mapping.AccessMode;
import dev.clickhousetcp.mapping.UnmappedColumns;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The {@code clickhouse.tcp.*} options reach the client, and invalid values fail startup with a
 * failure analysis that names the property.
 */
@ClickHouseTest
class ClickHouseTcpPropertiesTests {

    private static ClickHouseServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class));

    @BeforeAll
    static void server(ClickHouseServer modern) {
        server = modern;
    }

    private ApplicationContextRunner connected() {
        return this.runner.withPropertyValues("clickhouse.tcp.host=" + server.host(),
                "clickhouse.tcp.port=" + server.tcpPort());
    }

    @Test
    void everyOptionReachesTheClient() {
        connected()
            .withPropertyValues("clickhouse.tcp.compression=zstd", "clickhouse.tcp.zstd-level=3",
                    "clickhouse.tcp.connection.buffer-size=128KB", "clickhouse.tcp.connection.prefer-chunked=true",
                    "clickhouse.tcp.limits.max-rows-per-block=1000000", "clickhouse.tcp.limits.max-string-size=1MB",
                    "clickhouse.tcp.limits.max-column-size=64MB", "clickhouse.tcp.limits.max-array-elements=5000",
                    "clickhouse.tcp.limits.max-columns=50", "clickhouse.tcp.limits.max-frame-size=4MB",
                    "clickhouse.tcp.limits.max-expansion-size=32MB", "clickhouse.tcp.mapping.access-mode=method-handles",
                    "clickhouse.tcp.mapping.unmapped-columns=fail", "clickhouse.tcp.mapping.uint64-as-long=true",
                    "clickhouse.tcp.load-balancing=round-robin",
                    "clickhouse.tcp.pool.housekeeping-period=2s", "clickhouse.tcp.pool.idle-timeout=1m",
                    "clickhouse.tcp.pool.leak-detection-threshold=20s", "clickhouse.tcp.pool.validate-after-idle=5s",
                    "clickhouse.tcp.pool.shutdown-grace=45s")
            .run((context) -> {
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(client.config().compression()).isEqualTo(Compression.zstd(3));
                assertThat(client.config().bufferSize()).isEqualTo(128 * 1024);
                assertThat(client.config().preferChunked()).isTrue();
                assertThat(client.config().limits())
                    .isEqualTo(new DecodeLimits(1_000_000, 1 << 20, 64L << 20, 5000, 50, 4 << 20)
                            .withMaxExpansionBytes(32L << 20));
                assertThat(client.mappers().config().accessMode()).isEqualTo(AccessMode.METHOD_HANDLES);
                assertThat(client.mappers().config().unmappedColumns()).isEqualTo(UnmappedColumns.FAIL);
                assertThat(client.mappers().config().uint64AsLong()).isTrue();
                assertThat(client.queryRows("SELECT toUInt64('18446744073709551615')").get(0)).containsExactly(-1L);
                assertThat(client.poolConfig().loadBalancing()).isEqualTo(LoadBalancing.ROUND_ROBIN);
                assertThat(client.poolConfig().housekeepingPeriod()).isEqualTo(Duration.ofSeconds(2));
                assertThat(client.poolConfig().idleTimeout()).isEqualTo(Duration.ofMinutes(1));
                assertThat(client.poolConfig().leakDetectionThreshold()).isEqualTo(Duration.ofSeconds(20));
                assertThat(client.poolConfig().validateAfterIdle()).isEqualTo(Duration.ofSeconds(5));
                assertThat(client.poolConfig().shutdownGrace()).isEqualTo(Duration.ofSeconds(45));
                assertThat(client.queryRows("SELECT number FROM numbers(10000)")).hasSize(10000);
            });
    }

    @Test
    void defaultsMatchTheClientsOwn() {
        this.runner.run((context) -> {
            ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
            try (ClickHouseTcpClient plain = ClickHouseTcpClient.builder().build()) {
                assertThat(client.config().toString()).isEqualTo(plain.config().toString());
                assertThat(client.config().limits()).isEqualTo(plain.config().limits());
                assertThat(client.config().bufferSize()).isEqualTo(plain.config().bufferSize());
                assertThat(client.config().handshakeTimeout()).isEqualTo(plain.config().handshakeTimeout());
                assertThat(client.config().clientName()).isEqualTo(plain.config().clientName());
                assertThat(client.poolConfig()).isEqualTo(plain.poolConfig());
                assertThat(client.mappers().config()).isEqualTo(plain.mappers().config());
            }
        });
    }

    @Test
    void queryTimeoutAppliesToTemplateCallsWithoutTheirOwn() {
        connected().withPropertyValues("clickhouse.tcp.query.timeout=400ms").run((context) -> {
            ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
            Throwable failure = catchThrowable(
                    () -> template.execute("SELECT sleepEachRow(0.1) FROM numbers(30) SETTINGS max_block_size = 1"));
            assertThat(failure).isNotNull();
            ClickHouseTimeoutException timeout = findCause(failure, ClickHouseTimeoutException.class);
            assertThat(timeout).isNotNull();
            assertThat(timeout.timeout()).isEqualTo(Duration.ofMillis(400));
            assertThat(template.queryForObject("SELECT 1", Integer.class)).isEqualTo(1);
        });
    }

    @Test
    void invalidValuesFailStartupNamingTheProperty() {
        assertInvalid("clickhouse.tcp.port=70000", "clickhouse.tcp.port", "between 1 and 65535");
        assertInvalid("clickhouse.tcp.pool.max-size=0", "clickhouse.tcp.pool.max-size", "at least 1");
        assertInvalid("clickhouse.tcp.pool.min-idle=30", "clickhouse.tcp.pool.min-idle", "pool.max-size");
        assertInvalid("clickhouse.tcp.connection.connect-timeout=0s", "clickhouse.tcp.connection.connect-timeout",
                "positive");
        assertInvalid("clickhouse.tcp.connection.buffer-size=10B", "clickhouse.tcp.connection.buffer-size", "1024B");
        assertInvalid("clickhouse.tcp.pool.idle-timeout=-1s", "clickhouse.tcp.pool.idle-timeout", "negative");
        assertInvalid("clickhouse.tcp.query.timeout=0ms", "clickhouse.tcp.query.timeout", "positive");
        assertInvalid("clickhouse.tcp.insert.block-rows=0", "clickhouse.tcp.insert.block-rows", "at least 1");
        assertInvalid("clickhouse.tcp.limits.max-string-size=3GB", "clickhouse.tcp.limits.max-string-size",
                "between");
        assertInvalid("clickhouse.tcp.zstd-level=30", "clickhouse.tcp.zstd-level", "between 1 and 22");
        assertInvalid("clickhouse.tcp.zstd-level=3", "clickhouse.tcp.zstd-level", "compression=zstd");
        assertInvalid("clickhouse.tcp.endpoints=a:1,b:x", "clickhouse.tcp.endpoints[1]", "host:port");
        assertInvalid("clickhouse.tcp.host= ", "clickhouse.tcp.host", "blank");
    }

    @Test
    void unknownEnumValuesFailNamingTheProperty() {
        this.runner.withPropertyValues("clickhouse.tcp.compression=gzip").run((context) -> {
            assertThat(context).hasFailed();
            String description = analyze(context.getStartupFailure()).getDescription();
            assertThat(description).contains("clickhouse.tcp.compression").contains("gzip");
        });
    }

    @Test
    void malformedUrlFailsWithoutShowingThePassword() {
        String secret = "Very-Secret-42";
        this.runner.withPropertyValues("clickhouse.tcp.url=clickhouse://app:" + secret + "@h:port/db").run((context) -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("clickhouse.tcp.url")
                .contains("malformed ClickHouse URL")
                .doesNotContain(secret);
            assertThat(context.getStartupFailure().toString()).doesNotContain(secret);
            for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                assertThat(Objects.toString(t.getMessage(), "")).doesNotContain(secret);
            }
        });
    }

    @Test
    void clientRefusalsFromConnectionDetailsFailWithTheirSource() {
        this.runner.withBean(ClickHouseTcpConnectionDetails.class,
                () -> () -> List.of(new ClickHouseTcpConnectionDetails.Node("h", 0))).run((context) -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("port")
                        .contains("ClickHouseTcpConnectionDetails bean");
                });
    }

    private void assertInvalid(String property, String name, String reason) {
        this.runner.withPropertyValues(property).run((context) -> {
            assertThat(context).as(property).hasFailed();
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis).as(property).isNotNull();
            assertThat(analysis.getDescription()).as(property)
                .contains("Property: " + name)
                .contains(reason);
        });
    }

    /** Runs the registered failure analyzers, as Spring Boot does when startup fails. */
    static FailureAnalysis analyze(Throwable failure) {
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader
            .forDefaultResourceLocation(ClickHouseTcpPropertiesTests.class.getClassLoader())
            .load(FailureAnalyzer.class, FailureHandler.handleMessage((message, ex) -> {
            }));
        for (FailureAnalyzer analyzer : analyzers) {
            FailureAnalysis analysis = analyzer.analyze(failure);
            if (analysis != null) {
                return analysis;
            }
        }
        throw new AssertionError("no failure analysis for " + failure, failure);
    }

    static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

}
