package dev.clickhousetcp.spring.autoconfigure.jdbc;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.UUID;
import java.util.logging.Logger;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.clickhousetcp.client.ClickHouseSession;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.PoolStats;
import dev.clickhousetcp.jdbc.ClickHouseClientDataSource;
import dev.clickhousetcp.jdbc.ClickHouseDriver;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.LegacyServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link ClickHouseTcpJdbcAutoConfiguration} with Spring Boot's DataSource and JdbcTemplate auto-configuration,
 * against the real ClickHouse 26.7 server: the driver class for the driver's URLs (AT-02), HikariCP over it, and
 * the opt-in DataSource over the client's own pool.
 */
@ClickHouseTest
class ClickHouseTcpJdbcAutoConfigurationTests {

    private static ClickHouseServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class,
                ClickHouseTcpJdbcAutoConfiguration.class, DataSourceAutoConfiguration.class,
                JdbcTemplateAutoConfiguration.class));

    @BeforeAll
    static void server(ClickHouseServer modern) {
        server = modern;
    }

    private String url(String scheme) {
        return scheme + "//" + server.host() + ":" + server.tcpPort() + "/default";
    }

    private ApplicationContextRunner client() {
        return this.runner.withPropertyValues("clickhouse.tcp.host=" + server.host(),
                "clickhouse.tcp.port=" + server.tcpPort());
    }

    @Test
    void springDatasourceUrlAloneGivesHikariOverThisDriver() {
        this.runner.withPropertyValues("spring.datasource.url=" + url("jdbc:clickhouse:tcp:")).run((context) -> {
            assertThat(context).hasNotFailed();
            HikariDataSource dataSource = context.getBean(HikariDataSource.class);
            assertThat(dataSource.getDriverClassName()).isEqualTo(ClickHouseDriver.class.getName());
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            assertThat(jdbc.queryForObject("SELECT version()", String.class)).startsWith("26.");
            try (Connection connection = dataSource.getConnection()) {
                assertThat(connection.getMetaData().getDriverName()).isEqualTo(ClickHouseDriver.NAME);
                assertThat(connection.isWrapperFor(ClickHouseSession.class)).isTrue();
                assertThat(connection.isValid(1)).isTrue();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { "jdbc:clickhouse:tcp:", "jdbc:ch:tcp:", "jdbc:clickhouse:tcps:", "jdbc:ch:tcps:",
            "JDBC:ClickHouse:TCP:" })
    void everyFormOfTheDriversUrlGetsTheDriverClass(String scheme) {
        this.runner.withPropertyValues("spring.datasource.url=" + url(scheme)).run((context) -> {
            assertThat(context.getBean(DataSourceProperties.class).determineDriverClassName())
                .isEqualTo(ClickHouseDriver.class.getName());
            assertThat(context.getBean(JdbcConnectionDetails.class).getDriverClassName())
                .isEqualTo(ClickHouseDriver.class.getName());
            assertThat(context.getBean(HikariDataSource.class).getDriverClassName())
                .isEqualTo(ClickHouseDriver.class.getName());
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { "jdbc:clickhouse://127.0.0.1:8123/default", "jdbc:ch:http://127.0.0.1:8123/default",
            "jdbc:postgresql://127.0.0.1/db" })
    void otherUrlsKeepSpringBootsDriverClass(String url) {
        // without a pool class, DataSourceProperties is bound but no DataSource made from the other drivers' URLs
        this.runner.withClassLoader(new FilteredClassLoader(HikariDataSource.class))
            .withPropertyValues("spring.datasource.url=" + url)
            .run((context) -> {
            assertThat(context.getBean(DataSourceProperties.class).getDriverClassName()).isNull();
            assertThat(context.getBean(DataSourceProperties.class).determineDriverClassName())
                .isNotEqualTo(ClickHouseDriver.class.getName());
        });
    }

    @Test
    void explicitDriverClassNameWins() {
        this.runner
            .withPropertyValues("spring.datasource.url=" + url("jdbc:clickhouse:tcp:"),
                    "spring.datasource.driver-class-name=" + DelegatingDriver.class.getName())
            .run((context) -> {
                assertThat(context.getBean(HikariDataSource.class).getDriverClassName())
                    .isEqualTo(DelegatingDriver.class.getName());
                assertThat(context.getBean(JdbcTemplate.class).queryForObject("SELECT 1", Integer.class)).isOne();
            });
        this.runner
            .withPropertyValues("spring.datasource.url=" + url("jdbc:clickhouse:tcp:"),
                    "spring.datasource.hikari.driver-class-name=" + DelegatingDriver.class.getName())
            .run((context) -> assertThat(context.getBean(HikariDataSource.class).getDriverClassName())
                .isEqualTo(DelegatingDriver.class.getName()));
    }

    /**
     * The HikariCP settings docs/jdbc.md recommends: schema (HikariCP resets a dirtied database on return only
     * when it is set), a connection-init-sql, read-only, a validation timeout; a borrower that switched the
     * database gives a connection back that the next borrower sees on the configured one.
     */
    @Test
    void hikariSettingsWork() {
        this.runner
            .withPropertyValues("spring.datasource.url=" + url("jdbc:clickhouse:tcp:"),
                    "spring.datasource.hikari.schema=default", "spring.datasource.hikari.maximum-pool-size=1",
                    "spring.datasource.hikari.connection-init-sql=SELECT 1",
                    "spring.datasource.hikari.validation-timeout=1000", "spring.datasource.hikari.auto-commit=false")
            .run((context) -> {
                HikariDataSource dataSource = context.getBean(HikariDataSource.class);
                try (Connection connection = dataSource.getConnection()) {
                    connection.setSchema("system");
                    assertThat(connection.getSchema()).isEqualTo("system");
                }
                try (Connection connection = dataSource.getConnection()) {
                    assertThat(connection.getSchema()).isEqualTo("default");
                    assertThat(connection.getAutoCommit()).isFalse();
                    assertThat(connection.createStatement().executeQuery("SELECT currentDatabase()").next()).isTrue();
                    connection.commit();
                }
                assertThat(dataSource.getHikariPoolMXBean().getTotalConnections()).isOne();
            });
    }

    @Test
    void withoutTheDriverOnTheClassPathNothingChanges() {
        this.runner.withClassLoader(new FilteredClassLoader(ClickHouseDriver.class, HikariDataSource.class))
            .withPropertyValues("spring.datasource.url=" + url("jdbc:clickhouse:tcp:"), "clickhouse.tcp.jdbc.enabled=true")
            .run((context) -> {
                assertThat(context).hasNotFailed()
                    .doesNotHaveBean(ClickHouseTcpDataSourcePropertiesPostProcessor.class)
                    .doesNotHaveBean(ClickHouseTcpJdbcConnectionDetailsPostProcessor.class)
                    .doesNotHaveBean(ClickHouseTcpJdbcProperties.class);
                assertThat(context.getBean(DataSourceProperties.class).determineDriverClassName())
                    .isEqualTo("com.clickhouse.jdbc.ClickHouseDriver");
            });
    }

    /** Without spring.datasource.url, Spring Boot's pool reaches the client's servers as the client's user. */
    @Test
    void withoutAUrlHikariUsesTheClientsConnectionDetails() {
        client().withPropertyValues("clickhouse.tcp.username=" + ClickHouseServer.SECRET_USER,
                "clickhouse.tcp.password=" + ClickHouseServer.SECRET_PASSWORD, "clickhouse.tcp.database=system")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                HikariDataSource dataSource = context.getBean(HikariDataSource.class);
                assertThat(dataSource.getJdbcUrl())
                    .isEqualTo("jdbc:clickhouse:tcp://" + server.host() + ":" + server.tcpPort() + "/system");
                assertThat(dataSource.getDriverClassName()).isEqualTo(ClickHouseDriver.class.getName());
                assertThat(context.getBean(JdbcConnectionDetails.class).toString())
                    .doesNotContain(ClickHouseServer.SECRET_PASSWORD);
                assertThat(context.getBean(JdbcTemplate.class)
                    .queryForObject("SELECT concat(currentUser(), '/', currentDatabase())", String.class))
                    .isEqualTo(ClickHouseServer.SECRET_USER + "/system");
            });
    }

    /** A client with an SSL bundle gives no JDBC URL: Spring Boot's DataSource fails, naming the ways out. */
    @Test
    void withoutAUrlAClientWithAnSslBundleFailsTheDataSourceClearly(@LegacyServer ClickHouseServer legacy) {
        String ca = legacy.serverCertificatePem().orElseThrow().getParent().resolve("ca.crt").toString();
        client().withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
            .withPropertyValues("clickhouse.tcp.ssl.bundle=client",
                "spring.ssl.bundle.pem.client.truststore.certificate=file:" + ca)
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("clickhouse.tcp.jdbc.enabled=true"));
    }

    @Test
    void noDataSourceOverTheClientUnlessEnabled() {
        client().run((context) -> assertThat(context).hasNotFailed()
            .doesNotHaveBean(ClickHouseClientDataSource.class)
            .hasSingleBean(HikariDataSource.class));
    }

    @Test
    void dataSourceOverTheClientSharesItsPool() {
        String clientName = "jdbc-shared-" + UUID.randomUUID();
        client()
            .withPropertyValues("clickhouse.tcp.jdbc.enabled=true", "clickhouse.tcp.client-name=" + clientName,
                    "clickhouse.tcp.jdbc.properties.transactionMode=strict")
            .run((context) -> {
                assertThat(context).hasSingleBean(DataSource.class).doesNotHaveBean(HikariDataSource.class);
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                ClickHouseClientDataSource dataSource = context.getBean(ClickHouseClientDataSource.class);
                assertThat(dataSource.getClient()).isSameAs(client)
                    .isSameAs(context.getBean(ClickHouseTcpTemplate.class).getClient());
                assertThat(context.getBean(JdbcTemplate.class).getDataSource()).isSameAs(dataSource);

                PoolStats before = client.poolStats();
                try (Connection connection = dataSource.getConnection()) {
                    assertThat(client.poolStats().active()).isEqualTo(before.active() + 1);
                    assertThat(connection.unwrap(ClickHouseTcpClient.class)).isSameAs(client);
                    assertThatExceptionOfType(SQLFeatureNotSupportedException.class)
                        .isThrownBy(() -> connection.setAutoCommit(false)); // the configured driver option
                }
                assertThat(client.poolStats().active()).isEqualTo(before.active());
                // the JDBC query ran on the client's connection: the server saw the client's name
                JdbcClient jdbc = JdbcClient.create(dataSource);
                String queryId = "jdbc-shared-" + UUID.randomUUID();
                jdbc.sql("SELECT 1 /* " + queryId + " */").query(Integer.class).single();
                ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
                template.execute("SYSTEM FLUSH LOGS");
                assertThat(template.queryForObject("SELECT count() FROM system.query_log WHERE type = 'QueryFinish' "
                        + "AND query LIKE '%" + queryId + "%' AND client_name = '" + clientName + "'"
                        + " AND query NOT LIKE '%system.query_log%'", Long.class)).isOne();
            });
    }

    /** Pool size 1: while a JDBC connection is open, the template cannot get another connection. */
    @Test
    void jdbcConnectionsAndTheTemplateShareOnePoolLimit() {
        client()
            .withPropertyValues("clickhouse.tcp.jdbc.enabled=true", "clickhouse.tcp.pool.max-size=1",
                    "clickhouse.tcp.pool.acquire-timeout=300ms")
            .run((context) -> {
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
                DataSource dataSource = context.getBean(DataSource.class);
                try (Connection connection = dataSource.getConnection()) {
                    assertThat(client.poolStats().active()).isOne();
                    assertThat(client.poolStats().total()).isOne();
                    assertThatExceptionOfType(DataAccessException.class)
                        .isThrownBy(() -> template.queryForObject("SELECT 1", Integer.class));
                    assertThat(connection.createStatement().executeQuery("SELECT 1").next()).isTrue();
                }
                assertThat(client.poolStats().active()).isZero();
                assertThat(template.queryForObject("SELECT 1", Integer.class)).isOne();
                assertThat(context.getBean(JdbcTemplate.class).queryForObject("SELECT 2", Integer.class)).isEqualTo(2);
                assertThat(client.poolStats().total()).isLessThanOrEqualTo(1);
            });
    }

    @Test
    void dataSourceOverTheClientBacksOffForTheApplicationsOwn() {
        client().withPropertyValues("clickhouse.tcp.jdbc.enabled=true")
            .withUserConfiguration(OwnDataSource.class)
            .run((context) -> assertThat(context).doesNotHaveBean(ClickHouseClientDataSource.class)
                .getBean(DataSource.class)
                .isSameAs(context.getBean("ownDataSource")));
        client().withPropertyValues("clickhouse.tcp.jdbc.enabled=true",
                "spring.datasource.url=" + url("jdbc:clickhouse:tcp:"))
            .run((context) -> assertThat(context).doesNotHaveBean(ClickHouseClientDataSource.class)
                .hasSingleBean(HikariDataSource.class));
    }

    @Test
    void clientOwnedDriverPropertiesAreRefused() {
        client().withPropertyValues("clickhouse.tcp.jdbc.enabled=true", "clickhouse.tcp.jdbc.properties.user=other")
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("'user' is the client's to set"));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnDataSource {

        @Bean
        DataSource ownDataSource() {
            return new HikariDataSource();
        }

    }

    /** A driver of the application's own, named explicitly; it hands the driver's URLs to {@link ClickHouseDriver}. */
    public static final class DelegatingDriver implements Driver {

        private final ClickHouseDriver delegate = new ClickHouseDriver();

        @Override
        public Connection connect(String url, Properties info) throws SQLException {
            return this.delegate.connect(url, info);
        }

        @Override
        public boolean acceptsURL(String url) {
            return this.delegate.acceptsURL(url);
        }

        @Override
        public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
            return this.delegate.getPropertyInfo(url, info);
        }

        @Override
        public int getMajorVersion() {
            return 1;
        }

        @Override
        public int getMinorVersion() {
            return 0;
        }

        @Override
        public boolean jdbcCompliant() {
            return false;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

    }

}
