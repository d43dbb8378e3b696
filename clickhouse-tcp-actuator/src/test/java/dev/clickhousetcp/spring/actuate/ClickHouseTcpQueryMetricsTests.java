package dev.clickhousetcp.spring.actuate;

import java.time.Duration;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.client.Endpoint;
import dev.clickhousetcp.observe.ClickHouseTcpObservationContext;
import dev.clickhousetcp.observe.ClickHouseTcpObservationContext.Outcome;
import dev.clickhousetcp.observe.ClickHouseTcpOperation;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.spring.actuate.metrics.ClickHouseTcpQueryMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseTcpQueryMetrics} on contexts as the client fills them: every figure lands in its
 * meter with the low-cardinality tags only.
 */
class ClickHouseTcpQueryMetricsTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final ClickHouseTcpQueryMetrics metrics = new ClickHouseTcpQueryMetrics(this.registry);

    private static ClickHouseTcpObservationContext context(ClickHouseTcpOperation operation, String name) {
        return new ClickHouseTcpObservationContext(operation, name, "SELECT 1", "default", "analytics",
                new Endpoint("db1", 9000));
    }

    @Test
    void figuresOfASuccessfulQuery() {
        ClickHouseTcpObservationContext c = context(ClickHouseTcpOperation.QUERY, "SELECT");
        c.addProgress(new Progress(1000, 8000, 1000, 0, 0, 0, 2_000_000));
        c.setReturnedRows(10);
        c.setTimeToFirstBlockNanos(1_500_000);
        c.addCompression(1000, 4000, 0, 0);
        c.setOutcome(Outcome.SUCCESS);
        this.metrics.onStop(c);
        assertThat(this.registry.get("clickhouse.tcp.client.rows.read").tag("clickhouse.client.name", "analytics")
            .tag("clickhouse.operation", "query").tag("db.operation.name", "SELECT").summary().totalAmount())
            .isEqualTo(1000);
        assertThat(this.registry.get("clickhouse.tcp.client.bytes.read").summary().totalAmount()).isEqualTo(8000);
        assertThat(this.registry.get("clickhouse.tcp.client.rows.returned").summary().totalAmount()).isEqualTo(10);
        assertThat(this.registry.get("clickhouse.tcp.client.server.elapsed").timer().totalTime(
                java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(2.0);
        assertThat(this.registry.get("clickhouse.tcp.client.first.block").timer().totalTime(
                java.util.concurrent.TimeUnit.MICROSECONDS)).isEqualTo(1500.0);
        assertThat(this.registry.get("clickhouse.tcp.client.compression.ratio").tag("direction", "read").summary()
            .max()).isEqualTo(4.0);
        assertThat(this.registry.find("clickhouse.tcp.client.compression.ratio").tag("direction", "write").summary())
            .isNull();
        assertThat(this.registry.find("clickhouse.tcp.client.bytes.returned").summary()).isNull(); // no ProfileInfo
        assertThat(this.registry.find("clickhouse.tcp.client.cancellations").counter()).isNull();
    }

    @Test
    void countersOfRetriesCancellationsAndTimeouts() {
        ClickHouseTcpObservationContext retried = context(ClickHouseTcpOperation.INSERT, "INSERT");
        retried.addRetry();
        retried.addRetry();
        retried.setOutcome(Outcome.SUCCESS);
        this.metrics.onStop(retried);
        assertThat(this.registry.get("clickhouse.tcp.client.retries").tag("clickhouse.operation", "insert").counter()
            .count()).isEqualTo(2);
        assertThat(this.registry.find("clickhouse.tcp.client.rows.returned").summary()).isNull(); // inserts: written

        ClickHouseTcpObservationContext cancelled = context(ClickHouseTcpOperation.QUERY, "SELECT");
        cancelled.setOutcome(Outcome.CANCELLED);
        this.metrics.onStop(cancelled);
        assertThat(this.registry.get("clickhouse.tcp.client.cancellations").counter().count()).isEqualTo(1);

        ClickHouseTcpObservationContext client = context(ClickHouseTcpOperation.EXECUTE, "SELECT");
        client.setError(new ClickHouseTimeoutException("late", null, Deadline.QUERY, Duration.ofSeconds(1)));
        client.setOutcome(Outcome.ERROR);
        this.metrics.onStop(client);
        ClickHouseTcpObservationContext server = context(ClickHouseTcpOperation.EXECUTE, "SELECT");
        server.setError(new ClickHouseServerException(159, "DB::Exception", "Timeout exceeded", "", null));
        server.setOutcome(Outcome.ERROR);
        this.metrics.onStop(server);
        ClickHouseTcpObservationContext other = context(ClickHouseTcpOperation.EXECUTE, "SELECT");
        other.setError(new ClickHouseServerException(60, "DB::Exception", "Unknown table", "", null));
        other.setOutcome(Outcome.ERROR);
        this.metrics.onStop(other);
        assertThat(this.registry.get("clickhouse.tcp.client.timeouts").counter().count()).isEqualTo(2);
    }

    @Test
    void pingsRecordOnlyCounters() {
        ClickHouseTcpObservationContext ping = context(ClickHouseTcpOperation.PING, "PING");
        ping.setOutcome(Outcome.SUCCESS);
        this.metrics.onStop(ping);
        assertThat(this.registry.getMeters()).isEmpty();
    }

}
