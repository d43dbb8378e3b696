package dev.clickhousetcp.spring.actuate.health;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.clickhousetcp.ClickHouseException;
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
 * <p>Round-trips a native Ping on a connection had without waiting for another borrower: an idle pooled
 * connection, else a new pooled one when the pool has room, else (every pooled connection is in use) a
 * connection of its own outside the pool, closed after the ping. A busy pool is therefore not reported as
 * an outage, and the check never queues behind the application's queries. The whole check (opening a
 * connection, the handshake and the ping) ends within the timeout given to the constructor, whatever the
 * client's connect, handshake and acquire timeouts are. If the ping on a pooled connection fails with time
 * left (for example on an idle one the server had closed), the check is made once more on a connection of
 * its own.
 *
 * <p>UP details:
 * <ul>
 * <li>{@code endpoint}: the {@code host:port} that connection is connected to (with several endpoints,
 * the one the pool picked; {@code endpoints} then lists those configured) and {@code database};</li>
 * <li>{@code version} ({@code 26.7.2}), {@code displayName} and {@code revision} (the native protocol
 * revision) from the server's Hello, and {@code timezone}, the server's time zone;</li>
 * <li>{@code pingLatencyMs}: the ping's round trip in milliseconds;</li>
 * <li>{@code pool}: {@code active}, {@code idle}, {@code pending}, {@code total} and {@code max}
 * connections, and {@code saturated}: {@code true} when no pooled connection was free and the check used a
 * connection of its own.</li>
 * </ul>
 * If the server cannot be reached, the handshake fails or nothing answers in time, the status is DOWN with
 * {@code endpoint} (or, for several, {@code endpoints}: those configured), {@code database}, {@code pool}
 * and an {@code error} detail holding the exception's type and message (the client's messages name the
 * endpoint and the timeout that expired but never a credential). Thread-safe.
 */
public class ClickHouseTcpHealthIndicator extends AbstractHealthIndicator {

    /** The timeout of the whole check when none is given. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);

    private final ClickHouseTcpClient client;

    private final Duration timeout;

    /**
     * Creates an indicator whose checks end within {@link #DEFAULT_TIMEOUT}.
     * @param client the client whose server to check
     */
    public ClickHouseTcpHealthIndicator(ClickHouseTcpClient client) {
        this(client, DEFAULT_TIMEOUT);
    }

    /**
     * Creates an indicator.
     * @param client the client whose server to check
     * @param timeout how long the whole check may take: opening a connection when no pooled one is idle, and
     *                the ping; positive
     */
    public ClickHouseTcpHealthIndicator(ClickHouseTcpClient client, Duration timeout) {
        super("ClickHouse health check failed");
        this.client = Objects.requireNonNull(client, "client");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        long deadline = System.nanoTime() + this.timeout.toNanos();
        List<Endpoint> endpoints = this.client.poolConfig().endpoints();
        if (endpoints.size() == 1) {
            builder.withDetail("endpoint", endpoints.get(0).toString());
        }
        else {
            builder.withDetail("endpoints", endpoints.stream().map(Object::toString).toList());
        }
        builder.withDetail("database", this.client.config().database());
        boolean saturated = false;
        try {
            boolean[] pinged = new boolean[1];
            Optional<Map<String, Object>> pooled;
            try {
                pooled = this.client.tryWithConnection(this.timeout, (connection) -> {
                    pinged[0] = true;
                    return ping(connection, deadline);
                });
                saturated = pooled.isEmpty();
            }
            catch (ClickHouseException ex) {
                if (!pinged[0] || remaining(deadline).isZero()) {
                    throw ex; // opening failed (a new one would too), or the time is up
                }
                pooled = Optional.empty(); // the pooled connection failed: check the server itself once more
            }
            Map<String, Object> details = pooled.orElseGet(() -> this.client.withUnpooledConnection(remaining(deadline),
                    (connection) -> ping(connection, deadline)));
            builder.up().withDetails(details);
        }
        finally {
            Map<String, Object> pool = pool(this.client.poolStats());
            pool.put("saturated", saturated);
            builder.withDetail("pool", pool);
        }
    }

    /** The Ping within what is left until {@code deadline}, and what the server said. */
    private static Map<String, Object> ping(ClickHouseConnection connection, long deadline) {
        long start = System.nanoTime();
        connection.ping(remaining(deadline));
        Map<String, Object> details = ClickHouseTcpEndpointHealthIndicator.serverDetails(connection,
                System.nanoTime() - start);
        details.put("endpoint", connection.endpoint().toString());
        return details;
    }

    /** What is left until {@code deadline} ({@code System.nanoTime()}), at least a nanosecond while not passed. */
    private static Duration remaining(long deadline) {
        long left = deadline - System.nanoTime();
        return (left > 0) ? Duration.ofNanos(left) : Duration.ZERO;
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
