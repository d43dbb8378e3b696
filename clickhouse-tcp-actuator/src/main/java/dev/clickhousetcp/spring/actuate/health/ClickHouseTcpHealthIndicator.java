package dev.clickhousetcp.spring.actuate.health;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.clickhousetcp.client.ClickHouseConnection;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.Endpoint;
import dev.clickhousetcp.client.PoolStats;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@link HealthIndicator} for a ClickHouse server reached through a {@link ClickHouseTcpClient}.
 *
 * <p>Borrows a pooled connection (opening one if none is idle), round-trips a native Ping on it, bounded
 * by the timeout given to the constructor, and reports, with status UP:
 * <ul>
 * <li>{@code endpoint}: the {@code host:port} that connection is connected to (with several endpoints,
 * the one the pool picked; {@code endpoints} then lists those configured) and {@code database};</li>
 * <li>{@code version} ({@code 26.7.2}), {@code displayName} and {@code revision} (the native protocol
 * revision) from the server's Hello, and {@code timezone}, the server's time zone;</li>
 * <li>{@code pingLatencyMs}: the ping's round trip in milliseconds;</li>
 * <li>{@code pool}: {@code active}, {@code idle}, {@code pending}, {@code total} and {@code max}
 * connections.</li>
 * </ul>
 * If no connection can be had, the handshake fails or the ping gets no answer in time, the status is
 * DOWN with {@code endpoint} (or, for several, {@code endpoints}: those configured), {@code database},
 * {@code pool} and an {@code error}
 * detail holding the exception's type and message (the client's messages name the endpoint but never a
 * credential).
 *
 * <p>Waiting for a connection is bounded by the client's acquire timeout, opening one by its connect and
 * handshake timeouts; the ping itself by this indicator's timeout. Thread-safe.
 */
public class ClickHouseTcpHealthIndicator extends AbstractHealthIndicator {

    /** The ping timeout when none is given. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    private final ClickHouseTcpClient client;

    private final Duration timeout;

    /**
     * Creates an indicator with a ping timeout of {@link #DEFAULT_TIMEOUT}.
     * @param client the client whose server to check
     */
    public ClickHouseTcpHealthIndicator(ClickHouseTcpClient client) {
        this(client, DEFAULT_TIMEOUT);
    }

    /**
     * Creates an indicator.
     * @param client the client whose server to check
     * @param timeout how long the ping may take
     */
    public ClickHouseTcpHealthIndicator(ClickHouseTcpClient client, Duration timeout) {
        super("ClickHouse health check failed");
        this.client = Objects.requireNonNull(client, "client");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        List<Endpoint> endpoints = this.client.poolConfig().endpoints();
        if (endpoints.size() == 1) {
            builder.withDetail("endpoint", endpoints.get(0).toString());
        }
        else {
            builder.withDetail("endpoints", endpoints.stream().map(Object::toString).toList());
        }
        builder.withDetail("database", this.client.config().database());
        try {
            Map<String, Object> details = this.client.withConnection(this::ping);
            builder.up().withDetails(details);
        }
        finally {
            builder.withDetail("pool", pool(this.client.poolStats()));
        }
    }

    private Map<String, Object> ping(ClickHouseConnection connection) {
        long start = System.nanoTime();
        connection.ping(this.timeout);
        Map<String, Object> details = ClickHouseTcpEndpointHealthIndicator.serverDetails(connection,
                System.nanoTime() - start);
        details.put("endpoint", connection.endpoint().toString());
        return details;
    }

    static Map<String, Object> pool(PoolStats stats) {
        Map<String, Object> pool = new LinkedHashMap<>();
        pool.put("active", stats.active());
        pool.put("idle", stats.idle());
        pool.put("pending", stats.pending());
        pool.put("total", stats.total());
        pool.put("max", stats.maxSize());
        return pool;
    }

}
