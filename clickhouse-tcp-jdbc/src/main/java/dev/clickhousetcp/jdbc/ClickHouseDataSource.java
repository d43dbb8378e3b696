package dev.clickhousetcp.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * An unpooled {@link DataSource}: every {@link #getConnection()} opens a new native session on a connection of
 * its own (as {@link ClickHouseDriver#connect} does), for pools such as HikariCP
 * ({@code dataSourceClassName=dev.clickhousetcp.jdbc.ClickHouseDataSource}, {@code dataSource.url=...}).
 * Configure it before use; thread-safe once configured.
 */
public class ClickHouseDataSource extends DataSourceSupport {
    private volatile String url;
    private final Properties properties = new Properties();

    /** An unconfigured data source; set at least the URL. */
    public ClickHouseDataSource() {
    }

    /**
     * A data source for a URL.
     *
     * @param url a {@code jdbc:clickhouse:tcp://} URL
     */
    public ClickHouseDataSource(String url) {
        this.url = url;
    }

    /**
     * Sets the URL.
     *
     * @param url a {@code jdbc:clickhouse:tcp://} (or {@code jdbc:ch:tcp://}, {@code tcps}) URL
     */
    public void setUrl(String url) {
        this.url = url;
    }

    /**
     * The URL.
     *
     * @return the configured URL, or {@code null}
     */
    public String getUrl() {
        return url;
    }

    /**
     * Sets the user.
     *
     * @param user the ClickHouse user
     */
    public void setUser(String user) {
        properties.setProperty(DriverProperty.USER.key, user);
    }

    /**
     * Sets the password (never logged).
     *
     * @param password the password
     */
    public void setPassword(String password) {
        properties.setProperty(DriverProperty.PASSWORD.key, password);
    }

    /**
     * Sets a driver property or, prefixed {@code setting.}, a ClickHouse setting.
     *
     * @param name  the property name (as {@link ClickHouseDriver#getPropertyInfo} lists them)
     * @param value its value
     */
    public void setProperty(String name, String value) {
        properties.setProperty(name, value);
    }

    /**
     * Replaces the properties.
     *
     * @param properties driver properties and {@code setting.*} entries
     */
    public void setProperties(Properties properties) {
        this.properties.clear();
        this.properties.putAll(properties);
    }

    /** The configuration of a new connection. */
    JdbcConfig config(String user, String password) throws SQLException {
        if (url == null) {
            throw new SQLException("the data source has no URL", "08001");
        }
        if (!JdbcConfig.accepts(url)) {
            throw new SQLException("not a clickhouse-tcp JDBC URL (jdbc:clickhouse:tcp://host:9000/db)", "08001");
        }
        Properties p = new Properties();
        p.putAll(properties);
        if (user != null) {
            p.setProperty(DriverProperty.USER.key, user);
        }
        if (password != null) {
            p.setProperty(DriverProperty.PASSWORD.key, password);
        }
        return JdbcConfig.parse(url, p);
    }

    @Override
    public Connection getConnection() throws SQLException {
        return getConnection(null, null);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        JdbcConfig config = config(username, password);
        return new ClickHouseJdbcConnection(config, config.clientBuilder(1).build(), true);
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Wrappers.unwrap(iface, this);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return Wrappers.isWrapperFor(iface, this);
    }
}
