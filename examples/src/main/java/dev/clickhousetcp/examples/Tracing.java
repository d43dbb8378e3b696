package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.observe.ClickHouseTcpObservationContext;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Observations and tracing: give the client a Micrometer {@link ObservationRegistry} and every call
 * (query, execute, insert, ping) becomes one observation named {@code clickhouse.tcp.client.operation},
 * with OpenTelemetry's database keys ({@code db.operation.name}, {@code db.namespace},
 * {@code server.address}, ...). Here a tiny handler prints each one when it stops; in an application the
 * handlers are Micrometer Tracing's (spans, whose trace context also reaches ClickHouse) and metrics'.
 */
public final class Tracing {

    private Tracing() {
    }

    public record Observed(String name, String queryId, long returnedRows, long readRows, String keys) {
    }

    public static void main(String[] args) {
        run(System.getProperty("clickhouse.host", "127.0.0.1"), Integer.getInteger("clickhouse.port", 19000),
                "traced-example-query").forEach(System.out::println);
    }

    public static List<Observed> run(String host, int port, String queryId) {
        List<Observed> observed = new ArrayList<>();
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<ClickHouseTcpObservationContext>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return context instanceof ClickHouseTcpObservationContext;
            }

            @Override
            public void onStop(ClickHouseTcpObservationContext context) {
                String keys = context.getLowCardinalityKeyValues().stream()
                        .map(kv -> kv.getKey() + "=" + kv.getValue()).collect(Collectors.joining(", "));
                observed.add(new Observed(context.getContextualName(), context.getQueryId(),
                        context.getReturnedRows(), context.getProgress().readRows(), keys));
            }
        });
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host(host).port(port)
                .name("example")                           // the clickhouse.client.name key
                .observationRegistry(registry)
                .build()) {
            client.ping();
            client.query("SELECT number FROM numbers(1000) WHERE number % 7 = 0",
                    QueryOptions.builder().queryId(queryId).build(), Long.class);
        }
        return observed;
    }
}
