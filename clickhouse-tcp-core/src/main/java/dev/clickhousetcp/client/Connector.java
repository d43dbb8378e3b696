package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.data.BufferPool;

/**
 * How a {@link ConnectionPool} opens a connection to one of its endpoints. The pool calls it outside
 * its lock, tries the endpoints in its load-balancing order and fails over on
 * {@link ClickHouseConnectionException}, {@link ClickHouseServerException} and connect or handshake
 * timeouts; an authentication failure or the caller's own deadline ends the attempt. Tests supply
 * connections of their own this way.
 */
@FunctionalInterface
interface Connector {
    /**
     * Opens a connection to {@code endpoint}, READY for its first request.
     *
     * @param endpoint the server to connect to
     * @param budget   the caller's remaining time (the pool's acquire timeout); the connect and
     *                 handshake timeouts apply within it
     * @return the connection; the pool owns it from now on
     */
    ClickHouseConnection connect(Endpoint endpoint, Budget budget);

    /**
     * The real connector: a {@link ClickHouseConnection} with {@code config}'s settings, its host and
     * port replaced by the endpoint's. Its connections share one column buffer pool of
     * {@link ConnectionConfig#blockBufferPoolSize()} bytes: the budget of the pool (the client) as a whole.
     */
    static Connector of(ConnectionConfig config) {
        BufferPool buffers = new BufferPool(config.blockBufferPoolSize());
        return (endpoint, budget) -> ConnectionOpener.open(
                config.toBuilder().host(endpoint.host()).port(endpoint.port()).build(), budget, buffers);
    }
}
