package dev.clickhousetcp.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.clickhousetcp.client.ClickHouseSession;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our driver and the official HTTP driver ({@code com.clickhouse:jdbc-v2}, whose
 * {@code com.clickhouse.jdbc.Driver} is registered here explicitly, ahead of ours) in one JVM: a
 * {@code jdbc:clickhouse:tcp://} URL reaches ours over the native port, a {@code jdbc:clickhouse://}
 * URL reaches the official driver over HTTP, and our driver declines the latter ({@code acceptsURL}
 * false, {@code connect} null). The official driver also claims {@code jdbc:clickhouse:tcp://} URLs in
 * {@code acceptsURL}, so {@code DriverManager.getDriver} returns it (docs/jdbc.md: name our driver class,
 * as HikariCP's {@code driverClassName} does here). Which interface the server saw is read from {@code system.query_log}
 * ({@code interface} 1 is TCP, 2 is HTTP, per ClickHouse src/Interpreters/ClientInfo.h).
 */
@ClickHouseTest
class DriverRoutingTest {
    private static Driver official;

    @BeforeAll
    static void registerOfficialDriverFirst() throws SQLException {
        // ours registers itself when its class loads; deregister it so the official driver is asked first
        Driver ours = DriverManager.getDriver("jdbc:clickhouse:tcp://localhost:9000");
        DriverManager.deregisterDriver(ours);
        official = new com.clickhouse.jdbc.Driver();
        DriverManager.registerDriver(official);
        DriverManager.registerDriver(ours);
    }

    @AfterAll
    static void deregisterOfficialDriver() throws SQLException {
        DriverManager.deregisterDriver(official);
    }

    private static String tcpUrl(ClickHouseServer s) {
        return "jdbc:clickhouse:tcp://" + s.host() + ":" + s.tcpPort() + "/default";
    }

    private static String httpUrl(ClickHouseServer s) {
        return "jdbc:clickhouse://" + s.host() + ":" + s.httpPort() + "/default";
    }

    @Test
    void tcpUrlsReachOursAndHttpUrlsReachTheOfficialDriver() throws SQLException {
        ClickHouseServer modern = ClickHouseServers.modern();
        String nonce = Long.toHexString(System.nanoTime());
        String version;
        try (Connection c = DriverManager.getConnection(tcpUrl(modern))) {
            assertThat(c).isInstanceOf(ClickHouseJdbcConnection.class);
            assertThat(c.isWrapperFor(ClickHouseSession.class)).isTrue();
            version = marker(c, "at01_tcp_" + nonce);
        }
        try (Connection c = DriverManager.getConnection(httpUrl(modern))) {
            assertThat(c.getClass().getName()).startsWith("com.clickhouse.jdbc.");
            assertThat(c.isWrapperFor(ClickHouseSession.class)).isFalse();
            assertThat(marker(c, "at01_http_" + nonce)).isEqualTo(version);
        }
        assertThat(DriverManager.getDriver(httpUrl(modern))).isSameAs(official);
        // the official driver claims every jdbc:clickhouse: URL, tcp ones too, so getDriver (which a pool without
        // a driver class name uses) picks whichever registered first: why docs/jdbc.md says to name ours
        assertThat(official.acceptsURL(tcpUrl(modern))).isTrue();
        assertThat(DriverManager.getDriver(tcpUrl(modern))).isSameAs(official);

        try (Connection c = DriverManager.getConnection(tcpUrl(modern)); Statement s = c.createStatement()) {
            s.execute("SYSTEM FLUSH LOGS");
            assertThat(interfaceOf(s, "at01_tcp_" + nonce)).as("interface of the tcp URL's query").isEqualTo(1);
            assertThat(interfaceOf(s, "at01_http_" + nonce)).as("interface of the HTTP URL's query").isEqualTo(2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:clickhouse://127.0.0.1:18123/default", "jdbc:clickhouse:http://127.0.0.1:18123/default",
        "jdbc:ch:https://127.0.0.1:8443/default", "jdbc:ch://127.0.0.1:18123"})
    void oursDeclinesTheOfficialDriversUrls(String url) throws SQLException {
        ClickHouseDriver ours = new ClickHouseDriver();
        assertThat(ours.acceptsURL(url)).isFalse();
        assertThat(ours.connect(url, new Properties())).isNull();
    }

    @Test
    void hikariWithOurDriverClassNameUsesTheNativePort() throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(tcpUrl(ClickHouseServers.modern()));
        config.setDriverClassName(ClickHouseDriver.class.getName());
        config.setMaximumPoolSize(2);
        try (HikariDataSource ds = new HikariDataSource(config); Connection c = ds.getConnection();
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT interface FROM system.processes WHERE query_id = queryID()")) {
            assertThat(c.isWrapperFor(ClickHouseSession.class)).isTrue();
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).as("interface of the running query").isEqualTo(1);
        }
    }

    /** Runs a query that carries {@code marker} in its text and returns the server's version it answers. */
    private static String marker(Connection c, String marker) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT version(), '" + marker + "'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(2)).isEqualTo(marker);
            return rs.getString(1);
        }
    }

    private static int interfaceOf(Statement s, String marker) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT any(interface), count() FROM system.query_log WHERE type = 'QueryFinish'"
                + " AND query LIKE '%" + marker + "%' AND query NOT LIKE '%query_log%' AND event_date >= yesterday()")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(2)).as("query_log rows carrying %s", marker).isEqualTo(1);
            return rs.getInt(1);
        }
    }
}
