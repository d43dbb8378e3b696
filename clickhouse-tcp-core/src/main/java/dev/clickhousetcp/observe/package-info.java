/**
 * Observability of the client: the Micrometer Observation every client call makes when the client
 * has an {@code ObservationRegistry} ({@code ClickHouseTcpClient.Builder.observationRegistry}), its
 * documentation ({@link dev.clickhousetcp.observe.ClickHouseTcpObservationDocumentation}), context
 * ({@link dev.clickhousetcp.observe.ClickHouseTcpObservationContext}) and convention
 * ({@link dev.clickhousetcp.observe.DefaultClickHouseTcpObservationConvention}), and the reading of
 * propagated trace headers into the query's W3C trace context
 * ({@link dev.clickhousetcp.observe.TraceHeaders}). Without a registry nothing of this runs.
 */
package dev.clickhousetcp.observe;
