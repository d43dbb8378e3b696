package dev.clickhousetcp.jdbc.springdata;

import java.util.UUID;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;

/**
 * The Boot application of the Spring Data JDBC and transaction tests: Boot's DataSource (HikariCP), JdbcTemplate,
 * DataSourceTransactionManager and Spring Data JDBC repositories of this package, auto-configured.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(EventService.class)
public class SpringDataTestApp {

    /** The application assigns IDs (ClickHouse generates no keys): a new {@link Event} gets a random UUID. */
    @Bean
    BeforeConvertCallback<Event> assignEventId() {
        return event -> {
            if (event.getId() == null) {
                event.setId(UUID.randomUUID());
            }
            return event;
        };
    }
}
