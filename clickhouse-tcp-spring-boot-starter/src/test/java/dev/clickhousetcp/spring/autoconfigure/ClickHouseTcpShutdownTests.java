package dev.clickhousetcp.spring.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.Await;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.GatedRows;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.dao.DataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Closing the application context while a thread outside any web request (a scheduled job, a consumer) inserts:
 * the client is closed after the web server's graceful-shutdown phase and waits
 * {@code clickhouse.tcp.pool.shutdown-grace} for the insert; past the grace the server cancels it and the caller
 * gets a clear exception.
 */
@ClickHouseTest
class ClickHouseTcpShutdownTests {

    private static final int ROWS = 30_000;

    private static final int GATE = 15_000;

    /** The phase of Spring Boot's {@code WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE}. */
    private static final int WEB_SERVER_GRACEFUL_SHUTDOWN_PHASE = SmartLifecycle.DEFAULT_PHASE - 1024;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        /** Stands in for the web server's graceful shutdown: the requests it lets finish still query ClickHouse. */
        @Bean
        GracefulPhase gracefulPhase(ClickHouseTcpTemplate template) {
            return new GracefulPhase(template);
        }

    }

    static final class GracefulPhase implements SmartLifecycle {

        static final AtomicReference<Object> answer = new AtomicReference<>();

        private final ClickHouseTcpTemplate template;

        private volatile boolean running;

        GracefulPhase(ClickHouseTcpTemplate template) {
            this.template = template;
        }

        @Override
        public void start() {
            this.running = true;
        }

        @Override
        public void stop() {
            try {
                answer.set(this.template.queryForObject("SELECT 42", Integer.class));
            }
            catch (RuntimeException ex) {
                answer.set(ex);
            }
            this.running = false;
        }

        @Override
        public boolean isRunning() {
            return this.running;
        }

        @Override
        public int getPhase() {
            return WEB_SERVER_GRACEFUL_SHUTDOWN_PHASE;
        }

    }

    private static ConfigurableApplicationContext start(ClickHouseServer server, String grace) {
        return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
            .properties("spring.main.banner-mode=off", "clickhouse.tcp.host=" + server.host(),
                    "clickhouse.tcp.port=" + server.tcpPort(), "clickhouse.tcp.pool.shutdown-grace=" + grace)
            .run();
    }

    private static void await(String what, BooleanSupplier condition) {
        Await.until(what, Duration.ofSeconds(30), condition);
    }

    private static long count(ClickHouseTcpClient observer, String sql) {
        return Long.parseLong(observer.queryRows(sql).get(0)[0].toString());
    }

    private static boolean running(ClickHouseTcpClient observer, String queryId) {
        return count(observer, "SELECT count() FROM system.processes WHERE query_id = '" + queryId + "'") > 0;
    }

    private static CompletableFuture<Long> insertOnAnotherThread(ConfigurableApplicationContext context,
            String table, GatedRows rows, String queryId) {
        ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
        return CompletableFuture.supplyAsync(() -> template.insertInto(table)
            .maxRowsPerBlock(10_000)
            .queryId(queryId)
            .insert(List.of("id"), rows));
    }

    private static ClickHouseTcpClient observer(ClickHouseServer server) {
        return ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort()).build();
    }

    /** A test body given a client that watches the server and a new table {@code (id UInt64)}. */
    private interface TableTest {

        void run(ClickHouseTcpClient observer, String table) throws Exception;

    }

    private static void withTable(ClickHouseServer server, String prefix, TableTest test) throws Exception {
        String table = prefix + Long.toHexString(System.nanoTime());
        try (ClickHouseTcpClient observer = observer(server)) {
            observer.execute("CREATE TABLE " + table + " (id UInt64) ENGINE = MergeTree ORDER BY id");
            try {
                test.run(observer, table);
            }
            finally {
                observer.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    @Test
    void closingTheContextWaitsForAnInsertOfAnotherThread(ClickHouseServer server) throws Exception {
        withTable(server, "spring_shutdown_kept_", (observer, table) -> {
            GracefulPhase.answer.set(null);
            ConfigurableApplicationContext context = start(server, "60s");
            ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
            GatedRows rows = new GatedRows(ROWS, GATE);
            CompletableFuture<Long> insert = insertOnAnotherThread(context, table, rows,
                    UUID.randomUUID().toString());
            assertThat(rows.awaitGate(30)).isTrue();
            CompletableFuture<Void> close = CompletableFuture.runAsync(context::close);
            await("the client's close to begin", () -> refusing(client));
            // the web server's graceful phase ran before, with the client still open
            assertThat(GracefulPhase.answer.get()).isEqualTo(42);
            assertThat(close).as("the context's close waits while the insert runs").isNotDone();
            rows.open();
            assertThat(insert.get(30, TimeUnit.SECONDS)).isEqualTo(ROWS);
            close.get(30, TimeUnit.SECONDS);
            assertThat(count(observer, "SELECT count() FROM " + table)).isEqualTo(ROWS);
        });
    }

    @Test
    void pastTheGraceTheServerCancelsTheInsertAndTheCallerIsTold(ClickHouseServer server) throws Exception {
        withTable(server, "spring_shutdown_cut_", (observer, table) -> {
            ConfigurableApplicationContext context = start(server, "300ms");
            GatedRows rows = new GatedRows(ROWS, GATE);
            String queryId = UUID.randomUUID().toString();
            CompletableFuture<Long> insert = insertOnAnotherThread(context, table, rows, queryId);
            assertThat(rows.awaitGate(30)).isTrue();
            await("the insert to run on the server", () -> running(observer, queryId));
            context.close(); // returns after the grace, the insert still held by its producer
            assertThat(insert).isNotDone();
            await("the server to cancel the insert", () -> !running(observer, queryId));
            rows.open();
            assertThatThrownBy(() -> insert.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(DataAccessException.class)
                .hasMessageContaining("client was closed and its shutdown grace of PT0.3S passed")
                .hasMessageContaining("the insert may have been applied")
                .satisfies((ex) -> assertThat(ex.getCause()).isInstanceOf(ClickHouseConnectionException.class));
            assertThat(count(observer, "SELECT count() FROM " + table)).isLessThan(ROWS);
        });
    }

    private static boolean refusing(ClickHouseTcpClient client) {
        try {
            client.queryRows("SELECT 1");
            return false;
        }
        catch (RuntimeException ex) {
            assertThat(ex).hasMessageContaining("pool is closed");
            return true;
        }
    }

}
