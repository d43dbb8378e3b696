package dev.clickhousetcp.sample;

import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The export streams with constant memory: the app runs in a child JVM with a 96 MB heap (its own needs
 * leave well under 64 MB for an export) and streams 2,000,000 events (about 100 MB of CSV; as objects they
 * would take several times the heap) to a client that counts the lines. It must deliver every row and not
 * run out of memory.
 */
@Tag("clickhouse")
class ExportMemoryTests {

    private static final int ROWS = 2_000_000;

    @Test
    void exportsTwoMillionRowsInA96MegabyteHeap() throws Exception {
        ClickHouseServer server = ClickHouseServers.modern();
        String table = "sample_app_export_" + UUID.randomUUID().toString().replace("-", "");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path log = Path.of("target", "export-memory-app.log");
        Files.createDirectories(log.getParent());
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m", "-XX:+UseSerialGC", "-cp", classpath, SampleApplication.class.getName(),
                "--server.port=" + port, "--clickhouse.tcp.host=" + server.host(),
                "--clickhouse.tcp.port=" + server.tcpPort(), "--sample.events.table=" + table,
                "--spring.main.banner-mode=off"));
        Process app = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            HttpClient http = HttpClient.newHttpClient();
            URI readiness = URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness");
            SampleApplicationTests.awaitTrue("the app in the child JVM to be ready", Duration.ofSeconds(90), () -> {
                assertThat(app.isAlive()).as("the child JVM is running; its log is %s", log.toAbsolutePath()).isTrue();
                try {
                    return http.send(HttpRequest.newBuilder(readiness).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode() == 200;
                }
                catch (java.io.IOException ex) {
                    return false;
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(ex);
                }
            });
            server.httpQuery("INSERT INTO " + table + " (event_time, user_id, event_type, value, tags) SELECT "
                    + "toDateTime64('2025-01-01 00:00:00', 3, 'UTC') + toIntervalMillisecond(number), number % 5000, "
                    + "['page_view', 'click', 'purchase'][number % 3 + 1], number / 100, ['web', 'promo'] "
                    + "FROM numbers(" + ROWS + ")");

            HttpResponse<InputStream> response = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/events/export?format=csv")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertThat(response.statusCode()).isEqualTo(200);
            long lines = 0;
            long bytes = 0;
            try (InputStream body = response.body()) {
                byte[] buffer = new byte[64 * 1024];
                int read;
                while ((read = body.read(buffer)) >= 0) {
                    bytes += read;
                    for (int i = 0; i < read; i++) {
                        if (buffer[i] == '\n') {
                            lines++;
                        }
                    }
                }
            }
            assertThat(lines).as("CSV lines (header and rows) in %s bytes", bytes).isEqualTo(ROWS + 1);
            assertThat(bytes).isGreaterThan(ROWS * 40L);
            assertThat(app.isAlive()).isTrue();
            assertThat(Files.readString(log)).doesNotContain("OutOfMemoryError").contains("Exported " + ROWS + " events");
        }
        finally {
            app.destroy();
            if (!app.waitFor(30, TimeUnit.SECONDS)) {
                app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            server.httpQuery("DROP TABLE IF EXISTS " + table);
        }
    }
}
