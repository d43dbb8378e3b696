package dev.clickhousetcp.spring.actuate.health;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.clickhousetcp.client.ClickHouseConnection;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.Endpoint;
import dev.clickhousetcp.protocol.ServerHello;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@link HealthIndicator} for one of several endpoints of a {@link ClickHouseTcpClient}: the pool picks
 * an endpoint per connection, so to check this one the indicator opens a connection of its own to it,
 * outside the pool (with the client's credentials, TLS and timeouts), round-trips a Ping and closes it;
 * the whole check (connect, handshake and ping) ends within this indicator's timeout.
 *
 * <p>UP details: {@code endpoint}, {@code version}, {@code displayName}, {@code revision},
 * {@code timezone} and {@code pingLatencyMs}. DOWN: {@code endpoint} and {@code error} (never a
 * credential). Thread-safe.
 */
public class ClickHouseTcpEndpointHealthIndicator extends AbstractHealthIndicator {

    private final ClickHouseTcpClient client;

    private final Endpoint endpoint;

    private final Duration timeout;

    /**
     * Creates an indicator.
     * @param client the client whose connection settings to use
     * @param endpoint the server to check
     * @param timeout how long the whole check (connect, handshake and ping) may take
     */
    public ClickHouseTcpEndpointHealthIndicator(ClickHouseTcpClient client, Endpoint endpoint, Duration timeout) {
        super("ClickHouse endpoint health check failed");
        this.client = Objects.requireNonNull(client, "client");
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetail("endpoint", this.endpoint.toString());
        long deadline = System.nanoTime() + this.timeout.toNanos();
        builder.up().withDetails(this.client.withUnpooledConnection(this.endpoint, this.timeout, (connection) -> {
            long start = System.nanoTime();
            connection.ping(Duration.ofNanos(Math.max(1, deadline - start)));
            return serverDetails(connection, System.nanoTime() - start);
        }));
    }

    /** What the server's Hello says, and the ping's latency. */
    static Map<String, Object> serverDetails(ClickHouseConnection connection, long pingNanos) {
        ServerHello hello = connection.serverHello();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("version", hello.version());
        details.put("displayName", hello.displayName());
        details.put("revision", hello.revision());
        details.put("timezone", hello.timezone());
        details.put("pingLatencyMs", Math.round(pingNanos / 1_000.0) / 1_000.0);
        return details;
    }

}
