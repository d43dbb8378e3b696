package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.clickhousetcp.client.Endpoint;
import dev.clickhousetcp.observe.ClickHouseTcpObservationContext;
import dev.clickhousetcp.observe.ClickHouseTcpObservationDocumentation;
import dev.clickhousetcp.observe.ClickHouseTcpOperation;
import dev.clickhousetcp.observe.DefaultClickHouseTcpObservationConvention;
import dev.clickhousetcp.observe.TraceHeaders;
import dev.clickhousetcp.protocol.TraceContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The hot-path cost of the client's observations: a warm {@code SELECT 1} and a block-tier read of
 * 1,000,000 rows (UInt64, String, Float64), with
 * <ul>
 *   <li>{@code off}: no {@link ObservationRegistry} (the default: a null check per call);</li>
 *   <li>{@code noop}: a registry without handlers (what an application with the Observation API but
 *       neither metrics nor tracing has: every call asks the registry and gets the no-op observation);</li>
 *   <li>{@code handler}: a registry with one handler that does nothing: the client's own share of an
 *       observed call (context, convention, key values, trace header parsing, stop), without any
 *       handler's work;</li>
 *   <li>{@code metrics}: Micrometer's {@link DefaultMeterObservationHandler} on a
 *       {@link SimpleMeterRegistry} (a timer and a long task timer per call, as Spring Boot wires it
 *       with metrics on).</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class ObservationBenchmark {
    static final int ROWS = 1_000_000;
    static final String SQL = Data.select(ROWS);

    /** {@code off}, {@code noop}, {@code handler} or {@code metrics}; see the class comment. */
    @Param({"off", "noop", "handler", "metrics"})
    public String observation;

    private ClickHouseTcpClient client;
    private MeterRegistry meters;
    private ObservationRegistry registry;
    private final Endpoint endpoint = new Endpoint("127.0.0.1", 19000);

    @Setup
    public void setUp() {
        ClickHouseTcpClient.Builder builder = BenchmarkServer.builder();
        switch (observation) {
            case "off" -> { }
            case "noop" -> {
                registry = ObservationRegistry.create();
                builder.observationRegistry(registry);
            }
            case "handler" -> {
                registry = ObservationRegistry.create();
                registry.observationConfig().observationHandler(context -> true); // does nothing
                builder.observationRegistry(registry);
            }
            case "metrics" -> {
                meters = new SimpleMeterRegistry();
                registry = ObservationRegistry.create();
                registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
                builder.observationRegistry(registry);
            }
            default -> throw new IllegalArgumentException("observation: off, noop, handler or metrics, not "
                    + observation);
        }
        client = BenchmarkServer.track(builder.build());
        BenchmarkServer.check("SELECT 1 on the block tier", 1, ConnectionCostBenchmark.selectOne(client));
        long[] n = new long[1];
        BenchmarkServer.check("block tier checksum", Data.checksum(ROWS), Data.readBlocks(client, SQL, QueryOptions.DEFAULT, n));
        BenchmarkServer.check("block tier rows", ROWS, n[0]);
        if (meters != null) {
            BenchmarkServer.check("timed calls", 2, meters.get("clickhouse.tcp.client.operation").timers().stream()
                    .mapToLong(t -> t.count()).sum());
        }
    }

    @TearDown
    public void tearDown() {
        client.close();
    }

    /** A warm {@code SELECT 1} on the block tier. */
    @Benchmark
    public long selectOne() {
        return ConnectionCostBenchmark.selectOne(client);
    }

    /**
     * One observation as the client makes it for a query (context, convention, trace header parsing, the
     * first-block event, outcome, stop), without a server: the CPU cost alone, which the server round trips
     * of the other arms hide on a loaded machine. {@code off} measures nothing (no registry).
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public Object observationOnly() {
        if (registry == null) {
            return null;
        }
        Observation o = ClickHouseTcpObservationDocumentation.OPERATION.observation(null,
                DefaultClickHouseTcpObservationConvention.INSTANCE, () -> new ClickHouseTcpObservationContext(
                        ClickHouseTcpOperation.QUERY, "SELECT", "SELECT 1", "default", "default", endpoint), registry);
        if (o.isNoop()) {
            return o;
        }
        o.start();
        ClickHouseTcpObservationContext c = (ClickHouseTcpObservationContext) o.getContextView();
        TraceContext trace = TraceHeaders.parse(c.getCarrier());
        o.event(ClickHouseTcpObservationDocumentation.Events.FIRST_BLOCK);
        c.setOutcome(ClickHouseTcpObservationContext.Outcome.SUCCESS);
        o.stop();
        return trace;
    }

    /** 1,000,000 rows read on the block tier (typed column access). */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long blockRead() {
        return Data.readBlocks(client, SQL, QueryOptions.DEFAULT, new long[1]);
    }
}
