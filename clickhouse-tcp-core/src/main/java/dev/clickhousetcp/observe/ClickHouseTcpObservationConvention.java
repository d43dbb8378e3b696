package dev.clickhousetcp.observe;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The {@link ObservationConvention} of the client's observations: name, contextual (span) name and
 * key values of an {@link ClickHouseTcpObservationContext}. Implement it (usually by extending
 * {@link DefaultClickHouseTcpObservationConvention}) to change them, and hand it to
 * {@code ClickHouseTcpClient.Builder.observationConvention(...)}; in Spring Boot, declare it as a bean.
 *
 * <p>Implementations are called on the threads that run the client's operations, concurrently: they
 * must be thread-safe and should be cheap.
 */
public interface ClickHouseTcpObservationConvention extends ObservationConvention<ClickHouseTcpObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof ClickHouseTcpObservationContext;
    }
}
