package example.consumer;

import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * Starts with the auto-configured template, asks the server for its version and a sum, does the same through the
 * JDBC driver (found by {@code DriverManager} through its service file), and exits.
 */
@SpringBootApplication
public class ConsumerApplication {

    public static void main(String[] args) {
        System.exit(SpringApplication.exit(SpringApplication.run(ConsumerApplication.class, args)));
    }

    @Bean
    CommandLineRunner check(ClickHouseTcpTemplate template, @Value("${clickhouse.tcp.host}") String host,
                            @Value("${clickhouse.tcp.port}") int port) {
        return args -> {
            String version = template.queryForObject("SELECT version()", String.class);
            Long sum = template.queryForObject("SELECT sum(number) FROM numbers(1000)", Long.class);
            if (sum == null || sum != 499500L) {
                throw new IllegalStateException("unexpected sum: " + sum);
            }
            System.out.println("consumer check: ClickHouse " + version + " answered through the starter");
            try (Connection c = DriverManager.getConnection("jdbc:clickhouse:tcp://" + host + ":" + port + "/default");
                 Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT sum(number) FROM numbers(1000)")) {
                if (!rs.next() || rs.getLong(1) != 499500L) {
                    throw new IllegalStateException("unexpected JDBC result");
                }
                System.out.println("consumer check: JDBC " + c.getMetaData().getDriverName() + " answered");
            }
        };
    }
}
