package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.client.ClickHouseSession;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** URL routing, properties, connecting to both servers, session state and the connection's contract. */
@ClickHouseTest
class DriverTest {
    private final Driver driver = new ClickHouseDriver();

    @Test
    void acceptsOnlyTheNativeForms() throws SQLException {
        for (String url : new String[]{"jdbc:clickhouse:tcp://h:9000/db", "jdbc:ch:tcp://h1:9000,h2:9000/db?x=1",
                "jdbc:clickhouse:tcps://h/db", "JDBC:ClickHouse:TCP://h", "jdbc:ch:tcps://[::1]:9440"}) {
            assertThat(driver.acceptsURL(url)).as(url).isTrue();
        }
        for (String url : new String[]{"jdbc:clickhouse://h:8123/db", "jdbc:clickhouse:http://h:8123",
                "jdbc:ch:https://h:8443", "jdbc:ch://h", "jdbc:clickhouse:tcp:/h", "jdbc:postgresql://h/db", "", null}) {
            assertThat(driver.acceptsURL(url)).as(url).isFalse();
            assertThat(driver.connect(url, new Properties())).as(url).isNull();
        }
    }

    @Test
    void isRegisteredThroughTheServiceFile() throws SQLException {
        assertThat(DriverManager.getDriver("jdbc:clickhouse:tcp://localhost:9000")).isInstanceOf(ClickHouseDriver.class);
        assertThat(driver.jdbcCompliant()).isFalse();
    }

    @Test
    void listsEveryPropertyWithoutThePassword() throws SQLException {
        Properties info = new Properties();
        info.setProperty("password", "s3cret");
        DriverPropertyInfo[] props = driver.getPropertyInfo("jdbc:clickhouse:tcp://h/db?transactionMode=strict", info);
        assertThat(Arrays.stream(props).map(p -> p.name)).contains("user", "password", "database", "ssl",
                "compression", "transactionMode", "databaseTerm", "parameterMode", "multiStatement", "insertBlockRows",
                "queryTimeout", "socketTimeout");
        assertThat(Arrays.stream(props).filter(p -> p.name.equals("transactionMode")).findFirst().orElseThrow().value)
                .isEqualTo("strict");
        assertThat(Arrays.stream(props).filter(p -> p.name.equals("password")).findFirst().orElseThrow().value).isNull();
        assertThat(Arrays.stream(props).filter(p -> p.name.equals("databaseTerm")).findFirst().orElseThrow().choices)
                .containsExactly("schema", "catalog");
    }

    @Test
    void aMalformedUrlNeverShowsThePassword() {
        assertThatThrownBy(() -> driver.connect("jdbc:clickhouse:tcp://u:pa55word@h:notaport/db", new Properties()))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("pa55word"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void connectsAndQueries(String kind) throws SQLException {
        ClickHouseServer server = JdbcTests.server(kind);
        Properties info = new Properties();
        info.setProperty("use_time_zone", "UTC"); // another driver's key: ignored
        info.setProperty("setting.max_threads", "3");
        try (Connection c = DriverManager.getConnection(JdbcTests.url(server), info);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT number, toString(number) FROM system.numbers LIMIT 3")) {
            for (int i = 0; i < 3; i++) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(i);
                assertThat(rs.getString(2)).isEqualTo(Integer.toString(i));
            }
            assertThat(rs.next()).isFalse();
            try (ResultSet m = s.executeQuery("SELECT value FROM system.settings WHERE name = 'max_threads'")) {
                assertThat(m.next()).isTrue();
                assertThat(m.getString(1)).isEqualTo("3");
            }
            DatabaseMetaData md = c.getMetaData();
            assertThat(md.getDatabaseProductName()).isEqualTo("ClickHouse");
            assertThat(md.getDatabaseMajorVersion()).isEqualTo(kind.equals("legacy") ? 18 : 26);
            assertThat(md.getUserName()).isEqualTo("default");
            assertThat(md.getURL()).startsWith("jdbc:clickhouse:tcp://");
            assertThat(c.isValid(5)).isTrue();
        }
    }

    @Test
    void theSessionKeepsTemporaryTablesAndSettings() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("CREATE TEMPORARY TABLE tmp_jdbc (x UInt8)");
            s.execute("INSERT INTO tmp_jdbc VALUES (7)");
            s.execute("SET max_threads = 2");
            try (ResultSet rs = s.executeQuery("SELECT x, getSetting('max_threads') FROM tmp_jdbc")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(7);
                assertThat(rs.getString(2)).isEqualTo("2");
            }
            ClickHouseSession session = c.unwrap(ClickHouseSession.class);
            assertThat(session.queryRows("SELECT count() FROM tmp_jdbc").get(0)[0]).isEqualTo(java.math.BigInteger.ONE);
            assertThat(c.isWrapperFor(ClickHouseTcpClient.class)).isTrue();
        }
    }

    @Test
    void wrongPasswordIsAnAuthorizationError() {
        Properties info = new Properties();
        info.setProperty("user", ClickHouseServer.SECRET_USER);
        info.setProperty("password", "wrong-pw-xyz");
        // the legacy server: a failed login aborts the modern server process
        assertThatThrownBy(() -> JdbcTests.connect("legacy", info))
                .isInstanceOf(java.sql.SQLInvalidAuthorizationSpecException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("28"))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("wrong-pw-xyz"));
    }

    @Test
    void transactionsAreEmulatedOrRefused() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            String t = JdbcTests.table("jdbc_tx");
            s.execute("CREATE TABLE " + t + " (x UInt8) ENGINE = Memory");
            try {
                c.setAutoCommit(false);
                s.executeUpdate("INSERT INTO " + t + " SELECT 1");
                c.rollback();
                assertThat(c.getWarnings() != null).isTrue();
                assertThat(c.getWarnings().getMessage()).contains("no transactions");
                c.commit();
                c.setAutoCommit(true);
                assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_NONE);
            } finally {
                s.execute("DROP TABLE " + t);
            }
        }
        Properties strict = new Properties();
        strict.setProperty("transactionMode", "strict");
        try (Connection c = JdbcTests.connect("modern", strict)) {
            c.setAutoCommit(true);
            assertThatThrownBy(() -> c.setAutoCommit(false)).isInstanceOf(SQLFeatureNotSupportedException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HYC00"));
            assertThatThrownBy(c::setSavepoint).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> c.prepareCall("SELECT 1")).isInstanceOf(SQLFeatureNotSupportedException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HYC00"));
            assertThat(c.isValid(2)).isTrue();
        }
    }

    @Test
    void schemaSwitchesTheDatabase() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            assertThat(c.getSchema()).isEqualTo("default");
            assertThat(c.getCatalog()).isNull();
            c.setSchema("system");
            try (ResultSet rs = s.executeQuery("SELECT currentDatabase()")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("system");
            }
            c.setCatalog("default"); // schema mode: no effect
            assertThat(c.getSchema()).isEqualTo("system");
            assertThatThrownBy(() -> c.setSchema("no_such_db_jdbc"))
                    .isInstanceOf(java.sql.SQLSyntaxErrorException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("3F000"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(81));
        }
        Properties catalog = new Properties();
        catalog.setProperty("databaseTerm", "catalog");
        try (Connection c = JdbcTests.connect("modern", catalog)) {
            assertThat(c.getCatalog()).isEqualTo("default");
            assertThat(c.getMetaData().getCatalogTerm()).isEqualTo("database");
            c.setCatalog("system");
            assertThat(c.getCatalog()).isEqualTo("system");
        }
    }

    @Test
    void abortClosesAtOnce() throws SQLException {
        Connection c = JdbcTests.connect("modern");
        c.abort(Runnable::run);
        assertThat(c.isClosed()).isTrue();
        assertThat(c.isValid(1)).isFalse();
        assertThatThrownBy(c::createStatement).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08003"));
    }

    @Test
    void abortWithARejectingExecutorStillClosesTheSession() throws SQLException {
        for (int i = 0; i < 2; i++) {
            Connection c = JdbcTests.connect(i == 0 ? "modern" : "legacy");
            dev.clickhousetcp.client.ClickHouseSession session = c.unwrap(dev.clickhousetcp.client.ClickHouseSession.class);
            assertThat(session.isOpen()).isTrue();
            assertThatThrownBy(() -> c.abort(r -> {
                throw new java.util.concurrent.RejectedExecutionException("shut down");
            })).isInstanceOf(SQLException.class);
            assertThat(c.isClosed()).isTrue();
            assertThat(session.isOpen()).isFalse();
        }
    }

    @Test
    void severalHostsAndTheShortPrefix() throws SQLException {
        ClickHouseServer server = JdbcTests.server("modern");
        String hosts = server.host() + ":" + server.tcpPort() + "," + server.host() + ":" + server.tcpPort();
        try (Connection c = DriverManager.getConnection("jdbc:ch:tcp://" + hosts + "/system");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT currentDatabase()")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("system");
        }
    }

    @Test
    void tlsThroughTheTcpsSchemeAndARootCertificate() throws SQLException {
        ClickHouseServer server = JdbcTests.server("legacy");
        org.junit.jupiter.api.Assumptions.assumeTrue(server.hasTls() && server.serverCertificatePem().isPresent(),
                "the legacy server has no TLS port");
        Properties info = new Properties();
        info.setProperty("sslrootcert", server.serverCertificatePem().get().toString());
        for (String url : new String[]{"jdbc:clickhouse:tcps://" + server.host() + ":" + server.tlsPort() + "/default",
                "jdbc:clickhouse:tcp://" + server.host() + ":" + server.tlsPort() + "/default?ssl=true"}) {
            try (Connection c = DriverManager.getConnection(url, info); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT 'over tls'")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("over tls");
                assertThat(c.getMetaData().getURL()).startsWith("jdbc:clickhouse:tcps://");
            }
        }
    }
}
