package dev.clickhousetcp.client;

import dev.clickhousetcp.observe.ClickHouseTcpObservationContext;
import dev.clickhousetcp.observe.ClickHouseTcpObservationConvention;
import dev.clickhousetcp.observe.ClickHouseTcpObservationDocumentation;
import dev.clickhousetcp.observe.ClickHouseTcpOperation;
import dev.clickhousetcp.observe.DefaultClickHouseTcpObservationConvention;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import java.util.List;

/**
 * The observation side of one client: starts an {@link ObservedOperation} per client call. A client
 * without an {@link ObservationRegistry} has none (its field is {@code null}), so the operations' only
 * cost is a null check. Immutable and thread-safe.
 */
final class Instrumentation {
    private final ObservationRegistry registry;
    private final ClickHouseTcpObservationConvention convention;
    private final String name;
    private final String database;
    private final Endpoint endpoint;

    private Instrumentation(ObservationRegistry registry, ClickHouseTcpObservationConvention convention, String name,
                            String database, Endpoint endpoint) {
        this.registry = registry;
        this.convention = convention;
        this.name = name;
        this.database = database;
        this.endpoint = endpoint;
    }

    /** The instrumentation of a client, or {@code null} when it has no registry (or the no-op one). */
    static Instrumentation of(ObservationRegistry registry, ClickHouseTcpObservationConvention convention, String name,
                              ConnectionConfig config, List<Endpoint> endpoints) {
        if (registry == null || registry == ObservationRegistry.NOOP) {
            return null;
        }
        return new Instrumentation(registry, convention, name, config.database(),
                endpoints.size() == 1 ? endpoints.get(0) : null);
    }

    /**
     * Starts the observation of one call, before its connection is acquired.
     *
     * @return the started operation, or {@code null} when the registry has no handler for it (or a
     *         predicate turned it off)
     */
    ObservedOperation start(ClickHouseTcpOperation operation, String sql, QueryOptions options) {
        try {
            String db = options.database() != null ? options.database() : database;
            String operationName = switch (operation) {
                case PING -> "PING";
                case INSERT -> "INSERT";
                default -> SqlText.operationName(sql);
            };
            Observation observation = ClickHouseTcpObservationDocumentation.OPERATION.observation(convention,
                    DefaultClickHouseTcpObservationConvention.INSTANCE,
                    () -> new ClickHouseTcpObservationContext(operation, operationName, sql, db, name, endpoint), registry);
            if (observation.isNoop()) {
                return null;
            }
            observation.start();
            return new ObservedOperation(observation, (ClickHouseTcpObservationContext) observation.getContextView());
        } catch (RuntimeException e) {
            ObservedOperation.failed("starting", e);
            return null; // the call runs unobserved
        }
    }
}
