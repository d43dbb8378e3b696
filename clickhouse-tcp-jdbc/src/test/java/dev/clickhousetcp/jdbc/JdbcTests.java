package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** URLs and connections for the test servers. */
final class JdbcTests {
    private JdbcTests() {
    }

    static ClickHouseServer server(String kind) {
        return kind.equals("legacy") ? ClickHouseServers.legacy() : ClickHouseServers.modern();
    }

    static String url(ClickHouseServer server) {
        return "jdbc:clickhouse:tcp://" + server.host() + ":" + server.tcpPort() + "/default";
    }

    static Connection connect(String kind) throws SQLException {
        return connect(kind, new Properties());
    }

    static Connection connect(String kind, Properties info) throws SQLException {
        return DriverManager.getConnection(url(server(kind)), info);
    }

    /** A table name unique to this run. */
    static String table(String prefix) {
        return prefix + "_" + Long.toHexString(System.nanoTime());
    }
}
