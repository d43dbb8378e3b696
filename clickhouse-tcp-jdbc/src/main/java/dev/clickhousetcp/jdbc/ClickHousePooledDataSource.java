package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.client.ClickHouseTcpClient;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link javax.sql.DataSource} over one native client and its connection pool ({@code maxPoolSize}
 * connections, multi-host failover and load balancing of the client). Each {@link #getConnection()} opens a
 * session on a pool connection; closing the JDBC connection gives that native connection back for reuse when its
 * server session stayed as the configuration gives it, and closes it (freeing its pool slot) when a statement or
 * call changed that session or may have ({@code SET}, {@code USE}, a temporary table, a statement of unknown
 * effect, an abort, a broken connection), so a session's server state never reaches the next user.
 * {@link #close()} closes the client. Thread-safe once configured; the client is built at the first
 * {@link #getConnection()}. {@code getConnection(user, password)} with another user than configured is refused.
 */
public class ClickHousePooledDataSource extends ClickHouseDataSource implements AutoCloseable {
    private final ReentrantLock lock = new ReentrantLock();
    private volatile ClickHouseTcpClient client;
    private volatile JdbcConfig config;
    private volatile boolean closed;

    /** An unconfigured data source; set at least the URL. */
    public ClickHousePooledDataSource() {
    }

    /**
     * A data source for a URL.
     *
     * @param url a {@code jdbc:clickhouse:tcp://} URL
     */
    public ClickHousePooledDataSource(String url) {
        super(url);
    }

    private ClickHouseTcpClient client() throws SQLException {
        ClickHouseTcpClient c = client;
        if (c != null && !closed) {
            return c;
        }
        lock.lock();
        try {
            if (closed) {
                throw new SQLException("the data source is closed", "08003");
            }
            if (client == null) {
                JdbcConfig cfg = config(null, null);
                config = cfg;
                client = cfg.clientBuilder(cfg.positiveInt(DriverProperty.MAX_POOL_SIZE)).build();
            }
            return client;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Connection getConnection() throws SQLException {
        ClickHouseTcpClient c = client();
        return new ClickHouseJdbcConnection(config, c, false);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        if (username == null && password == null) {
            return getConnection();
        }
        throw SqlStates.notSupported("getConnection(user, password) on a pooled data source (its pool logs in as "
                + "the configured user)");
    }

    /**
     * The native client behind the pool.
     *
     * @return the client, built on first use
     * @throws SQLException when the configuration is invalid; 08003 after {@link #close()}
     */
    public ClickHouseTcpClient getClient() throws SQLException {
        return client();
    }

    /**
     * Closes the client and its pool: waits up to the client's shutdown grace for connections in use to be
     * closed, then ends those still in use. Afterwards {@link #getConnection()} throws. Idempotent.
     */
    @Override
    public void close() {
        ClickHouseTcpClient c;
        lock.lock();
        try {
            closed = true;
            c = client;
            client = null;
        } finally {
            lock.unlock();
        }
        if (c != null) {
            c.close(); // outside the lock: it may wait the shutdown grace
        }
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        if (iface == ClickHouseTcpClient.class) {
            return iface.cast(client());
        }
        throw new SQLException("not a wrapper for " + iface.getName(), "HY000");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this) || iface == ClickHouseTcpClient.class;
    }
}
