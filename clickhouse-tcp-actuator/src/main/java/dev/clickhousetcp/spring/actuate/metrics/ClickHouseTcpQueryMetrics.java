package dev.clickhousetcp.spring.actuate.metrics;

import java.time.Duration;
import java.util.Objects;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.observe.ClickHouseTcpObservationContext;
import dev.clickhousetcp.observe.ClickHouseTcpObservationContext.Outcome;
import dev.clickhousetcp.observe.ClickHouseTcpOperation;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;

/**
 * Query metrics of the ClickHouse native TCP client, recorded from its observations when they stop:
 * the figures the server reported for each call (its Progress packets; for inserts its ProfileEvents;
 * the result's ProfileInfo), the client's own counts, and counters of cancellations, timeouts and
 * retries. The duration of each call is the observation's timer ({@code clickhouse.tcp.client.operation},
 * made by Micrometer's {@code DefaultMeterObservationHandler}); this handler adds what a timer cannot
 * hold.
 *
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>unit</th><th>value per call</th></tr>
 * <tr><td>{@code clickhouse.tcp.client.rows.read}</td><td>distribution summary</td><td>rows</td><td>rows the
 * server read (Progress)</td></tr>
 * <tr><td>{@code clickhouse.tcp.client.bytes.read}</td><td>distribution summary</td><td>bytes</td><td>uncompressed
 * bytes the server read (Progress)</td></tr>
 * <tr><td>{@code clickhouse.tcp.client.rows.written}</td><td>distribution summary</td><td>rows</td><td>rows the
 * server wrote (Progress; for the rows a client inserts, the server's InsertedRows ProfileEvent)</td></tr>
 * <tr><td>{@code clickhouse.tcp.client.bytes.written}</td><td>distribution summary</td><td>bytes</td><td>uncompressed
 * bytes the server wrote (likewise)</td></tr>
 * <tr><td>{@code clickhouse.tcp.client.rows.returned}</td><td>distribution summary</td><td>rows</td><td>rows of the
 * result the client received (queries and statements)</td></tr>
 * <tr><td>{@code clickhouse.tcp.client.bytes.returned}</td><td>distribution summary</td><td>bytes</td><td>uncompressed
 * bytes of the result (ProfileInfo; calls whose server sent one)</td></tr>
 * <tr><td>{@code clickhouse.tcp.client.server.elapsed}</td><td>timer</td><td>seconds</td><td>the server's elapsed
 * time (Progress; servers of revision 54460+)</td></tr>
 * <tr><td>{@code clickhouse.tcp.client.first.block}</td><td>timer</td><td>seconds</td><td>time from the call's
 * start to its first data block with rows</td></tr>
 * <tr><td>{@code clickhouse.tcp.client.compression.ratio}</td><td>distribution summary</td><td>—</td><td>bytes before
 * compression / bytes on the wire of the call's compressed frames, tag {@code direction} {@code read} or
 * {@code write} (calls with compressed frames)</td></tr>
 * <tr><td>{@code clickhouse.tcp.client.cancellations}</td><td>counter</td><td>—</td><td>calls the caller stopped
 * before their end</td></tr>
 * <tr><td>{@code clickhouse.tcp.client.timeouts}</td><td>counter</td><td>—</td><td>calls ended by a client timeout
 * or the server's {@code TIMEOUT_EXCEEDED}</td></tr>
 * <tr><td>{@code clickhouse.tcp.client.retries}</td><td>counter</td><td>—</td><td>statements sent again
 * (transparent retries, further insert attempts)</td></tr>
 * </table>
 * Every meter has the tags {@code clickhouse.client.name}, {@code clickhouse.operation} and
 * {@code db.operation.name} (low cardinality: the client's name, the kind of call, the statement's
 * first keyword). Pings record only the counters.
 *
 * <p>Thread-safe; never throws into the call (the client also guards against that).
 */
public class ClickHouseTcpQueryMetrics implements ObservationHandler<ClickHouseTcpObservationContext> {

    /** Common prefix of the meter names. */
    public static final String PREFIX = "clickhouse.tcp.client.";

    /** ClickHouse's TIMEOUT_EXCEEDED error code. */
    private static final int TIMEOUT_EXCEEDED = 159;

    private final MeterRegistry registry;

    /**
     * Creates the handler.
     * @param registry where the meters are registered
     */
    public ClickHouseTcpQueryMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof ClickHouseTcpObservationContext;
    }

    @Override
    public void onStop(ClickHouseTcpObservationContext context) {
        Tags tags = Tags.of("clickhouse.client.name", context.getClientName(), "clickhouse.operation",
                context.getOperation().value(), "db.operation.name", context.getOperationName());
        if (context.getOutcome() == Outcome.CANCELLED) {
            counter("cancellations", "Calls the caller stopped before their end", tags).increment();
        }
        if (isTimeout(context)) {
            counter("timeouts", "Calls ended by a timeout (the client's or the server's TIMEOUT_EXCEEDED)", tags)
                .increment();
        }
        if (context.getRetries() > 0) {
            counter("retries", "Statements sent again: transparent retries and further insert attempts", tags)
                .increment(context.getRetries());
        }
        if (context.getOperation() == ClickHouseTcpOperation.PING) {
            return;
        }
        Progress progress = context.getProgress();
        summary("rows.read", "rows", "Rows the server read for the call (its Progress packets)", tags)
            .record(progress.readRows());
        summary("bytes.read", "bytes", "Uncompressed bytes the server read for the call (its Progress packets)", tags)
            .record(progress.readBytes());
        summary("rows.written", "rows", "Rows the server wrote for the call", tags).record(progress.writtenRows());
        summary("bytes.written", "bytes", "Uncompressed bytes the server wrote for the call", tags)
            .record(progress.writtenBytes());
        if (context.getOperation() != ClickHouseTcpOperation.INSERT) {
            summary("rows.returned", "rows", "Rows of the result the client received", tags)
                .record(context.getReturnedRows());
        }
        ProfileInfo profileInfo = context.getProfileInfo();
        if (profileInfo != null) {
            summary("bytes.returned", "bytes", "Uncompressed bytes of the result (the server's ProfileInfo)", tags)
                .record(profileInfo.bytes());
        }
        if (progress.elapsedNanos() > 0) {
            Timer.builder(PREFIX + "server.elapsed")
                .description("Time the server spent on the call (its Progress packets)")
                .tags(tags)
                .register(this.registry)
                .record(Duration.ofNanos(progress.elapsedNanos()));
        }
        Duration firstBlock = context.getTimeToFirstBlock();
        if (firstBlock != null) {
            Timer.builder(PREFIX + "first.block")
                .description("Time from the start of the call to its first data block with rows")
                .tags(tags)
                .register(this.registry)
                .record(firstBlock);
        }
        ratio("read", context.getDecompressedBytesRead(), context.getCompressedBytesRead(), tags);
        ratio("write", context.getUncompressedBytesWritten(), context.getCompressedBytesWritten(), tags);
    }

    private void ratio(String direction, long uncompressed, long compressed, Tags tags) {
        if (compressed > 0) {
            DistributionSummary.builder(PREFIX + "compression.ratio")
                .description("Bytes before compression per byte on the wire, of the call's compressed frames")
                .tags(tags)
                .tag("direction", direction)
                .register(this.registry)
                .record((double) uncompressed / compressed);
        }
    }

    private static boolean isTimeout(ClickHouseTcpObservationContext context) {
        if (context.getTimeoutException() != null) {
            return true;
        }
        for (Throwable t = context.getError(); t != null; t = (t.getCause() == t) ? null : t.getCause()) {
            if (t instanceof ClickHouseTimeoutException) {
                return true;
            }
        }
        ClickHouseServerException server = context.getServerException();
        return server != null && server.code() == TIMEOUT_EXCEEDED;
    }

    private Counter counter(String name, String description, Tags tags) {
        return Counter.builder(PREFIX + name).description(description).tags(tags).register(this.registry);
    }

    private DistributionSummary summary(String name, String unit, String description, Tags tags) {
        return DistributionSummary.builder(PREFIX + name)
            .description(description)
            .baseUnit(unit)
            .tags(tags)
            .register(this.registry);
    }

}
