package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.client.ClickHouseTcpClient;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Map;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The JDBC driver over ClickHouse's native TCP protocol, registered through
 * {@code META-INF/services/java.sql.Driver}. It accepts exactly
 *
 * <pre>
 * jdbc:clickhouse:tcp://host[:port][,host[:port]...][/database][?name=value&amp;...]
 * jdbc:ch:tcp://...          the same
 * jdbc:clickhouse:tcps://... TLS (as ?ssl=true), default port 9440
 * jdbc:ch:tcps://...         the same
 * </pre>
 *
 * and declines every other form ({@code jdbc:clickhouse://}, {@code jdbc:clickhouse:http://}...):
 * {@link #acceptsURL} is {@code false} and {@link #connect} returns {@code null}, so the driver shares a
 * class path with ClickHouse's HTTP driver. URL parameters and {@link Properties} take the driver properties
 * {@link #getPropertyInfo} lists; names prefixed {@code setting.} are ClickHouse settings sent with every
 * query ({@code setting.max_threads=4}); other names are ignored (logged at debug level).
 *
 * <p>Each {@link Connection} is one native session on a connection of its own, closed with it. Thread-safe.
 */
public final class ClickHouseDriver implements Driver {
    /** The driver's name, as {@code DatabaseMetaData.getDriverName()} reports it. */
    public static final String NAME = "clickhouse-tcp-jdbc";
    /** The driver's major version. */
    public static final int MAJOR_VERSION = 0;
    /** The driver's minor version. */
    public static final int MINOR_VERSION = 2;
    /** The driver's version text. */
    public static final String VERSION = MAJOR_VERSION + "." + MINOR_VERSION;

    static {
        try {
            DriverManager.registerDriver(new ClickHouseDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A driver instance; {@link DriverManager} finds one through the service file without this. */
    public ClickHouseDriver() {
    }

    /**
     * Opens a connection: one native session on a connection of its own.
     *
     * @param url  a {@code jdbc:clickhouse:tcp://} URL
     * @param info properties (user, password, driver properties, {@code setting.*}); may be {@code null}
     * @return the connection, or {@code null} when the URL is not one of this driver's forms
     * @throws SQLException 08001 when the URL is malformed or the server cannot be reached, 28000 when the
     *                      login fails; the message never contains the password
     */
    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        JdbcConfig config = JdbcConfig.parse(url, info);
        ClickHouseTcpClient client = config.clientBuilder(1).build();
        return new ClickHouseJdbcConnection(config, client, true);
    }

    @Override
    public boolean acceptsURL(String url) {
        return JdbcConfig.accepts(url);
    }

    /**
     * Every driver property with its description, default and choices; the values are those the URL and
     * {@code info} give (the password is never echoed).
     */
    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        Map<DriverProperty, String> values;
        if (acceptsURL(url)) {
            values = JdbcConfig.parse(url, info).effective();
        } else {
            values = new java.util.EnumMap<>(DriverProperty.class);
            for (DriverProperty p : DriverProperty.values()) {
                values.put(p, p.defaultValue);
            }
        }
        DriverProperty[] all = DriverProperty.values();
        DriverPropertyInfo[] out = new DriverPropertyInfo[all.length];
        for (int i = 0; i < all.length; i++) {
            out[i] = all[i].info(values.get(all[i]));
        }
        return out;
    }

    @Override
    public int getMajorVersion() {
        return MAJOR_VERSION;
    }

    @Override
    public int getMinorVersion() {
        return MINOR_VERSION;
    }

    /** {@code false}: ClickHouse has no transactions, which JDBC compliance requires. */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw SqlStates.notSupported("java.util.logging (the driver logs through System.Logger)");
    }
}
