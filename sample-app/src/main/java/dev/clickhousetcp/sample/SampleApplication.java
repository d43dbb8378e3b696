package dev.clickhousetcp.sample;

import dev.clickhousetcp.spring.aot.ClickHouseMappedTypes;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * A small event-analytics web app on the ClickHouse native TCP starter: ingest events over HTTP, ask
 * for counts, top users and a timeline. See {@link EventController} for the endpoints. The records the
 * analytics queries map to are declared with {@link ClickHouseMappedTypes}, so the AOT processing of the build
 * registers them for a native image.
 */
@SpringBootApplication
@EnableConfigurationProperties(EventsProperties.class)
@ClickHouseMappedTypes(classes = { EventRepository.TypeCount.class, EventRepository.UserActivity.class,
        EventRepository.TimeBucket.class })
public class SampleApplication {

    /**
     * Starts the app.
     * @param args command line arguments, passed to Spring Boot
     */
    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
