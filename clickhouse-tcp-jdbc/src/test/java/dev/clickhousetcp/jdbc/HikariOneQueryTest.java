package dev.clickhousetcp.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A warm {@code SELECT 1} through HikariCP (JDBC.md (d), R4): one borrow, one execute and the return send the
 * server exactly one query and no Ping. The server's {@code system.query_log} counts the queries of the pooled
 * connection (under its own {@code log_comment}); the pool's calls into the driver's connection are counted at the
 * JDBC interface, where the only Ping the driver sends is {@link Connection#isValid} (a Ping/Pong round trip).
 */
@ClickHouseTest
class HikariOneQueryTest {
    private static final int EXECUTES = 50;

    @Test
    void aWarmBorrowSendsOneQueryAndNoPing() throws Exception {
        Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
        ClickHouseDataSource driver = new ClickHouseDataSource(JdbcTests.url(ClickHouseServers.modern()));
        HikariConfig config = new HikariConfig();
        config.setDataSource(new DataSourceSupport() {
            @Override
            public Connection getConnection() throws SQLException {
                return counting(driver.getConnection(), calls);
            }

            @Override
            public Connection getConnection(String user, String password) throws SQLException {
                return counting(driver.getConnection(user, password), calls);
            }

            @Override
            public <T> T unwrap(Class<T> iface) throws SQLException {
                return driver.unwrap(iface);
            }

            @Override
            public boolean isWrapperFor(Class<?> iface) throws SQLException {
                return driver.isWrapperFor(iface);
            }
        });
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        String tag = JdbcTests.table("r4_one_query");
        try (HikariDataSource pool = new HikariDataSource(config)) {
            try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                // warm, and from here on every query of the pooled connection carries the tag
                s.execute("SET log_comment = '" + tag + "'");
            }
            calls.clear();
            for (int i = 0; i < EXECUTES; i++) {
                try (Connection c = pool.getConnection(); Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(1);
                }
            }
            // the pool validated no connection on these warm borrows: no Ping went to the server
            assertThat(calls.getOrDefault("isValid", new AtomicLong())).hasValue(0);
            assertThat(calls.get("createStatement")).hasValue(EXECUTES);
        }
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("SYSTEM FLUSH LOGS");
            try (ResultSet rs = s.executeQuery("SELECT countIf(query = 'SELECT 1'), count() FROM system.query_log "
                    + "WHERE type = 'QueryStart' AND log_comment = '" + tag + "' AND query NOT LIKE 'SET log_comment%'")) {
                assertThat(rs.next()).isTrue();
                // one query per execute, nothing else on borrow or return
                assertThat(rs.getLong(1)).isEqualTo(EXECUTES);
                assertThat(rs.getLong(2)).isEqualTo(EXECUTES);
            }
        }
    }

    /** The connection, with every call the pool makes on it counted by method name. */
    private static Connection counting(Connection target, Map<String, AtomicLong> calls) {
        return (Connection) Proxy.newProxyInstance(HikariOneQueryTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    calls.computeIfAbsent(method.getName(), k -> new AtomicLong()).incrementAndGet();
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
