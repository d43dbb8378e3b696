package dev.clickhousetcp.client;

import java.time.Duration;
import java.util.List;

/**
 * Connection pool settings. Durations of zero disable the corresponding feature where noted.
 *
 * <p>{@code maxLifetime} is each connection's upper bound, not its exact age at retirement: a
 * connection's own lifetime is {@code maxLifetime} less a random variance of up to 2.5 % of it when
 * {@code maxLifetime} is above 10 s (as HikariCP does), so connections opened together are retired
 * over a spread of up to 2.5 % instead of all at once (with the default 30 min, between 29 min 15 s
 * and 30 min). Only idle connections are closed for their age; a lent one is retired when given back.
 *
 * @param maxSize               most connections open at once (default 20)
 * @param minIdle               idle connections the pool keeps open (default 0)
 * @param acquireTimeout        longest wait for a free connection (default 30 s)
 * @param idleTimeout           idle connections above {@code minIdle} are closed after this (default 10 min; 0 = never)
 * @param maxLifetime           connections are retired at this age at the latest, less up to 2.5 % of random
 *                              variance above 10 s; when idle, or when given back (default 30 min; 0 = never)
 * @param validateAfterIdle     a connection idle longer than this is pinged before reuse (default 30 s)
 * @param leakDetectionThreshold a connection held longer than this is reported with the stack of its
 *                              borrower (default 0 = off)
 * @param endpoints             the servers (at least one)
 * @param loadBalancing         how new connections pick an endpoint
 * @param failoverBackoff       how long an endpoint that failed to connect is skipped (default 10 s)
 * @param housekeepingPeriod    how often idle eviction, lifetime retirement, min-idle refill and leak
 *                              checks run (default 5 s)
 * @param shutdownGrace         how long closing the pool waits for borrowed connections to be given back
 *                              before it ends the ones still in use and so cancels their server queries
 *                              (default 10 s, as HikariCP waits for active connections at shutdown; 0 = no wait)
 */
public record PoolConfig(int maxSize, int minIdle, Duration acquireTimeout, Duration idleTimeout, Duration maxLifetime,
                         Duration validateAfterIdle, Duration leakDetectionThreshold, List<Endpoint> endpoints,
                         LoadBalancing loadBalancing, Duration failoverBackoff, Duration housekeepingPeriod,
                         Duration shutdownGrace) {

    /** The default {@link #shutdownGrace()}: 10 s. */
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);

    /**
     * Checks the sizes and copies the endpoint list.
     *
     * @param maxSize                most connections open at once, at least 1
     * @param minIdle                idle connections the pool keeps open, 0 to {@code maxSize}
     * @param acquireTimeout         longest wait for a free connection
     * @param idleTimeout            idle connections above {@code minIdle} are closed after this (0 = never)
     * @param maxLifetime            connections are retired at this age at the latest, less up to 2.5 % of
     *                               random variance above 10 s (0 = never)
     * @param validateAfterIdle      a connection idle longer than this is pinged before reuse
     * @param leakDetectionThreshold a connection held longer than this is reported (0 = off)
     * @param endpoints              the servers, at least one; copied
     * @param loadBalancing          how new connections pick an endpoint
     * @param failoverBackoff        how long an endpoint that failed to connect is skipped
     * @param housekeepingPeriod     how often the housekeeping runs
     * @param shutdownGrace          how long closing waits for borrowed connections to be given back (0 = no wait)
     * @throws IllegalArgumentException when {@code maxSize} is below 1, {@code minIdle} is not 0 to
     *                                  {@code maxSize}, there is no endpoint, or {@code shutdownGrace} is
     *                                  {@code null} or negative
     */
    public PoolConfig {
        if (maxSize < 1) {
            throw new IllegalArgumentException("pool max size must be at least 1");
        }
        if (minIdle < 0 || minIdle > maxSize) {
            throw new IllegalArgumentException("pool min idle must be 0.." + maxSize);
        }
        if (endpoints == null || endpoints.isEmpty()) {
            throw new IllegalArgumentException("at least one endpoint is required");
        }
        if (shutdownGrace == null || shutdownGrace.isNegative()) {
            throw new IllegalArgumentException("pool shutdown grace must be zero or positive, got " + shutdownGrace);
        }
        endpoints = List.copyOf(endpoints);
    }

    /**
     * The settings with the default shutdown grace ({@link #DEFAULT_SHUTDOWN_GRACE}); the parameters are
     * those of the canonical constructor.
     *
     * @param maxSize                most connections open at once, at least 1
     * @param minIdle                idle connections the pool keeps open, 0 to {@code maxSize}
     * @param acquireTimeout         longest wait for a free connection
     * @param idleTimeout            idle connections above {@code minIdle} are closed after this (0 = never)
     * @param maxLifetime            connections are retired at this age at the latest (0 = never)
     * @param validateAfterIdle      a connection idle longer than this is pinged before reuse
     * @param leakDetectionThreshold a connection held longer than this is reported (0 = off)
     * @param endpoints              the servers, at least one; copied
     * @param loadBalancing          how new connections pick an endpoint
     * @param failoverBackoff        how long an endpoint that failed to connect is skipped
     * @param housekeepingPeriod     how often the housekeeping runs
     * @throws IllegalArgumentException as the canonical constructor
     */
    public PoolConfig(int maxSize, int minIdle, Duration acquireTimeout, Duration idleTimeout, Duration maxLifetime,
                      Duration validateAfterIdle, Duration leakDetectionThreshold, List<Endpoint> endpoints,
                      LoadBalancing loadBalancing, Duration failoverBackoff, Duration housekeepingPeriod) {
        this(maxSize, minIdle, acquireTimeout, idleTimeout, maxLifetime, validateAfterIdle, leakDetectionThreshold,
                endpoints, loadBalancing, failoverBackoff, housekeepingPeriod, DEFAULT_SHUTDOWN_GRACE);
    }
}
