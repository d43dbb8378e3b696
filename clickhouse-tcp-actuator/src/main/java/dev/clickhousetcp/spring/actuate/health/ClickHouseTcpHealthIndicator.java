package dev.clickhousetcp.spring.actuate.health;

import java.util.Objects;

import dev.clickhousetcp.client.ClickHouseConnection;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.ConnectionConfig;
import dev.clickhousetcp.protocol.ServerHello;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@link HealthIndicator} for a ClickHouse server reached through a {@link ClickHouseTcpClient}.
 *
 * <p>Borrows a pooled connection (opening one if none is idle), round-trips a native Ping on it and
 * reports, with status UP:
 * <ul>
 * <li>{@code endpoint} — {@code host:port} and {@code database} as configured;</li>
 * <li>{@code version} ({@code 26.7.2}), {@code displayName} (the server's display name) and
 * {@code revision} (its native protocol revision) from the server's Hello;</li>
 * <li>{@code timezone} — the server's time zone.</li>
 * </ul>
 * If the server cannot be reached, the handshake fails or the ping gets no answer, the status is DOWN
 * with {@code endpoint}, {@code database} and an {@code error} detail holding the exception's type
 * and message (the client's messages name the endpoint but never a credential).
 *
 * <p>The check blocks for as long as the client's timeouts allow: the pool's acquire timeout when all
 * connections are busy, the connect and handshake timeouts for a new connection, the socket timeout
 * for the ping. Thread-safe.
 */
public class ClickHouseTcpHealthIndicator extends AbstractHealthIndicator {

    private final ClickHouseTcpClient client;

    /**
     * Creates an indicator for the given client.
     * @param client the client whose server to check
     */
    public ClickHouseTcpHealthIndicator(ClickHouseTcpClient client) {
        super("ClickHouse health check failed");
        this.client = Objects.requireNonNull(client, "client");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        ConnectionConfig config = this.client.config();
        builder.withDetail("endpoint", config.host() + ":" + config.port())
            .withDetail("database", config.database());
        ServerHello hello = this.client.withConnection(ClickHouseTcpHealthIndicator::ping);
        builder.up()
            .withDetail("version", hello.version())
            .withDetail("displayName", hello.displayName())
            .withDetail("revision", hello.revision())
            .withDetail("timezone", hello.timezone());
    }

    private static ServerHello ping(ClickHouseConnection connection) {
        connection.ping();
        return connection.serverHello();
    }
}
