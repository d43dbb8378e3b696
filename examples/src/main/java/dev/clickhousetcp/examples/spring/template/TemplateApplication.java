package dev.clickhousetcp.examples.spring.template;

import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Spring Boot starter: with {@code clickhouse.tcp.*} properties (here host and port, defaulting to
 * 127.0.0.1:19000; pass {@code --clickhouse.tcp.port=9000} to change) the auto-configuration creates a
 * pooled {@code ClickHouseTcpClient} and a {@code ClickHouseTcpTemplate}; inject the template
 * ({@link PageViews}). Its exceptions are Spring's {@code DataAccessException}s. {@code main} records
 * 1 000 page views, prints the top pages and drops the table (name it with {@code --example.table=...};
 * default {@code example_page_views}).
 */
@SpringBootApplication
public class TemplateApplication {

    public static void main(String[] args) {
        try (ConfigurableApplicationContext context = start(args)) {
            PageViews pageViews = context.getBean(PageViews.class);
            try {
                pageViews.record(1_000);
                pageViews.topPages(3).forEach(System.out::println);
                System.out.println(pageViews.visitors("/page/0") + " visitors of /page/0");
            } finally {
                pageViews.dropTable();   // also after a failure: the next run starts clean
            }
        }
    }

    /** Starts the application; the caller closes the context. */
    public static ConfigurableApplicationContext start(String... args) {
        SpringApplication app = new SpringApplication(TemplateApplication.class);
        app.setDefaultProperties(Map.of(
                "clickhouse.tcp.host", "127.0.0.1",
                "clickhouse.tcp.port", "19000",
                "spring.main.banner-mode", "off"));
        return app.run(args);
    }
}
