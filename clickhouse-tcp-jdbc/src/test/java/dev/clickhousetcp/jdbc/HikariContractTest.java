package dev.clickhousetcp.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.clickhousetcp.client.ClickHouseSession;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.FaultProxy;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** HikariCP over the driver: many borrowers, refused calls, connectionInitSql, readOnly, a stalled server. */
@ClickHouseTest
class HikariContractTest {

    private static HikariConfig config(String url, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setDriverClassName(ClickHouseDriver.class.getName());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setSchema("default"); // HikariCP resets a dirtied schema only when one is configured
        return config;
    }

    @Test
    void manyBorrowersRefusedCallsAndInitSqlKeepThePool() throws Exception {
        HikariConfig config = config(JdbcTests.url(ClickHouseServers.modern()) + "?transactionMode=strict", 8);
        config.setConnectionInitSql("SET max_threads = 3");
        config.setReadOnly(true);
        Set<ClickHouseSession> sessions = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try (HikariDataSource ds = new HikariDataSource(config)) {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < 32; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    int cycles = 0;
                    for (int i = 0; i < 60; i++) {
                        try (Connection c = ds.getConnection()) {
                            sessions.add(c.unwrap(ClickHouseSession.class));
                            assertThat(c.isReadOnly()).isTrue();
                            assertThat(c.getSchema()).isEqualTo("default");
                            if ((thread + i) % 3 == 0) {
                                assertThatThrownBy(() -> c.setAutoCommit(false))
                                        .isInstanceOf(SQLFeatureNotSupportedException.class)
                                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HYC00"));
                                assertThatThrownBy(c::setSavepoint).isInstanceOf(SQLFeatureNotSupportedException.class);
                                c.setSchema("system"); // dirtied: Hikari must reset it
                                c.setNetworkTimeout(Runnable::run, 1234);
                            }
                            try (Statement s = c.createStatement();
                                 ResultSet rs = s.executeQuery("SELECT getSetting('max_threads'), currentDatabase(), " + i)) {
                                assertThat(rs.next()).isTrue();
                                assertThat(rs.getInt(1)).isEqualTo(3);
                                if ((thread + i) % 3 != 0) {
                                    assertThat(rs.getString(2)).isEqualTo("default");
                                }
                                assertThat(rs.getInt(3)).isEqualTo(i);
                            }
                            cycles++;
                        }
                    }
                    return cycles;
                }));
            }
            int total = 0;
            for (Future<Integer> f : done) {
                total += f.get(120, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(32 * 60);
            // no refusal evicted a connection: the pool never opened more than its size
            assertThat(sessions).hasSizeLessThanOrEqualTo(8);
            assertThat(ds.getHikariPoolMXBean().getTotalConnections()).isEqualTo(8);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void isValidIsFalseWhileTheServerIsStalledAndTheConnectionThenFailsWith08() throws Exception {
        try (FaultProxy proxy = FaultProxy.forNativePort(ClickHouseServers.legacy());
             Connection c = DriverManager.getConnection("jdbc:clickhouse:tcp://" + proxy.host() + ":" + proxy.port()
                     + "/default")) {
            assertThat(c.isValid(2)).isTrue();
            proxy.stallAll(FaultProxy.Direction.SERVER_TO_CLIENT);
            assertThat(c.isValid(1)).isFalse();
            proxy.releaseStalls();
            // never reconnected behind the caller's back: the connection reports itself broken
            assertThatThrownBy(() -> c.createStatement().executeQuery("SELECT 1"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("08"));
            assertThat(c.isValid(1)).isFalse();
        }
    }

    @Test
    void hikariEvictsAConnectionBrokenUnderIt() throws Exception {
        try (FaultProxy proxy = FaultProxy.forNativePort(ClickHouseServers.legacy())) {
            HikariConfig config = config("jdbc:clickhouse:tcp://" + proxy.host() + ":" + proxy.port() + "/default", 1);
            try (HikariDataSource ds = new HikariDataSource(config)) {
                ClickHouseSession first;
                try (Connection c = ds.getConnection()) {
                    first = c.unwrap(ClickHouseSession.class);
                    proxy.dropAllGracefully();
                    assertThatThrownBy(() -> c.createStatement().executeQuery("SELECT 1"))
                            .isInstanceOf(SQLException.class)
                            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("08"));
                }
                try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT 5")) {
                    assertThat(c.unwrap(ClickHouseSession.class)).isNotSameAs(first);
                    rs.next();
                    assertThat(rs.getInt(1)).isEqualTo(5);
                }
            }
        }
    }
}
