package dev.clickhousetcp.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.clickhousetcp.client.ClickHouseSession;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The unpooled and pooled DataSources, and HikariCP over the driver. */
@ClickHouseTest
class DataSourceTest {

    private static String serverPort(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT tcpPort(), 1")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void hikariUsesTheDriverAndRefusalsDoNotEvict() throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(JdbcTests.url(ClickHouseServers.modern()));
        config.setDriverClassName(ClickHouseDriver.class.getName());
        config.setMaximumPoolSize(2);
        config.setAutoCommit(false); // what @Transactional pools ask for: accepted in emulate mode
        try (HikariDataSource ds = new HikariDataSource(config)) {
            ClickHouseSession first;
            try (Connection c = ds.getConnection()) {
                first = c.unwrap(ClickHouseSession.class);
                assertThat(c.isWrapperFor(ClickHouseSession.class)).isTrue();
                assertThatThrownBy(() -> c.prepareCall("SELECT 1")).isInstanceOf(SQLFeatureNotSupportedException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HYC00"));
                assertThatThrownBy(c::setSavepoint).isInstanceOf(SQLFeatureNotSupportedException.class);
                assertThat(serverPort(c)).isNotEmpty();
                c.rollback();
            }
            try (Connection c = ds.getConnection()) {
                // the same physical connection came back: the refusals did not evict it
                assertThat(c.unwrap(ClickHouseSession.class)).isSameAs(first);
                assertThat(ds.getHikariPoolMXBean().getTotalConnections()).isLessThanOrEqualTo(2);
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
                    assertThat(rs.next()).isTrue();
                }
            }
        }
    }

    @Test
    void hikariOverTheUnpooledDataSource() throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setDataSourceClassName(ClickHouseDataSource.class.getName());
        config.addDataSourceProperty("url", JdbcTests.url(ClickHouseServers.modern()));
        config.setMaximumPoolSize(1);
        try (HikariDataSource ds = new HikariDataSource(config); Connection c = ds.getConnection();
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 'via data source'")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("via data source");
        }
    }

    @Test
    void pooledDataSourceSharesOneClient() throws SQLException {
        try (ClickHousePooledDataSource ds = new ClickHousePooledDataSource(JdbcTests.url(ClickHouseServers.modern()))) {
            ds.setProperty("maxPoolSize", "2");
            ClickHouseTcpClient client = ds.unwrap(ClickHouseTcpClient.class);
            try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
                assertThat(a.unwrap(ClickHouseTcpClient.class)).isSameAs(client).isSameAs(b.unwrap(ClickHouseTcpClient.class));
                assertThat(a.unwrap(ClickHouseSession.class)).isNotSameAs(b.unwrap(ClickHouseSession.class));
                try (Statement s = a.createStatement()) {
                    s.execute("CREATE TEMPORARY TABLE tmp_pooled_jdbc (x UInt8)");
                }
                try (Statement s = b.createStatement()) {
                    assertThatThrownBy(() -> s.executeQuery("SELECT * FROM tmp_pooled_jdbc"))
                            .isInstanceOf(java.sql.SQLSyntaxErrorException.class);
                }
            }
            assertThat(client.poolStats()).isNotNull();
        }
    }

    @Test
    void closedPooledDataSourceRefusesNewConnections() throws SQLException {
        ClickHousePooledDataSource ds = new ClickHousePooledDataSource(JdbcTests.url(ClickHouseServers.modern()));
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            assertThat(s.execute("SELECT 1")).isTrue();
        }
        ds.close();
        for (org.assertj.core.api.ThrowableAssert.ThrowingCallable call : java.util.List.<
                org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(ds::getConnection, ds::getClient,
                () -> ds.unwrap(ClickHouseTcpClient.class))) {
            assertThatThrownBy(call).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08003"));
        }
        ds.close(); // idempotent
        ClickHousePooledDataSource never = new ClickHousePooledDataSource(JdbcTests.url(ClickHouseServers.modern()));
        never.close(); // closed before first use
        assertThatThrownBy(never::getConnection).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08003"));
    }

    @Test
    void unpooledDataSourceNeedsANativeUrl() {
        ClickHouseDataSource ds = new ClickHouseDataSource("jdbc:clickhouse://localhost:8123");
        assertThatThrownBy(ds::getConnection).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
    }
}
