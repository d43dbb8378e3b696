package dev.clickhousetcp.spring.autoconfigure.metrics;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.spring.actuate.metrics.ClickHouseTcpQueryMetrics;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.autoconfigure.observation.ClickHouseTcpObservationAutoConfiguration;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Query metrics with Spring Boot's own observation and metrics auto-configuration, after a known
 * workload against the real ClickHouse 26.7 server, checked against the server's own figures in
 * {@code system.query_log}.
 */
@ClickHouseTest
class ClickHouseTcpQueryMetricsAutoConfigurationTests {

    private static final String CLIENT = "clickHouseTcpClient";

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    ClickHouseTcpAutoConfiguration.class, ClickHouseTcpObservationAutoConfiguration.class,
                    ClickHouseTcpQueryMetricsAutoConfiguration.class));

    /** The server's figures for a query: read rows, read bytes, written rows, written bytes, result bytes. */
    private static long[] queryLog(ClickHouseServer server, String queryId) {
        server.httpQuery("SYSTEM FLUSH LOGS");
        String[] f = server.httpQuery("SELECT read_rows, read_bytes, written_rows, written_bytes, result_bytes "
                + "FROM system.query_log WHERE query_id = '" + queryId + "' AND type = 'QueryFinish' FORMAT TSV")
            .trim()
            .split("\t");
        assertThat(f).as("query_log row of %s", queryId).hasSize(5);
        return Stream.of(f).mapToLong(Long::parseLong).toArray();
    }

    private static DistributionSummary summary(MeterRegistry registry, String name, String operation, String dbOperation) {
        return registry.get(ClickHouseTcpQueryMetrics.PREFIX + name)
            .tag("clickhouse.client.name", CLIENT)
            .tag("clickhouse.operation", operation)
            .tag("db.operation.name", dbOperation)
            .summary();
    }

    @Test
    void metricsAfterAKnownWorkload(ClickHouseServer server) {
        String table = "query_metrics_" + UUID.randomUUID().toString().replace("-", "");
        this.runner.withPropertyValues("clickhouse.tcp.host=" + server.host(), "clickhouse.tcp.port=" + server.tcpPort())
            .run((context) -> {
                assertThat(context).hasSingleBean(ClickHouseTcpQueryMetrics.class);
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                MeterRegistry registry = context.getBean(MeterRegistry.class);

                // 1. one SELECT of 200 000 rows, read to the end
                String select = "select-" + UUID.randomUUID();
                try (QueryResult r = client.query("SELECT number, toString(number) FROM numbers(200000)",
                        QueryOptions.builder().queryId(select).build())) {
                    assertThat(r.drain()).isEqualTo(200_000);
                }
                long[] selected = queryLog(server, select);
                Timer timer = registry.get("clickhouse.tcp.client.operation")
                    .tag("clickhouse.client.name", CLIENT)
                    .tag("clickhouse.operation", "query")
                    .tag("db.operation.name", "SELECT")
                    .tag("outcome", "SUCCESS")
                    .tag("error.type", "none")
                    .timer();
                assertThat(timer.count()).isEqualTo(1);
                assertThat(timer.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
                DistributionSummary rowsRead = summary(registry, "rows.read", "query", "SELECT");
                assertThat(rowsRead.count()).isEqualTo(1);
                assertThat((long) rowsRead.totalAmount()).isEqualTo(200_000).isEqualTo(selected[0]);
                assertThat((long) summary(registry, "bytes.read", "query", "SELECT").totalAmount())
                    .isPositive().isEqualTo(selected[1]);
                assertThat((long) summary(registry, "rows.returned", "query", "SELECT").totalAmount())
                    .isEqualTo(200_000);
                assertThat((long) summary(registry, "bytes.returned", "query", "SELECT").totalAmount())
                    .isPositive();
                assertThat(summary(registry, "rows.read", "query", "SELECT").getId().getBaseUnit()).isEqualTo("rows");
                assertThat(summary(registry, "bytes.read", "query", "SELECT").getId().getBaseUnit()).isEqualTo("bytes");
                Timer serverElapsed = registry.get("clickhouse.tcp.client.server.elapsed")
                    .tag("db.operation.name", "SELECT").timer();
                assertThat(serverElapsed.count()).isEqualTo(1);
                assertThat(serverElapsed.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS))
                    .isPositive()
                    .isLessThanOrEqualTo(timer.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS));
                assertThat(registry.get("clickhouse.tcp.client.first.block").tag("db.operation.name", "SELECT")
                    .timer().count()).isEqualTo(1);
                DistributionSummary ratio = registry.get("clickhouse.tcp.client.compression.ratio")
                    .tag("db.operation.name", "SELECT").tag("direction", "read").summary();
                assertThat(ratio.count()).isEqualTo(1);
                assertThat(ratio.max()).isGreaterThan(1.0); // LZ4 by default; the numbers compress

                // 2. an insert of 1 000 rows
                client.execute("CREATE TABLE " + table + " (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
                try {
                    List<Object[]> rows = new java.util.ArrayList<>();
                    for (long i = 0; i < 1000; i++) {
                        rows.add(new Object[] { i, "name-" + i });
                    }
                    String insert = "insert-" + UUID.randomUUID();
                    client.insert(table, List.of("id", "name"), rows, QueryOptions.builder().queryId(insert).build());
                    long[] inserted = queryLog(server, insert);
                    assertThat((long) summary(registry, "rows.written", "insert", "INSERT").totalAmount())
                        .isEqualTo(1000).isEqualTo(inserted[2]);
                    assertThat((long) summary(registry, "bytes.written", "insert", "INSERT").totalAmount())
                        .isPositive().isEqualTo(inserted[3]);
                    assertThat(registry.get("clickhouse.tcp.client.compression.ratio")
                        .tag("db.operation.name", "INSERT").tag("direction", "write").summary().count())
                        .isEqualTo(1);
                    assertThat(registry.get("clickhouse.tcp.client.operation").tag("clickhouse.operation", "insert")
                        .timer().count()).isEqualTo(1);
                }
                finally {
                    client.execute("DROP TABLE IF EXISTS " + table);
                }

                // 3. a cancellation and a timeout
                try (QueryResult r = client.query("SELECT number FROM numbers(100000000)")) {
                    assertThat(r.next()).isNotNull();
                }
                assertThat(registry.get("clickhouse.tcp.client.cancellations").tag("db.operation.name", "SELECT")
                    .counter().count()).isEqualTo(1);
                assertThat(registry.get("clickhouse.tcp.client.operation").tag("outcome", "CANCELLED")
                    .tag("error.type", "cancelled").timer().count()).isEqualTo(1);
                assertThatThrownBy(() -> client.execute("SELECT sleepEachRow(0.1) FROM numbers(50) SETTINGS max_block_size = 1",
                        QueryOptions.builder().timeout(Duration.ofMillis(300)).build()))
                    .isInstanceOf(ClickHouseTimeoutException.class);
                assertThat(registry.get("clickhouse.tcp.client.timeouts").tag("clickhouse.operation", "execute")
                    .counter().count()).isEqualTo(1);
                assertThat(registry.get("clickhouse.tcp.client.operation").tag("clickhouse.operation", "execute")
                    .tag("error.type", ClickHouseTimeoutException.class.getName()).timer().count()).isEqualTo(1);

                // 4. pings: a timer, no summaries; and no meter carries a high-cardinality tag
                client.ping();
                assertThat(registry.get("clickhouse.tcp.client.operation").tag("db.operation.name", "PING").timer()
                    .count()).isEqualTo(1);
                for (Meter meter : registry.getMeters()) {
                    if (meter.getId().getName().startsWith("clickhouse.tcp.client")) {
                        assertThat(meter.getId().getTags()).noneMatch((tag) -> tag.getKey().equals("db.query.text")
                                || tag.getKey().equals("clickhouse.query_id"));
                    }
                }
                assertThat(registry.find(ClickHouseTcpQueryMetrics.PREFIX + "rows.read").tag("db.operation.name", "PING")
                    .summary()).isNull();
            });
    }

    @Test
    void backsOffWithoutMeterRegistry() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class,
                    ClickHouseTcpQueryMetricsAutoConfiguration.class))
            .run((context) -> assertThat(context).doesNotHaveBean(ClickHouseTcpQueryMetrics.class));
    }

}
