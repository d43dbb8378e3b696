package dev.clickhousetcp.client;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.propagation.B3Propagation;
import brave.propagation.Propagation;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.sampler.Sampler;
import brave.test.TestSpanHandler;
import dev.clickhousetcp.observe.ClickHouseTcpObservationContext;
import dev.clickhousetcp.observe.TraceHeaders;
import dev.clickhousetcp.protocol.TraceContext;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.micrometer.tracing.propagation.Propagator;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * W3C trace context reaches the server without the caller building it: Micrometer Tracing's
 * propagating sender handler writes the client span's context into the observation's carrier through
 * the configured propagator, the client sends it in ClientInfo, and the 26.7 server's
 * {@code system.opentelemetry_span_log} shows the server's spans in the application's trace with the
 * client span as the parent of the server's root span. Both bridges: OpenTelemetry (W3C) and Brave
 * (W3C with 128-bit ids, B3 with 64-bit ids, padded).
 */
@ClickHouseTest
@SuppressWarnings("try") // scopes are only opened and closed
class TracePropagationTest {

    /** One server span of {@code system.opentelemetry_span_log}. */
    record ServerSpan(String traceId, String spanId, String parentSpanId, String operation) {
    }

    /** The server's spans of the trace (32 hex digits), after flushing the logs. */
    static List<ServerSpan> serverSpans(ClickHouseServer server, String traceIdHex) {
        server.httpQuery("SYSTEM FLUSH LOGS");
        String uuid = traceIdHex.substring(0, 8) + "-" + traceIdHex.substring(8, 12) + "-" + traceIdHex.substring(12, 16)
                + "-" + traceIdHex.substring(16, 20) + "-" + traceIdHex.substring(20);
        String tsv = server.httpQuery("SELECT toString(trace_id), span_id, parent_span_id, operation_name "
                + "FROM system.opentelemetry_span_log WHERE trace_id = toUUID('" + uuid + "') FORMAT TSV");
        List<ServerSpan> spans = new ArrayList<>();
        for (String line : tsv.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t");
            spans.add(new ServerSpan(f[0].replace("-", ""), hex(Long.parseUnsignedLong(f[1])),
                    hex(Long.parseUnsignedLong(f[2])), f[3]));
        }
        return spans;
    }

    static String hex(long id) {
        return String.format(Locale.ROOT, "%016x", id);
    }

    /** The parents that are not spans of the server: the server's root span's parent(s). */
    static Set<String> outsideParents(List<ServerSpan> spans) {
        Set<String> ids = new HashSet<>();
        spans.forEach(s -> ids.add(s.spanId()));
        Set<String> parents = new HashSet<>();
        spans.stream().map(ServerSpan::parentSpanId).filter(p -> !ids.contains(p)).forEach(parents::add);
        return parents;
    }

    /** A registry with the handlers Spring Boot registers for tracing (sender propagation first). */
    static ObservationRegistry tracingRegistry(Tracer tracer, Propagator propagator,
                                               AtomicReference<ClickHouseTcpObservationContext> seen) {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
        onStop(registry, seen::set);
        return registry;
    }

    /** Registers a handler that gives each stopped observation of the client to {@code stopped}. */
    static void onStop(ObservationRegistry registry, Consumer<ClickHouseTcpObservationContext> stopped) {
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onStop(Observation.Context context) {
                stopped.accept((ClickHouseTcpObservationContext) context);
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return context instanceof ClickHouseTcpObservationContext;
            }
        });
    }

    /** The OpenTelemetry SDK with an in-memory exporter, bridged to Micrometer Tracing with W3C propagation. */
    private record Otel(SdkTracerProvider provider, InMemorySpanExporter exporter, OtelTracer tracer,
                        OtelPropagator propagator) implements AutoCloseable {
        static Otel create() {
            return create(io.opentelemetry.sdk.trace.samplers.Sampler.parentBased(
                    io.opentelemetry.sdk.trace.samplers.Sampler.alwaysOn()));
        }

        static Otel create(io.opentelemetry.sdk.trace.samplers.Sampler sampler) {
            InMemorySpanExporter exporter = InMemorySpanExporter.create();
            SdkTracerProvider provider = SdkTracerProvider.builder().setSampler(sampler)
                    .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
            io.opentelemetry.api.trace.Tracer otel = provider.get("clickhouse-tcp-test");
            return new Otel(provider, exporter, new OtelTracer(otel, new OtelCurrentTraceContext(), event -> { }),
                    new OtelPropagator(ContextPropagators.create(W3CTraceContextPropagator.getInstance()), otel));
        }

        @Override
        public void close() {
            provider.close();
        }
    }

    @Test
    void openTelemetryBridge() {
        ClickHouseServer server = ClickHouseServers.modern();
        try (Otel o = Otel.create()) {
            InMemorySpanExporter exporter = o.exporter();
            OtelTracer tracer = o.tracer();
            OtelPropagator propagator = o.propagator();
            AtomicReference<ClickHouseTcpObservationContext> seen = new AtomicReference<>();
            String queryId = "otel-" + UUID.randomUUID();
            // the application's trace arrives from upstream with a tracestate
            String upstreamTrace = UUID.randomUUID().toString().replace("-", "");
            SpanContext upstream = SpanContext.createFromRemoteParent(upstreamTrace, "00f067aa0ba902b7",
                    TraceFlags.getSampled(), TraceState.builder().put("vendor", "x").build());
            String appTrace;
            String appSpan;
            try (ClickHouseTcpClient client = TestClients.builder(server).name("otel")
                    .observationRegistry(tracingRegistry(tracer, propagator, seen)).build();
                 Scope remote = Context.root().with(io.opentelemetry.api.trace.Span.wrap(upstream)).makeCurrent()) {
                Span app = tracer.nextSpan().name("app request").start();
                try (Tracer.SpanInScope ws = tracer.withSpan(app)) {
                    assertThat(client.queryRows("SELECT count() FROM numbers(1000)",
                            QueryOptions.builder().queryId(queryId).build())).hasSize(1);
                } finally {
                    app.end();
                }
                appTrace = app.context().traceId();
                appSpan = app.context().spanId();
            }
            assertThat(appTrace).isEqualTo(upstreamTrace);
            SpanData clientSpan = exporter.getFinishedSpanItems().stream()
                    .filter(s -> s.getKind() == SpanKind.CLIENT).findFirst().orElseThrow();
            assertThat(clientSpan.getName()).isEqualTo("SELECT default");
            assertThat(clientSpan.getTraceId()).isEqualTo(appTrace);
            assertThat(clientSpan.getParentSpanId()).isEqualTo(appSpan);
            assertThat(clientSpan.getAttributes().asMap().toString()).contains("db.system.name=clickhouse")
                    .contains("clickhouse.query_id=" + queryId);
            // the carrier: W3C headers of the client span, with the upstream tracestate
            assertThat(seen.get().getCarrier()).containsEntry("traceparent",
                    "00-" + appTrace + "-" + clientSpan.getSpanId() + "-01").containsEntry("tracestate", "vendor=x");
            TraceContext sent = dev.clickhousetcp.observe.TraceHeaders.parse(seen.get().getCarrier());
            assertThat(sent.traceState()).isEqualTo("vendor=x");

            List<ServerSpan> spans = serverSpans(server, appTrace);
            assertThat(spans).as("server spans of trace %s", appTrace).isNotEmpty()
                    .anySatisfy(s -> assertThat(s.operation()).isEqualTo("query"));
            assertThat(outsideParents(spans)).containsExactly(clientSpan.getSpanId());
        }
    }

    /**
     * The server's spans of one query (by its query_id), after flushing the logs, once its query_log row
     * shows the query finished (so the span log was flushed past it).
     */
    static long serverSpansOfQuery(ClickHouseServer server, String queryId) {
        server.httpQuery("SYSTEM FLUSH LOGS");
        assertThat(server.httpQuery("SELECT count() FROM system.query_log WHERE query_id = '" + queryId
                + "' AND type = 'QueryFinish'").trim()).as("query_log rows of %s", queryId).isEqualTo("1");
        return Long.parseLong(server.httpQuery("SELECT count() FROM system.opentelemetry_span_log "
                + "WHERE attribute['clickhouse.query_id'] = '" + queryId + "'").trim());
    }

    /** Runs one query in a new application span of {@code tracer}; the span's trace id. */
    static String inAppSpan(Tracer tracer, ClickHouseTcpClient client, String queryId) {
        Span app = tracer.nextSpan().name("app request").start();
        try (Tracer.SpanInScope ws = tracer.withSpan(app)) {
            assertThat(client.queryRows("SELECT count() FROM numbers(10)", QueryOptions.builder().queryId(queryId)
                    .build())).hasSize(1);
        } finally {
            app.end();
        }
        return app.context().traceId();
    }

    /**
     * A span the tracer does not sample (OpenTelemetry SDK, sampler always off) sends no trace context:
     * the propagator writes a {@code traceparent} ending in {@code -00}, the server records no span of that
     * trace nor of the query. A sampled span of the same kind beside it is recorded.
     */
    @Test
    void anUnsampledOpenTelemetrySpanSendsNoTraceContext() {
        ClickHouseServer server = ClickHouseServers.modern();
        try (Otel off = Otel.create(io.opentelemetry.sdk.trace.samplers.Sampler.alwaysOff());
             Otel on = Otel.create(io.opentelemetry.sdk.trace.samplers.Sampler.alwaysOn())) {
            AtomicReference<ClickHouseTcpObservationContext> seen = new AtomicReference<>();
            String unsampledQuery = "unsampled-" + UUID.randomUUID();
            String sampledQuery = "sampled-" + UUID.randomUUID();
            String unsampledTrace;
            String sampledTrace;
            try (ClickHouseTcpClient client = TestClients.builder(server)
                    .observationRegistry(tracingRegistry(off.tracer(), off.propagator(), seen)).build()) {
                unsampledTrace = inAppSpan(off.tracer(), client, unsampledQuery);
            }
            assertThat(seen.get().getCarrier().get("traceparent")).startsWith("00-" + unsampledTrace + "-").endsWith("-00");
            try (ClickHouseTcpClient client = TestClients.builder(server)
                    .observationRegistry(tracingRegistry(on.tracer(), on.propagator(), seen)).build()) {
                sampledTrace = inAppSpan(on.tracer(), client, sampledQuery);
            }
            assertThat(seen.get().getCarrier().get("traceparent")).endsWith("-01");
            assertThat(serverSpansOfQuery(server, sampledQuery)).isPositive();
            assertThat(serverSpans(server, sampledTrace)).isNotEmpty();
            assertThat(serverSpansOfQuery(server, unsampledQuery)).isZero();
            assertThat(serverSpans(server, unsampledTrace)).isEmpty();
        }
    }

    /** The same with Brave's bridge, a sampler that keeps nothing, W3C and B3 propagation. */
    @Test
    void anUnsampledBraveSpanSendsNoTraceContext() {
        ClickHouseServer server = ClickHouseServers.modern();
        for (Propagation.Factory propagation : List.of(new W3CPropagation(new BraveBaggageManager(), List.of()),
                B3Propagation.FACTORY)) {
            Map<Boolean, String> queries = new java.util.HashMap<>();
            Map<Boolean, String> traces = new java.util.HashMap<>();
            for (boolean sampled : List.of(false, true)) {
                try (Tracing tracing = Tracing.newBuilder().localServiceName("app")
                        .currentTraceContext(ThreadLocalCurrentTraceContext.newBuilder().build())
                        .propagationFactory(propagation).traceId128Bit(true)
                        .sampler(sampled ? Sampler.ALWAYS_SAMPLE : Sampler.NEVER_SAMPLE).build()) {
                    BraveTracer tracer = new BraveTracer(tracing.tracer(),
                            new BraveCurrentTraceContext(tracing.currentTraceContext()), new BraveBaggageManager());
                    AtomicReference<ClickHouseTcpObservationContext> seen = new AtomicReference<>();
                    String queryId = "brave-" + sampled + "-" + UUID.randomUUID();
                    try (ClickHouseTcpClient client = TestClients.builder(server)
                            .observationRegistry(tracingRegistry(tracer, new BravePropagator(tracing), seen)).build()) {
                        traces.put(sampled, inAppSpan(tracer, client, queryId));
                    }
                    queries.put(sampled, queryId);
                    assertThat(seen.get().getCarrier()).as("carrier").isNotEmpty();
                    assertThat(TraceHeaders.parse(seen.get().getCarrier()).sampled()).isEqualTo(sampled);
                }
            }
            assertThat(serverSpansOfQuery(server, queries.get(true))).isPositive();
            assertThat(serverSpans(server, traces.get(true))).isNotEmpty();
            assertThat(serverSpansOfQuery(server, queries.get(false))).as("%s", propagation).isZero();
            assertThat(serverSpans(server, traces.get(false))).isEmpty();
        }
    }

    /**
     * A trace context given in {@link QueryOptions} whose sampled flag is clear is not sent either; with the
     * flag set it is.
     */
    @Test
    void anExplicitUnsampledTraceContextIsNotSent() {
        ClickHouseServer server = ClickHouseServers.modern();
        String unsampledTrace = UUID.randomUUID().toString().replace("-", "");
        String sampledTrace = UUID.randomUUID().toString().replace("-", "");
        String unsampledQuery = "explicit-unsampled-" + UUID.randomUUID();
        String sampledQuery = "explicit-sampled-" + UUID.randomUUID();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.queryRows("SELECT 1", QueryOptions.builder().queryId(unsampledQuery)
                    .traceContext(TraceContext.fromTraceparent("00-" + unsampledTrace + "-b7ad6b7169203331-00", ""))
                    .build());
            client.queryRows("SELECT 1", QueryOptions.builder().queryId(sampledQuery)
                    .traceContext(TraceContext.fromTraceparent("00-" + sampledTrace + "-b7ad6b7169203331-01", ""))
                    .build());
        }
        assertThat(serverSpansOfQuery(server, sampledQuery)).isPositive();
        assertThat(serverSpansOfQuery(server, unsampledQuery)).isZero();
        assertThat(serverSpans(server, unsampledTrace)).isEmpty();
    }

    /** An insert's INSERT statement carries its client span's context as a query does. */
    @Test
    void anInsertJoinsTheTrace() {
        ClickHouseServer server = ClickHouseServers.modern();
        String table = TestClients.table("traced_insert");
        server.httpQuery("CREATE TABLE " + table + " (id UInt64) ENGINE = Memory");
        try (Otel o = Otel.create()) {
            String appTrace;
            try (ClickHouseTcpClient client = TestClients.builder(server)
                    .observationRegistry(tracingRegistry(o.tracer(), o.propagator(), new AtomicReference<>())).build()) {
                Span app = o.tracer().nextSpan().name("app request").start();
                try (Tracer.SpanInScope ws = o.tracer().withSpan(app)) {
                    assertThat(client.insert(table, List.of("id"), List.<Object[]>of(new Object[] {1L}, new Object[] {2L})))
                            .isEqualTo(2);
                } finally {
                    app.end();
                }
                appTrace = app.context().traceId();
            }
            SpanData clientSpan = o.exporter().getFinishedSpanItems().stream()
                    .filter(s -> s.getKind() == SpanKind.CLIENT).findFirst().orElseThrow();
            assertThat(clientSpan.getName()).isEqualTo("INSERT default");
            assertThat(clientSpan.getTraceId()).isEqualTo(appTrace);
            List<ServerSpan> spans = serverSpans(server, appTrace);
            assertThat(spans).as("server spans of trace %s", appTrace).isNotEmpty();
            assertThat(outsideParents(spans)).containsExactly(clientSpan.getSpanId());
        } finally {
            server.httpQuery("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void braveBridgeWithW3cAnd128BitIds() {
        brave(new W3CPropagation(new BraveBaggageManager(), List.of()), true);
    }

    @Test
    void braveBridgeWithB3And64BitIdsPadded() {
        brave(B3Propagation.FACTORY, false);
    }

    void brave(Propagation.Factory propagation, boolean traceId128Bit) {
        ClickHouseServer server = ClickHouseServers.modern();
        TestSpanHandler spans = new TestSpanHandler();
        try (Tracing tracing = Tracing.newBuilder().localServiceName("app")
                .currentTraceContext(ThreadLocalCurrentTraceContext.newBuilder().build())
                .propagationFactory(propagation).traceId128Bit(traceId128Bit).sampler(Sampler.ALWAYS_SAMPLE)
                .addSpanHandler(spans).build()) {
            BraveTracer tracer = new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()),
                    new BraveBaggageManager());
            AtomicReference<ClickHouseTcpObservationContext> seen = new AtomicReference<>();
            String appTrace;
            try (ClickHouseTcpClient client = TestClients.builder(server).name("brave")
                    .observationRegistry(tracingRegistry(tracer, new BravePropagator(tracing), seen)).build()) {
                Span app = tracer.nextSpan().name("app request").start();
                try (Tracer.SpanInScope ws = tracer.withSpan(app)) {
                    client.execute("SELECT sum(number) FROM numbers(1000)");
                } finally {
                    app.end();
                }
                appTrace = app.context().traceId();
            }
            assertThat(appTrace).hasSize(traceId128Bit ? 32 : 16);
            MutableSpan clientSpan = spans.spans().stream().filter(s -> s.kind() == brave.Span.Kind.CLIENT)
                    .findFirst().orElseThrow();
            assertThat(clientSpan.name()).isEqualTo("SELECT default");
            assertThat(clientSpan.remoteServiceName()).isEqualTo("clickhouse");
            assertThat(seen.get().getCarrier()).containsKey(traceId128Bit ? "traceparent" : "X-B3-TraceId");
            String padded = appTrace.length() == 16 ? "0000000000000000" + appTrace : appTrace;
            List<ServerSpan> server128 = serverSpans(server, padded);
            assertThat(server128).as("server spans of trace %s", padded).isNotEmpty();
            assertThat(outsideParents(server128)).containsExactly(clientSpan.id());
        }
    }

    @Test
    void anExplicitTraceContextWins() {
        ClickHouseServer server = ClickHouseServers.modern();
        try (Otel o = Otel.create()) {
            InMemorySpanExporter exporter = o.exporter();
            OtelTracer tracer = o.tracer();
            OtelPropagator propagator = o.propagator();
            String explicitTrace = UUID.randomUUID().toString().replace("-", "");
            TraceContext explicit = TraceContext.fromTraceparent("00-" + explicitTrace + "-b7ad6b7169203331-01", "");
            String appTrace;
            try (ClickHouseTcpClient client = TestClients.builder(server)
                    .observationRegistry(tracingRegistry(tracer, propagator, new AtomicReference<>())).build()) {
                Span app = tracer.nextSpan().name("app request").start();
                try (Tracer.SpanInScope ws = tracer.withSpan(app)) {
                    client.queryRows("SELECT 1", QueryOptions.builder().traceContext(explicit).build());
                } finally {
                    app.end();
                }
                appTrace = app.context().traceId();
            }
            List<ServerSpan> spans = serverSpans(server, explicitTrace);
            assertThat(spans).isNotEmpty();
            assertThat(outsideParents(spans)).containsExactly("b7ad6b7169203331");
            assertThat(serverSpans(server, appTrace)).isEmpty();
        }
    }
}
