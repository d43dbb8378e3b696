/**
 * The native protocol's packets, per ClickHouse {@code src/Core/Protocol.h} and
 * {@code ProtocolDefines.h}: the Hello handshake ({@code Handshake}, {@link
 * dev.clickhousetcp.protocol.ServerHello}), the revision and the features it gates ({@code
 * ProtocolRevision}, {@code ProtocolFeature}), client packets (Query with its {@code ClientInfo} and
 * settings, Data, Cancel, Ping) and server packets (Data, Exception, Progress, ProfileInfo, Totals,
 * Extremes, Log, ProfileEvents, TableColumns, EndOfStream), and the Native block codec ({@code
 * BlockCodec}, including sparse, replicated and detached columns).
 *
 * <p>Public API only for the value types the client returns or accepts ({@link
 * dev.clickhousetcp.protocol.Progress}, {@link dev.clickhousetcp.protocol.ProfileInfo}, {@link
 * dev.clickhousetcp.protocol.QueryStage}, {@link dev.clickhousetcp.protocol.TraceContext}, {@link
 * dev.clickhousetcp.protocol.ServerHello}); the rest is internal. Uses {@code io} for bytes and
 * {@code data} for types and blocks; not {@code client}.
 */
package dev.clickhousetcp.protocol;
