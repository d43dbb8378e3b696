package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Closed objects, result navigation, max rows, cancel races and bad connection input. */
@ClickHouseTest
class CornerCaseTest {

    private static void assertClosedError(Throwable e) {
        assertThat(e).isInstanceOf(SQLException.class);
        assertThat(((SQLException) e).getSQLState()).isIn("08003", "HY010");
    }

    @Test
    void closedObjectsFailClearly() throws SQLException {
        Connection c = JdbcTests.connect("modern");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT number FROM numbers(10)");
        assertThat(s.getResultSet()).isSameAs(rs);
        assertThat(s.getResultSet()).isSameAs(rs);
        assertThat(rs.next()).isTrue();
        s.close();
        assertThat(rs.isClosed()).isTrue();
        assertThatThrownBy(rs::next).satisfies(CornerCaseTest::assertClosedError);
        assertThatThrownBy(() -> rs.getLong(1)).satisfies(CornerCaseTest::assertClosedError);
        assertThatThrownBy(rs::getMetaData).satisfies(CornerCaseTest::assertClosedError);
        assertThatThrownBy(() -> s.executeQuery("SELECT 1")).satisfies(CornerCaseTest::assertClosedError);
        assertThatThrownBy(s::getResultSet).satisfies(CornerCaseTest::assertClosedError);
        PreparedStatement ps = c.prepareStatement("SELECT ?");
        ResultSet open = c.createStatement().executeQuery("SELECT number FROM numbers(100000000)");
        assertThat(open.next()).isTrue();
        c.close();
        assertThat(open.isClosed()).isTrue();
        assertThatThrownBy(open::next).satisfies(CornerCaseTest::assertClosedError);
        assertThatThrownBy(() -> ps.setInt(1, 1)).satisfies(CornerCaseTest::assertClosedError);
        assertThatThrownBy(ps::executeQuery).satisfies(CornerCaseTest::assertClosedError);
        assertThatThrownBy(c::createStatement).satisfies(CornerCaseTest::assertClosedError);
        assertThatThrownBy(() -> c.prepareStatement("SELECT 1")).satisfies(CornerCaseTest::assertClosedError);
        assertThatThrownBy(c::getMetaData).satisfies(CornerCaseTest::assertClosedError);
        assertThatThrownBy(() -> c.setAutoCommit(false)).satisfies(CornerCaseTest::assertClosedError);
        assertThatThrownBy(c::getSchema).satisfies(CornerCaseTest::assertClosedError);
        assertThat(c.isValid(1)).isFalse();
        c.close(); // twice is fine
    }

    @Test
    void executeQueryOnDdlThrowsAndExecuteUpdateOnSelectThrows() throws SQLException {
        String t = JdbcTests.table("jdbc_corner");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeQuery("CREATE TABLE " + t + " (x UInt8) ENGINE = Memory"))
                    .isInstanceOf(SQLException.class);
            try {
                assertThatThrownBy(() -> s.executeUpdate("SELECT 1")).isInstanceOf(SQLException.class);
                assertThat(s.executeUpdate("INSERT INTO " + t + " VALUES (1), (2)")).isEqualTo(2);
                try (PreparedStatement ps = c.prepareStatement("SELECT count() FROM " + t)) {
                    assertThatThrownBy(ps::executeUpdate).isInstanceOf(SQLException.class);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        assertThat(rs.getLong(1)).isEqualTo(2);
                    }
                }
                try (ResultSet rs = s.executeQuery("SELECT 1;")) {
                    assertThat(rs.next()).isTrue();
                }
                try (ResultSet rs = s.executeQuery("\n\n-- x\n/* y */ WITH q AS (SELECT 3 AS v) SELECT v FROM q;  \n")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(3);
                }
            } finally {
                s.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void maxRowsOnAHugeStreamCancelsTheServerQuery() throws Exception {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.setMaxRows(5);
            String marker = "jdbc_maxrows_" + System.nanoTime();
            int n = 0;
            try (ResultSet rs = s.executeQuery("SELECT number, '" + marker + "' FROM system.numbers")) {
                while (rs.next()) {
                    n++;
                }
            }
            assertThat(n).isEqualTo(5);
            s.setMaxRows(0);
            try (Connection other = JdbcTests.connect("modern"); Statement o = other.createStatement()) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                long running;
                do {
                    try (ResultSet rs = o.executeQuery("SELECT count() FROM system.processes WHERE query LIKE '%" + marker
                            + "%' AND query NOT LIKE '%system.processes%'")) {
                        rs.next();
                        running = rs.getLong(1);
                    }
                } while (running > 0 && System.nanoTime() < deadline);
                assertThat(running).isZero();
            }
            try (ResultSet rs = s.executeQuery("SELECT 7")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(7);
            }
        }
    }

    @Test
    void cancelAtRandomMomentsNeverReportsPartialResultsAsComplete() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection c = JdbcTests.connect("modern")) {
            int complete = 0;
            int cancelled = 0;
            for (int run = 0; run < 50; run++) {
                try (Statement s = c.createStatement()) {
                    long delay = ThreadLocalRandom.current().nextLong(0, 30);
                    Future<?> f = pool.submit(() -> {
                        try {
                            Thread.sleep(delay);
                            s.cancel();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                        return null;
                    });
                    long rows = 0;
                    long sum = 0;
                    try (ResultSet rs = s.executeQuery("SELECT number FROM numbers(300000) SETTINGS max_block_size = 1000")) {
                        while (rs.next()) {
                            rows++;
                            sum += rs.getLong(1);
                        }
                        assertThat(rows).isEqualTo(300000);
                        assertThat(sum).isEqualTo(300000L * 299999 / 2);
                        complete++;
                    } catch (SQLException e) {
                        assertThat(e.getSQLState()).as(e.toString()).isEqualTo("HY008");
                        cancelled++;
                    }
                    f.get(10, TimeUnit.SECONDS);
                }
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT " + run)) {
                    rs.next();
                    assertThat(rs.getInt(1)).isEqualTo(run);
                }
            }
            assertThat(complete + cancelled).isEqualTo(50);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void twoThreadsOnOneConnection() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Connection c = JdbcTests.connect("modern")) {
            List<Future<Long>> results = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int k = t + 1;
                results.add(pool.submit(() -> {
                    long total = 0;
                    for (int i = 0; i < 30; i++) {
                        try (Statement s = c.createStatement();
                             ResultSet rs = s.executeQuery("SELECT number * " + k + " FROM numbers(20000) SETTINGS max_block_size = 512")) {
                            long sum = 0;
                            while (rs.next()) {
                                sum += rs.getLong(1);
                            }
                            assertThat(sum).isEqualTo(k * 20000L * 19999 / 2);
                            total += sum;
                        }
                    }
                    return total;
                }));
            }
            for (int t = 0; t < 2; t++) {
                assertThat(results.get(t).get(60, TimeUnit.SECONDS)).isEqualTo(30L * (t + 1) * 20000L * 19999 / 2);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void badUrlsAndPropertiesNameTheProblem() {
        String base = "jdbc:clickhouse:tcp://" + ClickHouseServers.legacy().host() + ":" + ClickHouseServers.legacy().tcpPort();
        for (String[] bad : new String[][] {
                {base + "/default?compression=gzip", "compression"},
                {base + "/default?connectTimeout=abc", "connectTimeout"},
                {base + "/default?socketTimeout=-5", "socketTimeout"},
                {base + "/default?transactionMode=maybe", "transactionMode"},
                {base + "/default?insertBlockRows=0", "insertBlockRows"},
                {base + "/default?insertBlockRows=-1", "insertBlockRows"},
                {base + "/default?maxPoolSize=0", "maxPoolSize"},
                {base + "/default?queryTimeout=1.5", "queryTimeout"},
                {base + "/default?multiStatement=yes", "multiStatement"},
                {base + "/default?ssl=perhaps", "ssl"},
        }) {
            assertThatThrownBy(() -> DriverManager.getConnection(bad[0])).as(bad[0])
                    .isInstanceOf(SQLException.class).hasMessageContaining(bad[1]);
        }
        for (String url : new String[] {"jdbc:clickhouse:tcp://:9000/x",
                "jdbc:clickhouse:tcp://host:notaport/db", "jdbc:clickhouse:tcp://host:99999/db"}) {
            assertThatThrownBy(() -> DriverManager.getConnection(url)).as(url).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
        }
    }

    /**
     * 18.16 (below revision 54429) reads each setting of a query in its binary form: a value the client cannot
     * write in that form is refused before anything is sent, naming the setting, instead of a packet the server
     * misreads and never answers (the socket timeout then ran out).
     */
    @Test
    void aSettingValueTheLegacyBinaryFormCannotCarryIsRefusedNamingIt() throws SQLException {
        String base = JdbcTests.url(ClickHouseServers.legacy()) + "?socketTimeout=5000&";
        for (String[] bad : new String[][] {
                {"setting.max_threads=abc", "max_threads"},
                {"setting.max_block_size=1.5", "max_block_size"},
                {"setting.distributed_ddl_task_timeout=-1", "distributed_ddl_task_timeout"},
        }) {
            try (Connection c = DriverManager.getConnection(base + bad[0]); Statement s = c.createStatement()) {
                assertThatThrownBy(() -> s.executeQuery("SELECT 1")).as(bad[0])
                        .isInstanceOf(SQLException.class).hasMessageContaining(bad[1])
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).doesNotStartWith("08"));
            }
        }
        // a refused per-query setting leaves the session's connection usable
        try (Connection c = DriverManager.getConnection(base); Statement s = c.createStatement()) {
            dev.clickhousetcp.client.ClickHouseSession session = c.unwrap(dev.clickhousetcp.client.ClickHouseSession.class);
            assertThatThrownBy(() -> session.query("SELECT 1", dev.clickhousetcp.client.QueryOptions.builder()
                    .setting("max_threads", "auto").build())).hasMessageContaining("max_threads");
            try (ResultSet rs = s.executeQuery("SELECT 41 + 1")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(42);
            }
        }
        // floats and strings still travel as strings, integers as VarUInt
        try (Connection c = DriverManager.getConnection(base + "setting.max_threads=2&setting.totals_auto_threshold=0.25"
                + "&setting.input_format_allow_errors_ratio=0.5&setting.send_logs_level=none");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT value FROM system.settings WHERE name IN ('max_threads',"
                     + " 'totals_auto_threshold', 'input_format_allow_errors_ratio') ORDER BY name")) {
            List<String> values = new ArrayList<>();
            while (rs.next()) {
                values.add(rs.getString(1));
            }
            assertThat(values).containsExactly("0.5", "2", "0.25");
        }
    }

    @Test
    void wrongPasswordOnLegacyIsAnAuthorizationErrorWithoutThePassword() {
        String url = JdbcTests.url(ClickHouseServers.legacy());
        String secret = "s3cr3t-Wr0ng-pw";
        Properties p = new Properties();
        p.setProperty("user", "tcp_secret");
        p.setProperty("password", secret);
        assertThatThrownBy(() -> DriverManager.getConnection(url, p))
                .isInstanceOf(java.sql.SQLInvalidAuthorizationSpecException.class)
                .satisfies(e -> {
                    assertThat(((SQLException) e).getSQLState()).startsWith("28");
                    assertThat(stackText(e)).doesNotContain(secret);
                });
        String inUrl = "jdbc:clickhouse:tcp://tcp_secret:" + secret + "@" + ClickHouseServers.legacy().host() + ":"
                + ClickHouseServers.legacy().tcpPort() + "/default";
        assertThatThrownBy(() -> DriverManager.getConnection(inUrl))
                .isInstanceOf(java.sql.SQLInvalidAuthorizationSpecException.class)
                .satisfies(e -> assertThat(stackText(e)).doesNotContain(secret));
        assertThatThrownBy(() -> DriverManager.getConnection(inUrl + "?compression=gzip"))
                .satisfies(e -> assertThat(stackText(e)).doesNotContain(secret));
    }

    @Test
    void passwordNeverInToStringOrMetadata() throws SQLException {
        String url = "jdbc:clickhouse:tcp://tcp_secret:tcp-secret-pw@" + ClickHouseServers.legacy().host() + ":"
                + ClickHouseServers.legacy().tcpPort() + "/default";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            assertThat(c.toString()).doesNotContain("tcp-secret-pw");
            assertThat(s.toString()).doesNotContain("tcp-secret-pw");
            assertThat(c.getMetaData().getURL()).doesNotContain("tcp-secret-pw");
            try (PreparedStatement ps = c.prepareStatement("SELECT ?")) {
                assertThat(ps.toString()).doesNotContain("tcp-secret-pw");
            }
        }
        ClickHouseDataSource ds = new ClickHouseDataSource();
        ds.setUrl(url);
        ds.setPassword("tcp-secret-pw");
        assertThat(ds.toString()).doesNotContain("tcp-secret-pw");
    }

    @Test
    void passwordInTheQueryStringNeverPrinted() throws SQLException {
        String base = JdbcTests.url(ClickHouseServers.legacy());
        for (String url : List.of(base + "?user=tcp_secret&password=tcp-secret-pw",
                base + "?password=tcp-secret-pw&user=tcp_secret&setting.max_threads=2",
                base + "?user=tcp_secret&PASSWORD=tcp-secret-pw")) {
            try (Connection c = DriverManager.getConnection(url)) {
                assertThat(c.getMetaData().getUserName()).isEqualTo("tcp_secret");
                assertThat(c.toString()).doesNotContain("tcp-secret-pw");
                assertThat(c.getMetaData().getURL()).doesNotContain("tcp-secret-pw").contains("tcp_secret");
            }
            for (java.sql.DriverPropertyInfo i : new ClickHouseDriver().getPropertyInfo(url, new Properties())) {
                assertThat(i.value).as(i.name).isNotEqualTo("tcp-secret-pw");
            }
            ClickHouseDataSource ds = new ClickHouseDataSource();
            ds.setUrl(url);
            assertThat(ds.toString()).doesNotContain("tcp-secret-pw");
            assertThatThrownBy(() -> DriverManager.getConnection(url + "&compression=gzip"))
                    .satisfies(e -> assertThat(stackText(e)).doesNotContain("tcp-secret-pw"));
        }
        Properties p = new Properties();
        p.setProperty("user", "tcp_secret");
        p.setProperty("password", "tcp-secret-pw");
        try (Connection c = DriverManager.getConnection(base + "?setting.max_threads=2", p)) {
            assertThat(c.toString()).doesNotContain("tcp-secret-pw");
            assertThat(c.getMetaData().getURL()).doesNotContain("tcp-secret-pw");
        }
    }

    @Test
    void preparedStatementToStringHidesSecretsOfItsSql() throws SQLException {
        try (Connection c = JdbcTests.connect("modern")) {
            for (String sql : List.of("CREATE USER u_x IDENTIFIED BY 'Hunter2Secret'",
                    "SELECT * FROM mysql('h:3306', 'db', 't', 'usr', 'Hunter2Secret') WHERE x = ?",
                    "SELECT * FROM s3('http://b/k', 'AKIA', 'Hunter2Secret') WHERE x = ?")) {
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    assertThat(ps.toString()).doesNotContain("Hunter2Secret").contains("[HIDDEN]");
                }
            }
        }
    }

    private static String stackText(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            b.append(t).append('\n');
            for (Throwable s : t.getSuppressed()) {
                b.append(s).append('\n');
            }
        }
        return b.toString();
    }
}
