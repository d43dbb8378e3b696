package dev.clickhousetcp.jdbc.springdata;

import dev.clickhousetcp.jdbc.ClickHouseDriver;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts {@link SpringDataTestApp} against a database of a test server. */
final class SpringDataContext {
    private SpringDataContext() {
    }

    static String url(ClickHouseServer server, String database) {
        return "jdbc:clickhouse:tcp://" + server.host() + ":" + server.tcpPort() + "/" + database;
    }

    /**
     * The application over {@code url} with a Hikari pool of {@code poolSize}; Boot's logging system is left out
     * so that the driver's System.Logger records stay where the tests capture them. Flyway, on this module's test
     * class path for its own tests, is switched off: these applications migrate nothing.
     */
    static ConfigurableApplicationContext start(String url, int poolSize) {
        System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
        return new SpringApplicationBuilder(SpringDataTestApp.class)
                .web(WebApplicationType.NONE)
                .properties("spring.datasource.url=" + url,
                        "spring.datasource.driver-class-name=" + ClickHouseDriver.class.getName(),
                        "spring.datasource.hikari.maximum-pool-size=" + poolSize,
                        "spring.datasource.hikari.minimum-idle=" + poolSize,
                        "spring.flyway.enabled=false",
                        "spring.main.banner-mode=off")
                .run();
    }
}
