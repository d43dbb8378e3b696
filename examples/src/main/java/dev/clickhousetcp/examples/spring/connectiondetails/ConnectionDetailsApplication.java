package dev.clickhousetcp.examples.spring.connectiondetails;

import java.util.List;
import java.util.Map;

import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Where the server is, as a bean: a {@link ClickHouseTcpConnectionDetails} bean replaces the
 * {@code clickhouse.tcp.url/host/port/endpoints/username/password/database} properties (the others, such
 * as timeouts and pool size, still apply). This is the mechanism behind {@code @ServiceConnection}: in a
 * test with Docker, Testcontainers and {@code org.testcontainers:testcontainers-clickhouse} you write
 *
 * <pre>
 * &#64;SpringBootTest
 * &#64;Testcontainers
 * class OrdersTests {
 *     &#64;Container
 *     &#64;ServiceConnection
 *     static ClickHouseContainer clickhouse = new ClickHouseContainer("clickhouse/clickhouse-server:25.8");
 * }
 * </pre>
 *
 * and the starter's {@code ClickHouseTcpContainerConnectionDetailsFactory} defines exactly such a bean
 * from the container (its host, mapped native port, user, password and database). Without Docker, define
 * the bean yourself, as here, e.g. in a {@code @TestConfiguration} pointing at a server you started.
 */
@SpringBootApplication
public class ConnectionDetailsApplication {

    @Bean
    ClickHouseTcpConnectionDetails clickHouseTcpConnectionDetails(Environment env) {
        String host = env.getProperty("example.clickhouse.host", "127.0.0.1");
        int port = env.getProperty("example.clickhouse.port", Integer.class, 19000);
        return new ClickHouseTcpConnectionDetails() {
            @Override
            public List<Node> getNodes() {
                return List.of(new Node(host, port));
            }

            @Override
            public String getUsername() {
                return "default";
            }
        };
    }

    public static void main(String[] args) {
        try (ConfigurableApplicationContext context = start(args)) {
            System.out.println(whereAmI(context.getBean(ClickHouseTcpTemplate.class)));
        }
    }

    /** Starts the application; the caller closes the context. */
    public static ConfigurableApplicationContext start(String... args) {
        SpringApplication app = new SpringApplication(ConnectionDetailsApplication.class);
        app.setDefaultProperties(Map.of("spring.main.banner-mode", "off"));
        return app.run(args);
    }

    /** The user and the native port of the server the template reached. */
    public static String whereAmI(ClickHouseTcpTemplate template) {
        return template.queryForObject("SELECT currentUser() || '@' || toString(tcpPort())", String.class);
    }
}
