package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.PoolStats;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link ClickHouseClientDataSource} over a client of the application, against the 26.7 server. */
@ClickHouseTest
class ClientDataSourceTest {

    private static ClickHouseTcpClient.Builder client(int maxPoolSize) {
        ClickHouseServer server = ClickHouseServers.modern();
        return ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort())
                .user(ClickHouseServer.SECRET_USER).password(ClickHouseServer.SECRET_PASSWORD).database("system")
                .clientName("client-data-source-test").maxPoolSize(maxPoolSize);
    }

    @Test
    void connectionsBorrowFromTheClientsPoolAndGiveTheSlotBack() throws SQLException {
        try (ClickHouseTcpClient client = client(2).build()) {
            ClickHouseClientDataSource ds = new ClickHouseClientDataSource(client);
            try (Connection c = ds.getConnection()) {
                PoolStats open = client.poolStats();
                assertThat(open.active()).isOne();
                try (ResultSet rs = c.createStatement().executeQuery(
                        "SELECT currentUser(), currentDatabase(), client_name FROM system.processes "
                                + "WHERE query_id = queryID()")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo(ClickHouseServer.SECRET_USER);
                    assertThat(rs.getString(2)).isEqualTo("system");
                    assertThat(rs.getString(3)).isEqualTo("client-data-source-test");
                }
                assertThat(c.getMetaData().getUserName()).isEqualTo(ClickHouseServer.SECRET_USER);
                assertThat(c.getMetaData().getURL()).startsWith("jdbc:clickhouse:tcp://").endsWith("/system")
                        .doesNotContain(ClickHouseServer.SECRET_PASSWORD);
                assertThat(c.unwrap(ClickHouseTcpClient.class)).isSameAs(client);
                // the client's own calls share the pool's other slot meanwhile
                assertThat(client.queryRows("SELECT 'shared'").get(0)[0]).isEqualTo("shared");
            }
            assertThat(client.poolStats().active()).isZero();
            assertThat(ds.unwrap(ClickHouseTcpClient.class)).isSameAs(client);
            assertThat(ds.getClient()).isSameAs(client);
            // closing connections never closes the client
            assertThat(client.queryRows("SELECT 'still open'").get(0)[0]).isEqualTo("still open");
        }
    }

    @Test
    void aSaturatedPoolFailsTheBorrowWithConnectionState() throws SQLException {
        try (ClickHouseTcpClient client = client(1).acquireTimeout(Duration.ofMillis(200)).build()) {
            ClickHouseClientDataSource ds = new ClickHouseClientDataSource(client);
            try (Connection held = ds.getConnection()) {
                assertThatThrownBy(ds::getConnection).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("08"));
                assertThat(held.isValid(1)).isTrue();
            }
            try (Connection again = ds.getConnection()) {
                assertThat(again.isValid(1)).isTrue();
            }
        }
    }

    @Test
    void driverOptionsApplyAndTheClientsOwnAreRefused() throws SQLException {
        try (ClickHouseTcpClient client = client(1).build()) {
            ClickHouseClientDataSource ds = new ClickHouseClientDataSource(client);
            for (String owned : new String[] {"user", "password", "database", "ssl", "socketTimeout", "maxPoolSize",
                    "setting.max_threads", "Compression"}) {
                assertThatIllegalArgumentException().isThrownBy(() -> ds.setProperty(owned, "x"))
                        .withMessageContaining("client's to set");
            }
            ds.setProperty("transactionMode", "strict");
            ds.setProperty("databaseTerm", "catalog");
            try (Connection c = ds.getConnection()) {
                assertThatThrownBy(() -> c.setAutoCommit(false)).isInstanceOf(SQLFeatureNotSupportedException.class);
                assertThat(c.getCatalog()).isEqualTo("system");
            }
            assertThatIllegalStateException().isThrownBy(() -> ds.setProperty("queryTimeout", "5"));
        }
    }

    @Test
    void refusalsAreHyc00() throws SQLException {
        try (ClickHouseTcpClient client = client(1).build()) {
            ClickHouseClientDataSource ds = new ClickHouseClientDataSource(client);
            for (org.assertj.core.api.ThrowableAssert.ThrowingCallable call
                    : new org.assertj.core.api.ThrowableAssert.ThrowingCallable[] {
                        () -> ds.getConnection("other", "pw"), ds::createConnectionBuilder,
                        ds::createShardingKeyBuilder, ds::getParentLogger}) {
                assertThatThrownBy(call).isInstanceOf(SQLFeatureNotSupportedException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HYC00"));
            }
            assertThat(client.poolStats().total()).isZero();
        }
    }
}
