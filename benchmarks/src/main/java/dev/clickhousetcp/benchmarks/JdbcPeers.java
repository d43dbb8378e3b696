package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.jdbc.ClickHouseDataSource;
import dev.clickhousetcp.jdbc.ClickHouseDriver;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * JDBC connections to the benchmark server for the {@code jdbc} category. Each driver is called directly,
 * not through {@code DriverManager}: ClickHouse's HTTP driver ({@code com.clickhouse:jdbc-v2}) accepts
 * every {@code jdbc:clickhouse:} URL, so with three drivers on the class path {@code DriverManager} could
 * hand a URL to the wrong one.
 *
 * <p>All three are uncompressed, like the uncompressed arms of the other categories and housepower's
 * default. For jdbc-v2 this is also its fastest correct configuration on this loopback server: its
 * client-v2 transport read 1,000,000 rows in 167–204 ms uncompressed against 217–224 ms with
 * ClickHouse's LZ4 framing ({@code TransportReadBenchmark}, docs/performance.md), so {@code compress} and
 * {@code decompress} are {@code false} and HTTP content encoding stays off
 * ({@code client.use_http_compression=false}, its default). Every connection sends {@code async_insert=0}.
 */
final class JdbcPeers {
    private JdbcPeers() {
    }

    /** Our driver's URL: native port, no compression, {@code async_insert=0}. */
    static String ourUrl() {
        return "jdbc:clickhouse:tcp://" + BenchmarkServer.host() + ":" + BenchmarkServer.port()
                + "/default?user=default&compression=none&setting.async_insert=0";
    }

    /** A connection of our driver. */
    static Connection ours() throws SQLException {
        return new ClickHouseDriver().connect(ourUrl(), new Properties());
    }

    /** Our unpooled {@code DataSource}, for a HikariCP pool. */
    static ClickHouseDataSource ourDataSource() {
        return new ClickHouseDataSource(ourUrl());
    }

    /** A connection of {@code com.clickhouse:jdbc-v2} to the server's HTTP port (configuration: see above). */
    static Connection jdbcV2() throws SQLException {
        return jdbcV2(new Properties());
    }

    /**
     * A jdbc-v2 connection with {@code beta.row_binary_for_simple_insert=true}: a plain
     * {@code INSERT ... VALUES (?, ...)} batch is sent as RowBinary instead of SQL text.
     */
    static Connection jdbcV2RowBinary() throws SQLException {
        Properties p = new Properties();
        p.setProperty("beta.row_binary_for_simple_insert", "true");
        return jdbcV2(p);
    }

    private static Connection jdbcV2(Properties p) throws SQLException {
        p.setProperty("user", "default");
        p.setProperty("password", "");
        p.setProperty("compress", "false");
        p.setProperty("decompress", "false");
        p.setProperty("client.use_http_compression", "false");
        p.setProperty("clickhouse_setting_async_insert", "0");
        return new com.clickhouse.jdbc.Driver().connect(
                "jdbc:clickhouse:http://" + BenchmarkServer.host() + ":" + BenchmarkServer.httpPort() + "/default", p);
    }

    /** A connection of housepower {@code clickhouse-native-jdbc} (native port, its default: no compression). */
    static Connection housepower() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "default");
        p.setProperty("password", "");
        return new com.github.housepower.jdbc.ClickHouseDriver().connect(
                "jdbc:clickhouse://" + BenchmarkServer.host() + ":" + BenchmarkServer.port() + "/default", p);
    }
}
