package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.client.ClickHouseSession;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The data sources over a pool give a JDBC connection's native connection back for reuse when its server session
 * stayed as the configuration gives it, and close it when a statement or call changed that session (or may have):
 * the next borrower never sees another's {@code SET}, {@code USE} or temporary table. Handshakes are counted by
 * the pool's {@code created} statistic.
 */
@ClickHouseTest
class ConnectionReuseTest {

    private static ClickHouseTcpClient client(ClickHouseServer server) {
        return ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort()).database("default")
                .clientName("connection-reuse-test").maxPoolSize(2).build();
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void jdbcTemplateCallsThroughTheClientDataSourceShareOneServerConnection(ClickHouseServer.Kind kind) {
        try (ClickHouseTcpClient client = client(ClickHouseServers.get(kind))) {
            JdbcTemplate jdbc = new JdbcTemplate(new ClickHouseClientDataSource(client));
            for (int i = 0; i < 20; i++) {
                assertThat(jdbc.queryForObject("SELECT " + i, Integer.class)).isEqualTo(i);
            }
            jdbc.update("CREATE TABLE IF NOT EXISTS default.reuse_probe_" + kind.name().toLowerCase()
                    + " (x UInt8) ENGINE = Memory");
            jdbc.update("DROP TABLE default.reuse_probe_" + kind.name().toLowerCase());
            assertThat(client.poolStats().created()).isOne();
            assertThat(client.poolStats().idle()).isOne();
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void jdbcTemplateCallsThroughThePooledDataSourceShareOneServerConnection(ClickHouseServer.Kind kind)
            throws SQLException {
        try (ClickHousePooledDataSource ds = new ClickHousePooledDataSource(
                JdbcTests.url(ClickHouseServers.get(kind)) + "?maxPoolSize=2")) {
            JdbcTemplate jdbc = new JdbcTemplate(ds);
            for (int i = 0; i < 20; i++) {
                assertThat(jdbc.queryForObject("SELECT ?", Integer.class, i)).isEqualTo(i);
            }
            assertThat(ds.getClient().poolStats().created()).isOne();
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void sessionStateMadeOnOneConnectionNeverReachesTheNextBorrower(ClickHouseServer.Kind kind) throws SQLException {
        try (ClickHouseTcpClient client = client(ClickHouseServers.get(kind))) {
            DataSource ds = new ClickHouseClientDataSource(client);
            String threads = maxThreads(ds);
            String temp = JdbcTests.table("reuse_tmp");
            List<String> changes = List.of("SET max_threads = 3", "CREATE TEMPORARY TABLE " + temp + " (x UInt8)",
                    "/* c */ set max_threads = 3", "USE system");
            long created = client.poolStats().created();
            for (String change : changes) {
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    s.execute(change);
                }
                assertThat(maxThreads(ds)).as(change).isEqualTo(threads);
                assertThat(new JdbcTemplate(ds).queryForObject("SELECT currentDatabase()", String.class)).as(change)
                        .isEqualTo("default");
                assertThat(new JdbcTemplate(ds).queryForObject("SELECT count() FROM system.tables WHERE name = '"
                        + temp + "' AND is_temporary", Integer.class)).as(change).isZero();
            }
            // each change cost the connection it was made on, and nothing else did
            assertThat(client.poolStats().created()).isEqualTo(created + changes.size());
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void setSchemaAndSetCatalogCloseTheNativeConnection(ClickHouseServer.Kind kind) throws SQLException {
        try (ClickHouseTcpClient client = client(ClickHouseServers.get(kind))) {
            ClickHouseClientDataSource schema = new ClickHouseClientDataSource(client);
            try (Connection c = schema.getConnection()) {
                c.setSchema("system");
                assertThat(currentDatabase(c)).isEqualTo("system");
            }
            assertThat(new JdbcTemplate(schema).queryForObject("SELECT currentDatabase()", String.class))
                    .isEqualTo("default");
            ClickHouseClientDataSource catalog = new ClickHouseClientDataSource(client);
            catalog.setProperty("databaseTerm", "catalog");
            try (Connection c = catalog.getConnection()) {
                c.setCatalog("system");
            }
            assertThat(new JdbcTemplate(catalog).queryForObject("SELECT currentDatabase()", String.class))
                    .isEqualTo("default");
            // setSchema to the database in use changes nothing and keeps the connection
            long created = client.poolStats().created();
            try (Connection c = schema.getConnection()) {
                c.setSchema("default");
            }
            new JdbcTemplate(schema).queryForObject("SELECT 1", Integer.class);
            assertThat(client.poolStats().created()).isEqualTo(created);
        }
    }

    @Test
    void statementsOfUnknownEffectAbortsAndUnwrappedSessionsClose() throws SQLException {
        try (ClickHouseTcpClient client = client(ClickHouseServers.modern())) {
            ClickHouseClientDataSource ds = new ClickHouseClientDataSource(client);
            new JdbcTemplate(ds).queryForObject("SELECT 1", Integer.class);
            long created = client.poolStats().created();
            // a statement whose first keyword the driver does not know to leave the session alone
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.execute("COMMIT");
            } catch (SQLException expected) {
                // 26.7 without transactions refuses it; the connection is closed either way
            }
            assertThat(reuseAfter(ds, client, created)).isFalse();
            created = client.poolStats().created();
            try (Connection c = ds.getConnection()) {
                c.unwrap(ClickHouseSession.class);
            }
            assertThat(reuseAfter(ds, client, created)).isFalse();
            created = client.poolStats().created();
            try (Connection c = ds.getConnection()) {
                c.abort(Runnable::run);
            }
            assertThat(reuseAfter(ds, client, created)).isFalse();
            created = client.poolStats().created();
            try (Connection c = ds.getConnection()) {
                c.setNetworkTimeout(Runnable::run, 60_000);
                c.createStatement().executeQuery("SELECT 1").close();
            }
            assertThat(reuseAfter(ds, client, created)).isTrue();
        }
    }

    /** Whether the next borrower of {@code ds} got the connection given back before (no new one was created). */
    private static boolean reuseAfter(DataSource ds, ClickHouseTcpClient client, long createdBefore) {
        new JdbcTemplate(ds).queryForObject("SELECT 1", Integer.class);
        return client.poolStats().created() == createdBefore;
    }

    private static String maxThreads(DataSource ds) {
        return new JdbcTemplate(ds).queryForObject("SELECT value FROM system.settings WHERE name = 'max_threads'",
                String.class);
    }

    private static String currentDatabase(Connection c) throws SQLException {
        try (var rs = c.createStatement().executeQuery("SELECT currentDatabase()")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
