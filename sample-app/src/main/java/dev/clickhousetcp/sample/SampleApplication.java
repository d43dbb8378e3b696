package dev.clickhousetcp.sample;

import dev.clickhousetcp.spring.aot.ClickHouseMappedTypes;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;

/**
 * A small event-analytics web app on the ClickHouse native TCP starter: ingest events over HTTP, ask
 * for counts, top users and a timeline, export them, run reports. See {@link EventController},
 * {@link ReportController} and {@link TraceController} for the endpoints. The records the
 * analytics queries map to are declared with {@link ClickHouseMappedTypes}, so the AOT processing of the build
 * registers them for a native image.
 */
@SpringBootApplication
@EnableConfigurationProperties(EventsProperties.class)
@ClickHouseMappedTypes(classes = { Event.class, EventRepository.TypeCount.class, EventRepository.UserActivity.class,
        EventRepository.TimeBucket.class, EventRepository.ServerSpan.class })
public class SampleApplication {

    /**
     * Starts the app.
     * @param args command line arguments, passed to Spring Boot
     */
    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }

    /**
     * Carries the request's tracing context (and log correlation) to the threads of Spring Boot's task
     * executor, which also writes {@code StreamingResponseBody} responses: the export's query and log lines then
     * belong to the request's trace.
     * @return the decorator the auto-configured task executor applies to every task
     */
    @Bean
    TaskDecorator contextPropagatingTaskDecorator() {
        return new ContextPropagatingTaskDecorator();
    }
}
