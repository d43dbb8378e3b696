package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.ConnectionConfig;
import dev.clickhousetcp.client.Endpoint;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * A {@link javax.sql.DataSource} over a native client that exists already, and so over that client's connection pool: the
 * JDBC connections and the client's own calls (a {@code ClickHouseTcpTemplate}, for example) share one pool and
 * one limit ({@code maxPoolSize} of the client). Each {@link #getConnection()} opens a session on a pool
 * connection, waiting as long as the client's acquire timeout for one; closing the JDBC connection gives that
 * native connection back to the pool for the next borrower when its server session stayed as the configuration
 * gives it, and closes it (freeing its slot) when a statement or call changed that session or may have
 * ({@code SET}, {@code USE}, {@code setSchema}, a temporary table, a statement of unknown effect, an abort, a broken
 * connection): a session's server state never reaches the next borrower. The client's pool statistics count a
 * JDBC connection as in use while it is open.
 *
 * <p>Servers, user, password, database, TLS, compression and ClickHouse settings are the client's; the driver's
 * own options ({@code transactionMode}, {@code databaseTerm}, {@code parameterMode}, {@code multiStatement},
 * {@code queryTimeout}, {@code busyBufferBytes}, {@code insertBlockRows}: the names {@link
 * ClickHouseDriver#getPropertyInfo} lists) are set with {@link #setProperty} before the first connection.
 * The login timeout is recorded only: the client's connect and acquire timeouts bound {@link #getConnection()}.
 * This data source never closes the client: its owner does. Thread-safe once configured.
 */
public class ClickHouseClientDataSource extends DataSourceSupport {
    /** Driver properties that describe the connection itself, which the client already fixes. */
    private static final java.util.Set<DriverProperty> CLIENT_OWNED = java.util.EnumSet.of(DriverProperty.USER,
            DriverProperty.PASSWORD, DriverProperty.DATABASE, DriverProperty.SSL, DriverProperty.SSL_ROOT_CERT,
            DriverProperty.COMPRESSION, DriverProperty.CONNECT_TIMEOUT, DriverProperty.SOCKET_TIMEOUT,
            DriverProperty.CLIENT_NAME, DriverProperty.MAX_POOL_SIZE);

    private final ClickHouseTcpClient client;
    private final Properties properties = new Properties();
    private volatile JdbcConfig config;

    /**
     * A data source over {@code client}'s pool.
     *
     * @param client the native client; not closed by this data source
     */
    public ClickHouseClientDataSource(ClickHouseTcpClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /**
     * Sets a driver option (as {@link ClickHouseDriver#getPropertyInfo} lists them), before the first connection.
     *
     * @param name  the property name, such as {@code transactionMode}
     * @param value its value
     * @throws IllegalArgumentException for a property the client fixes ({@code user}, {@code password},
     *                                  {@code database}, {@code ssl}, timeouts, {@code compression},
     *                                  {@code maxPoolSize}...) or a {@code setting.} entry (configure the client)
     * @throws IllegalStateException    after the first connection
     */
    public void setProperty(String name, String value) {
        DriverProperty p = DriverProperty.of(name);
        if (CLIENT_OWNED.contains(p) || name.toLowerCase(Locale.ROOT).startsWith(DriverProperty.SETTING_PREFIX)) {
            throw new IllegalArgumentException("'" + name + "' is the client's to set, not this data source's "
                    + "(configure the ClickHouseTcpClient instead)");
        }
        if (config != null) {
            throw new IllegalStateException("the data source has opened connections already; set '" + name
                    + "' before the first one");
        }
        properties.setProperty(name, value);
    }

    /**
     * The native client whose pool this data source borrows from.
     *
     * @return the client
     */
    public ClickHouseTcpClient getClient() {
        return client;
    }

    /**
     * The configuration of every connection: a URL naming the client's servers and database, the client's user
     * and socket timeout, and the driver options set here.
     */
    private JdbcConfig config() throws SQLException {
        JdbcConfig c = config;
        if (c == null) {
            ConnectionConfig cc = client.config();
            String hosts = client.poolConfig().endpoints().stream().map(Endpoint::toString)
                    .collect(Collectors.joining(","));
            Properties p = new Properties();
            p.putAll(properties);
            p.setProperty(DriverProperty.USER.key, cc.user());
            p.setProperty(DriverProperty.DATABASE.key, cc.database());
            p.setProperty(DriverProperty.CLIENT_NAME.key, cc.clientName());
            p.setProperty(DriverProperty.SOCKET_TIMEOUT.key,
                    String.valueOf(cc.socketTimeout() == null ? 0 : cc.socketTimeout().toMillis()));
            c = JdbcConfig.parse((cc.tls() != null ? "jdbc:clickhouse:tcps://" : "jdbc:clickhouse:tcp://") + hosts
                    + "/" + cc.database(), p);
            config = c;
        }
        return c;
    }

    /**
     * Opens a session on one of the client's pool connections.
     *
     * @return the connection; close it to give its pool slot back
     * @throws SQLException 08001 when no pool connection could be had (the pool is saturated beyond the acquire
     *                      timeout, the server is unreachable or the client is closed), 28000 when the login fails
     */
    @Override
    public Connection getConnection() throws SQLException {
        return new ClickHouseJdbcConnection(config(), client, false);
    }

    /**
     * Refused with other credentials than the client's: the pool logs in as the client's user.
     *
     * @throws SQLFeatureNotSupportedException unless both are {@code null}
     */
    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        if (username == null && password == null) {
            return getConnection();
        }
        throw SqlStates.notSupported("getConnection(user, password) on a data source over a client (its pool logs "
                + "in as the client's user)");
    }

    /** Unwraps to this data source or to the {@link ClickHouseTcpClient}. */
    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Wrappers.unwrap(iface, this, client);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return Wrappers.isWrapperFor(iface, this, client);
    }

    @Override
    public String toString() {
        return "ClickHouseClientDataSource[" + client + "]";
    }
}
