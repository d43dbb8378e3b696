package dev.clickhousetcp.jdbc;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * What this driver's data sources share: the log writer and login timeout JDBC asks them to keep (recorded only;
 * the driver logs through {@link System.Logger} and its connect timeouts bound a login) and the refusals of the
 * optional builders, with SQLState HYC00.
 */
abstract class DataSourceSupport implements DataSource {
    private volatile int loginTimeout;
    private volatile PrintWriter logWriter;

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public void setLoginTimeout(int seconds) {
        this.loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw SqlStates.notSupported("java.util.logging (the driver logs through System.Logger)");
    }

    @Override
    public java.sql.ConnectionBuilder createConnectionBuilder() throws SQLException {
        throw SqlStates.notSupported("ConnectionBuilder (use getConnection)");
    }

    @Override
    public java.sql.ShardingKeyBuilder createShardingKeyBuilder() throws SQLException {
        throw SqlStates.notSupported("sharding keys");
    }
}
