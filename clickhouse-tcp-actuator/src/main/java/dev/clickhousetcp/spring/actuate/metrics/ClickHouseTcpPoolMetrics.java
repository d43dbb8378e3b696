package dev.clickhousetcp.spring.actuate.metrics;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Micrometer {@link MeterBinder} for the connection pool of a {@link ClickHouseTcpClient}, read from
 * {@link ClickHouseTcpClient#poolStats()} whenever a meter is read (nothing is recorded on the query
 * path).
 *
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>meaning</th></tr>
 * <tr><td>{@code clickhouse.tcp.pool.active}</td><td>gauge</td><td>connections lent out</td></tr>
 * <tr><td>{@code clickhouse.tcp.pool.idle}</td><td>gauge</td><td>connections waiting in the pool</td></tr>
 * <tr><td>{@code clickhouse.tcp.pool.pending}</td><td>gauge</td><td>threads waiting for a connection</td></tr>
 * <tr><td>{@code clickhouse.tcp.pool.total}</td><td>gauge</td><td>active + idle</td></tr>
 * <tr><td>{@code clickhouse.tcp.pool.max}</td><td>gauge</td><td>configured maximum</td></tr>
 * <tr><td>{@code clickhouse.tcp.pool.created}</td><td>function counter</td><td>connections opened</td></tr>
 * <tr><td>{@code clickhouse.tcp.pool.destroyed}</td><td>function counter</td><td>connections closed
 * (broken, expired or at shutdown)</td></tr>
 * <tr><td>{@code clickhouse.tcp.pool.acquire.timeouts}</td><td>function counter</td><td>acquisitions
 * that timed out</td></tr>
 * <tr><td>{@code clickhouse.tcp.pool.acquire}</td><td>function timer</td><td>successful acquisitions and
 * the time spent in them</td></tr>
 * </table>
 * Every meter carries the tag {@code name} (which client) plus the tags given to the constructor.
 *
 * <p>The meters hold the client weakly, as Micrometer gauges do: they read {@code NaN} once the client
 * is garbage collected. Thread-safe.
 */
public class ClickHouseTcpPoolMetrics implements MeterBinder {

    private static final String PREFIX = "clickhouse.tcp.pool.";

    private final ClickHouseTcpClient client;

    private final Tags tags;

    /**
     * Creates a binder.
     * @param client the client whose pool to measure
     * @param name the value of the {@code name} tag, telling clients apart
     * @param tags further tags for every meter
     */
    public ClickHouseTcpPoolMetrics(ClickHouseTcpClient client, String name, Iterable<Tag> tags) {
        this.client = Objects.requireNonNull(client, "client");
        this.tags = Tags.concat(tags, "name", Objects.requireNonNull(name, "name"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        gauge(registry, "active", "Connections lent out", (c) -> c.poolStats().active());
        gauge(registry, "idle", "Connections waiting in the pool", (c) -> c.poolStats().idle());
        gauge(registry, "total", "Connections open, active and idle", (c) -> c.poolStats().total());
        gauge(registry, "max", "Maximum number of connections", (c) -> c.poolStats().maxSize());
        Gauge.builder(PREFIX + "pending", this.client, (c) -> c.poolStats().pending())
            .description("Threads waiting for a connection")
            .baseUnit("threads")
            .tags(this.tags)
            .register(registry);
        counter(registry, "created", "Connections opened", (c) -> c.poolStats().created());
        counter(registry, "destroyed", "Connections closed: broken, expired or at shutdown",
                (c) -> c.poolStats().destroyed());
        FunctionCounter.builder(PREFIX + "acquire.timeouts", this.client, (c) -> c.poolStats().acquireTimeouts())
            .description("Connection acquisitions that timed out")
            .tags(this.tags)
            .register(registry);
        FunctionTimer
            .builder(PREFIX + "acquire", this.client, (c) -> c.poolStats().acquisitions(),
                    (c) -> c.poolStats().totalAcquireNanos(), TimeUnit.NANOSECONDS)
            .description("Successful connection acquisitions and the time spent waiting for them")
            .tags(this.tags)
            .register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String description,
            java.util.function.ToDoubleFunction<ClickHouseTcpClient> value) {
        Gauge.builder(PREFIX + name, this.client, value)
            .description(description)
            .baseUnit("connections")
            .tags(this.tags)
            .register(registry);
    }

    private void counter(MeterRegistry registry, String name, String description,
            java.util.function.ToDoubleFunction<ClickHouseTcpClient> value) {
        FunctionCounter.builder(PREFIX + name, this.client, value)
            .description(description)
            .baseUnit("connections")
            .tags(this.tags)
            .register(registry);
    }
}
