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
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code Connection.setNetworkTimeout}: a read deadline per wait for the server's next bytes. A server that stops
 * answering (a proxy in front of the legacy server stops forwarding) aborts the connection with 08006 well before
 * the 300 s socket timeout; the value is per connection, 0 removes it, and a query shorter than it is unaffected.
 */
@ClickHouseTest
class NetworkTimeoutTest {
    /** Far below the 300 s default socket timeout and far above the 500 ms network timeout the tests set. */
    private static final long BOUND_SECONDS = 20;

    private static String url(FaultProxy proxy) {
        return "jdbc:clickhouse:tcp://" + proxy.host() + ":" + proxy.port() + "/default";
    }

    private static CompletableFuture<Integer> selectAsync(Connection c, int value) {
        return CompletableFuture.supplyAsync(() -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT " + value)) {
                assertThat(rs.next()).isTrue();
                return rs.getInt(1);
            } catch (SQLException e) {
                throw new RuntimeException(e);
            }
        });
    }

    private static SQLException failure(CompletableFuture<?> f) throws Exception {
        try {
            f.get(BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable t = e.getCause() instanceof RuntimeException r && r.getCause() instanceof SQLException s ? s
                    : e.getCause();
            assertThat(t).isInstanceOf(SQLException.class);
            return (SQLException) t;
        }
        throw new AssertionError("the query succeeded although the server was stalled");
    }

    @Test
    void aStalledServerAbortsTheConnectionWith08006AndTheValueIsPerConnection() throws Exception {
        try (FaultProxy proxy = FaultProxy.forNativePort(ClickHouseServers.legacy());
             Connection timed = DriverManager.getConnection(url(proxy));
             Connection untimed = DriverManager.getConnection(url(proxy))) {
            timed.setNetworkTimeout(Runnable::run, 500);
            untimed.setNetworkTimeout(Runnable::run, 700);
            untimed.setNetworkTimeout(Runnable::run, 0); // back to the socketTimeout property (300 s)
            assertThat(timed.getNetworkTimeout()).isEqualTo(500);
            assertThat(untimed.getNetworkTimeout()).isZero();
            assertThat(timed.unwrap(ClickHouseSession.class).socketTimeout()).isEqualTo(Duration.ofMillis(500));
            assertThat(untimed.unwrap(ClickHouseSession.class).socketTimeout()).isEqualTo(Duration.ofSeconds(300));

            proxy.stallAll(FaultProxy.Direction.SERVER_TO_CLIENT);
            CompletableFuture<Integer> waiting = selectAsync(untimed, 7);
            SQLException e = failure(selectAsync(timed, 1));
            assertThat((Throwable) e).isInstanceOf(SQLNonTransientConnectionException.class);
            assertThat(e.getSQLState()).isEqualTo("08006");
            assertThat(timed.isClosed()).isTrue();
            assertThat(timed.isValid(1)).isFalse();
            assertThatThrownBy(() -> timed.createStatement().executeQuery("SELECT 1"))
                    .satisfies(x -> assertThat(((SQLException) x).getSQLState()).startsWith("08"));

            // the other connection's wait is not bounded by it: still waiting, and answered once the server speaks
            assertThat(waiting).isNotDone();
            proxy.releaseStalls();
            assertThat(waiting.get(BOUND_SECONDS, TimeUnit.SECONDS)).isEqualTo(7);
            assertThat(untimed.isValid(2)).isTrue();
        }
    }

    @Test
    void aQueryShorterThanTheTimeoutIsUnaffected() throws Exception {
        try (Connection c = JdbcTests.connect("modern")) {
            c.setNetworkTimeout(Runnable::run, 3000);
            for (int i = 0; i < 3; i++) { // silent for ~1 s each: no data, yet shorter than the timeout
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT sleep(1) + " + i)) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(i);
                }
            }
            assertThat(c.isValid(1)).isTrue();
        }
    }

    @Test
    void hikariEvictsTheTimedOutConnectionAndTheNextBorrowWorks() throws Exception {
        try (FaultProxy proxy = FaultProxy.forNativePort(ClickHouseServers.legacy())) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(url(proxy));
            config.setDriverClassName(ClickHouseDriver.class.getName());
            config.setMaximumPoolSize(1);
            config.setMinimumIdle(1);
            config.setValidationTimeout(1000);
            try (HikariDataSource ds = new HikariDataSource(config)) {
                ClickHouseSession first;
                try (Connection c = ds.getConnection()) {
                    first = c.unwrap(ClickHouseSession.class);
                    c.setNetworkTimeout(Runnable::run, 500);
                    proxy.stallAll(FaultProxy.Direction.SERVER_TO_CLIENT);
                    SQLException e = failure(selectAsync(c, 1));
                    assertThat(e.getSQLState()).isEqualTo("08006");
                }
                proxy.releaseStalls();
                try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT 5")) {
                    assertThat(c.unwrap(ClickHouseSession.class)).isNotSameAs(first);
                    assertThat(c.getNetworkTimeout()).isZero(); // a fresh connection: no timeout carried over
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(5);
                }
            }
        }
    }
}
