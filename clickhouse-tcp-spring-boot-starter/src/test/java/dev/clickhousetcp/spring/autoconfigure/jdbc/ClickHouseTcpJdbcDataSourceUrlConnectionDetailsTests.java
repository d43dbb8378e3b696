package dev.clickhousetcp.spring.autoconfigure.jdbc;

import java.util.List;

import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails.Node;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client's {@link ClickHouseTcpConnectionDetails} from {@code spring.datasource.*} when that names one of the
 * driver's URLs and {@code clickhouse.tcp.*} names no server; explicit {@code clickhouse.tcp.*} and other details
 * beans win. No server needed: the client connects lazily.
 */
class ClickHouseTcpJdbcDataSourceUrlConnectionDetailsTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class,
                ClickHouseTcpJdbcConnectionDetailsAutoConfiguration.class, ClickHouseTcpJdbcAutoConfiguration.class));

    @Test
    void springDatasourceAloneGivesTheClientItsServersDatabaseAndCredentials() {
        this.runner
            .withPropertyValues("spring.datasource.url=jdbc:clickhouse:tcp://ch1:19000,ch2:19001/analytics",
                    "spring.datasource.username=app", "spring.datasource.password=s3cr3t-pw")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                ClickHouseTcpConnectionDetails details = context.getBean(ClickHouseTcpConnectionDetails.class);
                assertThat(details.getNodes()).containsExactly(new Node("ch1", 19000), new Node("ch2", 19001));
                assertThat(details.getDatabase()).isEqualTo("analytics");
                assertThat(details.getUsername()).isEqualTo("app");
                assertThat(details.getPassword()).isEqualTo("s3cr3t-pw");
                assertThat(details.getSslBundle()).isNull();
                assertThat(details.toString()).contains("ch1:19000", "app").doesNotContain("s3cr3t-pw");
            });
    }

    @Test
    void theUrlsOwnPartsAndTheOtherPrefixesCount() {
        this.runner.withPropertyValues("spring.datasource.url=jdbc:ch:tcp://reader:pw-in-url@10.0.0.7/logs")
            .run((context) -> {
                ClickHouseTcpConnectionDetails details = context.getBean(ClickHouseTcpConnectionDetails.class);
                assertThat(details.getNodes()).containsExactly(new Node("10.0.0.7", 9000));
                assertThat(details.getUsername()).isEqualTo("reader");
                assertThat(details.getPassword()).isEqualTo("pw-in-url");
                assertThat(details.getDatabase()).isEqualTo("logs");
                assertThat(details.toString()).doesNotContain("pw-in-url");
            });
        this.runner.withPropertyValues("spring.datasource.url=jdbc:clickhouse:tcps://secure-host/")
            .run((context) -> {
                ClickHouseTcpConnectionDetails details = context.getBean(ClickHouseTcpConnectionDetails.class);
                assertThat(details.getNodes()).containsExactly(new Node("secure-host", 9440));
                assertThat(details.getSslBundle()).isNotNull();
                assertThat(details.getUsername()).isEqualTo("default");
                assertThat(details.getDatabase()).isEqualTo("default");
            });
        this.runner.withPropertyValues("spring.datasource.url=jdbc:clickhouse:tcp://h:9001/db?ssl=true")
            .run((context) -> assertThat(context.getBean(ClickHouseTcpConnectionDetails.class).getSslBundle())
                .isNotNull());
    }

    @Test
    void explicitClickHouseTcpPropertiesWin() {
        String url = "spring.datasource.url=jdbc:clickhouse:tcp://jdbc-host:19000/jdbcdb";
        for (String endpoint : List.of("clickhouse.tcp.host=tcp-host", "clickhouse.tcp.url=clickhouse://tcp-host:9000",
                "clickhouse.tcp.endpoints=tcp-host:9000", "clickhouse.tcp.port=9000")) {
            this.runner.withPropertyValues(url, endpoint).run((context) -> {
                ClickHouseTcpConnectionDetails details = context.getBean(ClickHouseTcpConnectionDetails.class);
                assertThat(details.getNodes()).as(endpoint).noneMatch((node) -> node.host().equals("jdbc-host"));
                assertThat(details.getDatabase()).as(endpoint).isEqualTo("default");
            });
        }
        // credentials and database set under clickhouse.tcp win over spring.datasource's, the servers still come
        // from the URL
        this.runner
            .withPropertyValues(url, "spring.datasource.username=jdbc-user", "spring.datasource.password=jdbc-pw",
                    "clickhouse.tcp.username=tcp-user", "clickhouse.tcp.password=tcp-pw",
                    "clickhouse.tcp.database=tcpdb")
            .run((context) -> {
                ClickHouseTcpConnectionDetails details = context.getBean(ClickHouseTcpConnectionDetails.class);
                assertThat(details.getNodes()).containsExactly(new Node("jdbc-host", 19000));
                assertThat(details.getUsername()).isEqualTo("tcp-user");
                assertThat(details.getPassword()).isEqualTo("tcp-pw");
                assertThat(details.getDatabase()).isEqualTo("tcpdb");
            });
    }

    @Test
    void otherUrlsAndOtherDetailsBeansAreLeftAlone() {
        for (String url : List.of("jdbc:clickhouse://http-host:8123/db", "jdbc:postgresql://pg:5432/db")) {
            this.runner.withPropertyValues("spring.datasource.url=" + url).run((context) -> {
                assertThat(context.getBean(ClickHouseTcpConnectionDetails.class).getNodes()).as(url)
                    .containsExactly(new Node("localhost", 9000));
            });
        }
        this.runner.withUserConfiguration(OwnDetails.class)
            .withPropertyValues("spring.datasource.url=jdbc:clickhouse:tcp://jdbc-host:19000/db")
            .run((context) -> assertThat(context.getBean(ClickHouseTcpConnectionDetails.class).getNodes())
                .containsExactly(new Node("own-host", 9000)));
    }

    @Test
    void withoutTheDriverNothingIsDerived() {
        this.runner.withClassLoader(new org.springframework.boot.test.context.FilteredClassLoader(
                dev.clickhousetcp.jdbc.ClickHouseDriver.class))
            .withPropertyValues("spring.datasource.url=jdbc:clickhouse:tcp://jdbc-host:19000/db")
            .run((context) -> assertThat(context.getBean(ClickHouseTcpConnectionDetails.class).getNodes())
                .containsExactly(new Node("localhost", 9000)));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnDetails {

        @Bean
        ClickHouseTcpConnectionDetails ownDetails() {
            return () -> List.of(new Node("own-host", 9000));
        }

    }


}
