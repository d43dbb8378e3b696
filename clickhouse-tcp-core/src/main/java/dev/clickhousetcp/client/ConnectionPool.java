package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseTimeoutException;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bounded pool of {@link ClickHouseConnection}s to one endpoint.
 *
 * <p>Thread-safe. Waiting uses a fair {@link ReentrantLock} and {@link Condition} (no
 * {@code synchronized}, so virtual threads do not pin); connections are opened outside the lock.
 * A connection is reused only when it is READY; a connection that saw an I/O error, a timeout, a
 * protocol error or an unfinished stream is closed on release and its slot freed. Idle connections
 * are handed out most-recently-used first and validated with Ping when idle longer than
 * {@code validateAfterIdle}.
 */
public final class ConnectionPool implements AutoCloseable {
    private final ConnectionConfig config;
    private final int maxSize;
    private final Duration acquireTimeout;
    private final Duration validateAfterIdle;
    private final ReentrantLock lock = new ReentrantLock(true);
    private final Condition available = lock.newCondition();
    private final Deque<ClickHouseConnection> idle = new ArrayDeque<>();
    private int total;
    private int pending;
    private boolean closed;
    private long created;
    private long destroyed;
    private long timeouts;
    private long acquireNanos;
    private long acquisitions;

    public ConnectionPool(ConnectionConfig config, int maxSize, Duration acquireTimeout, Duration validateAfterIdle) {
        if (maxSize < 1) {
            throw new IllegalArgumentException("pool max size must be at least 1");
        }
        this.config = config;
        this.maxSize = maxSize;
        this.acquireTimeout = acquireTimeout;
        this.validateAfterIdle = validateAfterIdle;
    }

    /**
     * Borrows a connection, opening one when below the maximum, else waiting up to the acquire timeout.
     *
     * @throws ClickHouseTimeoutException when no connection became free in time
     * @throws ClickHouseException        when opening a connection fails
     */
    public ClickHouseConnection acquire() {
        long start = System.nanoTime();
        long deadline = start + acquireTimeout.toNanos();
        while (true) {
            ClickHouseConnection c = null;
            boolean open = false;
            lock.lock();
            try {
                pending++;
                try {
                    while (true) {
                        if (closed) {
                            throw new ClickHouseException("connection pool is closed");
                        }
                        c = idle.pollFirst();
                        if (c != null) {
                            break;
                        }
                        if (total < maxSize) {
                            total++;
                            open = true;
                            break;
                        }
                        long left = deadline - System.nanoTime();
                        if (left <= 0) {
                            timeouts++;
                            throw new ClickHouseTimeoutException("no connection to " + config.host() + ":" + config.port()
                                    + " available within " + acquireTimeout + " (pool max size " + maxSize + ")");
                        }
                        available.awaitNanos(left);
                    }
                } finally {
                    pending--;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClickHouseException("interrupted while waiting for a connection", e);
            } finally {
                lock.unlock();
            }
            if (open) {
                try {
                    c = ClickHouseConnection.open(config);
                } catch (RuntimeException e) {
                    freeSlot(false);
                    throw e;
                }
                lock.lock();
                try {
                    created++;
                } finally {
                    lock.unlock();
                }
            } else if (System.nanoTime() - c.lastUsedNanos() > validateAfterIdle.toNanos()) {
                try {
                    c.ping();
                } catch (RuntimeException e) {
                    c.close();
                    freeSlot(true);
                    continue; // try another
                }
            }
            lock.lock();
            try {
                acquisitions++;
                acquireNanos += System.nanoTime() - start;
            } finally {
                lock.unlock();
            }
            return c;
        }
    }

    /** Returns a borrowed connection: kept when READY, closed otherwise. */
    public void release(ClickHouseConnection c) {
        if (c.isUsable()) {
            lock.lock();
            try {
                if (!closed) {
                    idle.addFirst(c);
                    available.signal();
                    return;
                }
            } finally {
                lock.unlock();
            }
        }
        c.close();
        freeSlot(true);
    }

    private void freeSlot(boolean wasCreated) {
        lock.lock();
        try {
            total--;
            if (wasCreated) {
                destroyed++;
            }
            available.signal();
        } finally {
            lock.unlock();
        }
    }

    public PoolStats stats() {
        lock.lock();
        try {
            return new PoolStats(total - idle.size(), idle.size(), pending, total, maxSize, created, destroyed, timeouts,
                    acquireNanos, acquisitions);
        } finally {
            lock.unlock();
        }
    }

    public ConnectionConfig config() {
        return config;
    }

    /** Closes idle connections; borrowed ones are closed when released. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            for (ClickHouseConnection c : idle) {
                c.close();
                total--;
                destroyed++;
            }
            idle.clear();
            available.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
