package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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

    /** {@code off}, {@code noop} or {@code metrics}; see the class comment. */
    @Param({"off", "noop", "metrics"})
    public String observation;

    private ClickHouseTcpClient client;
    private MeterRegistry meters;

    @Setup
    public void setUp() {
        ClickHouseTcpClient.Builder builder = BenchmarkServer.builder();
        switch (observation) {
            case "off" -> { }
            case "noop" -> builder.observationRegistry(ObservationRegistry.create());
            case "metrics" -> {
                meters = new SimpleMeterRegistry();
                ObservationRegistry registry = ObservationRegistry.create();
                registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
                builder.observationRegistry(registry);
            }
            default -> throw new IllegalArgumentException("observation: off, noop or metrics, not " + observation);
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

    /** 1,000,000 rows read on the block tier (typed column access). */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long blockRead() {
        return Data.readBlocks(client, SQL, QueryOptions.DEFAULT, new long[1]);
    }
}
