package dev.clickhousetcp.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * A small event-analytics web app on the ClickHouse native TCP starter: ingest events over HTTP, ask
 * for counts, top users and a timeline. See {@link EventController} for the endpoints.
 */
@SpringBootApplication
@EnableConfigurationProperties(EventsProperties.class)
public class SampleApplication {

    /**
     * Starts the app.
     * @param args command line arguments, passed to Spring Boot
     */
    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
