/**
 * The client: {@link dev.clickhousetcp.client.ClickHouseTcpClient} (thread-safe, pooled) and what it is
 * made of. Configuration ({@code ConnectionConfig}, {@code PoolConfig}, {@code TlsConfig},
 * {@code ClickHouseUrl}, {@code Endpoint}); per-call options ({@code QueryOptions},
 * {@code InsertOptions}, {@code ExternalTable}); results ({@code QueryResult}, {@code Row},
 * {@code RowMapper}, {@code QueryListener}); the calls shared by client and sessions
 * ({@code QueryOperations}) and their insert batcher ({@code InsertOperations}); sessions
 * ({@code ClickHouseSession}); the pool ({@code ConnectionPool}, its entries, leases and statistics,
 * modelled on HikariCP); one connection: its opening and handshake ({@code ConnectionOpener}), its
 * state machine ({@code ClickHouseConnection}), and each request's deadline and Cancel
 * ({@code Exchange}, {@code ConnectionGuard}, {@code Budget}); the transport
 * (a non-blocking socket channel, TLS through an {@code SSLEngine}); and the reading of a response's
 * packets ({@code ResponseReader}).
 *
 * <p>Public API, except the package-private classes. It is the top of the core's layering: it may use
 * every other package of the core ({@code protocol} for packets, {@code data} for types and
 * blocks, {@code mapping} for POCOs and records, {@code observe} for Observations, {@code io} for
 * framing); no other package uses it, except {@code observe}, whose observation context names the
 * call's {@link dev.clickhousetcp.client.Endpoint}.
 */
package dev.clickhousetcp.client;
