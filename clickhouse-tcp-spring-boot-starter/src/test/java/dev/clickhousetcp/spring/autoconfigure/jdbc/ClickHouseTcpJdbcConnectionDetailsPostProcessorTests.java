package dev.clickhousetcp.spring.autoconfigure.jdbc;

import java.util.List;

import dev.clickhousetcp.jdbc.ClickHouseDriver;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Which {@link JdbcConnectionDetails} {@link ClickHouseTcpJdbcConnectionDetailsPostProcessor} changes, without a
 * server (no DataSource is made here).
 */
class ClickHouseTcpJdbcConnectionDetailsPostProcessorTests {

    private static final String HTTP_URL = "jdbc:clickhouse://docker-host:32768/analytics";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class,
                ClickHouseTcpJdbcAutoConfiguration.class));

    @Test
    void httpDetailsGiveWayToTheNativeDetailsOfTheSameServiceConnection() {
        this.runner.withBean(JdbcConnectionDetails.class, () -> jdbc(HTTP_URL, "com.clickhouse.jdbc.Driver"))
            .withBean(ClickHouseTcpConnectionDetails.class, () -> nativeDetails(null))
            .run((context) -> {
                JdbcConnectionDetails details = context.getBean(JdbcConnectionDetails.class);
                assertThat(details.getJdbcUrl()).isEqualTo("jdbc:clickhouse:tcp://docker-host:32769,[::1]:9000/analytics");
                assertThat(details.getDriverClassName()).isEqualTo(ClickHouseDriver.class.getName());
                assertThat(details.getUsername()).isEqualTo("native-user");
                assertThat(details.getPassword()).isEqualTo("native-pw");
                assertThat(details.toString()).doesNotContain("native-pw");
            });
    }

    @Test
    void httpDetailsStayWhenTheNativeOnesComeFromProperties() {
        // the application chose ClickHouse's HTTP driver for JDBC, e.g. @ServiceConnection(type = JdbcConnectionDetails.class)
        this.runner.withBean(JdbcConnectionDetails.class, () -> jdbc(HTTP_URL, "com.clickhouse.jdbc.Driver"))
            .withPropertyValues("clickhouse.tcp.host=elsewhere")
            .run((context) -> {
                JdbcConnectionDetails details = context.getBean(JdbcConnectionDetails.class);
                assertThat(details.getJdbcUrl()).isEqualTo(HTTP_URL);
                assertThat(details.getDriverClassName()).isEqualTo("com.clickhouse.jdbc.Driver");
            });
    }

    @Test
    void nativeDetailsWithAnSslBundleFailClearly() {
        this.runner.withBean(JdbcConnectionDetails.class, () -> jdbc(HTTP_URL, "com.clickhouse.jdbc.Driver"))
            .withBean(ClickHouseTcpConnectionDetails.class, () -> nativeDetails(SslBundle.of(null)))
            .run((context) -> {
                // the context starts (no DataSource here); a DataSource made from the details fails, saying why
                assertThat(context).hasNotFailed();
                assertThatIllegalStateException().isThrownBy(context.getBean(JdbcConnectionDetails.class)::getJdbcUrl)
                    .withMessageContaining("clickhouse.tcp.jdbc.enabled=true")
                    .withMessageContaining(HTTP_URL);
            });
    }

    @Test
    void theDriversUrlWithSpringBootsDerivedDriverClassGetsThisDriver() {
        this.runner.withBean(JdbcConnectionDetails.class, () -> jdbc("jdbc:ch:tcp://h:9000/db", null))
            .run((context) -> assertThat(context.getBean(JdbcConnectionDetails.class).getDriverClassName())
                .isEqualTo(ClickHouseDriver.class.getName()));
    }

    @Test
    void aDriverClassTheDetailsNameStays() {
        this.runner
            .withBean(JdbcConnectionDetails.class,
                    () -> jdbc("jdbc:clickhouse:tcp://h:9000/db", ClickHouseTcpJdbcAutoConfigurationTests.DelegatingDriver.class.getName()))
            .run((context) -> assertThat(context.getBean(JdbcConnectionDetails.class).getDriverClassName())
                .isEqualTo(ClickHouseTcpJdbcAutoConfigurationTests.DelegatingDriver.class.getName()));
    }

    /** JDBC details as an application or a service connection defines them; no driver class: Spring Boot's default. */
    private static JdbcConnectionDetails jdbc(String url, @Nullable String driverClassName) {
        return new JdbcConnectionDetails() {

            @Override
            public String getUsername() {
                return "http-user";
            }

            @Override
            public String getPassword() {
                return "http-pw";
            }

            @Override
            public String getJdbcUrl() {
                return url;
            }

            @Override
            public String getDriverClassName() {
                return (driverClassName != null) ? driverClassName : JdbcConnectionDetails.super.getDriverClassName();
            }

        };
    }

    private static ClickHouseTcpConnectionDetails nativeDetails(@Nullable SslBundle bundle) {
        return new ClickHouseTcpConnectionDetails() {

            @Override
            public List<Node> getNodes() {
                return List.of(new Node("docker-host", 32769), new Node("::1", 9000));
            }

            @Override
            public String getUsername() {
                return "native-user";
            }

            @Override
            public String getPassword() {
                return "native-pw";
            }

            @Override
            public String getDatabase() {
                return "analytics";
            }

            @Override
            public @Nullable SslBundle getSslBundle() {
                return bundle;
            }

            @Override
            public String toString() {
                return "test native details";
            }

        };
    }

}
