package example.consumer;

import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** Starts with the auto-configured template, asks the server for its version and a sum, and exits. */
@SpringBootApplication
public class ConsumerApplication {

    public static void main(String[] args) {
        System.exit(SpringApplication.exit(SpringApplication.run(ConsumerApplication.class, args)));
    }

    @Bean
    CommandLineRunner check(ClickHouseTcpTemplate template) {
        return args -> {
            String version = template.queryForObject("SELECT version()", String.class);
            Long sum = template.queryForObject("SELECT sum(number) FROM numbers(1000)", Long.class);
            if (sum == null || sum != 499500L) {
                throw new IllegalStateException("unexpected sum: " + sum);
            }
            System.out.println("consumer check: ClickHouse " + version + " answered through the starter");
        };
    }
}
