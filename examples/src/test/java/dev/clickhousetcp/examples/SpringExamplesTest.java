package dev.clickhousetcp.examples;

import dev.clickhousetcp.examples.spring.connectiondetails.ConnectionDetailsApplication;
import dev.clickhousetcp.examples.spring.template.PageViews;
import dev.clickhousetcp.examples.spring.template.TemplateApplication;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.UUID;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.DataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Spring Boot examples, started as applications against the 26.7 server. */
@ClickHouseTest
class SpringExamplesTest {

    @Test
    void template() {
        ClickHouseServer server = ClickHouseServers.modern();
        String table = "example_page_views_" + UUID.randomUUID().toString().replace("-", "");
        try (ConfigurableApplicationContext context = TemplateApplication.start("--clickhouse.tcp.host=" + server.host(),
                "--clickhouse.tcp.port=" + server.tcpPort(), "--example.table=" + table)) {
            PageViews pageViews = context.getBean(PageViews.class);
            pageViews.record(1_000);
            assertThat(pageViews.topPages(3)).isEqualTo(Http.rows(server, "SELECT page, count() AS views FROM " + table
                    + " GROUP BY page ORDER BY views DESC, page LIMIT 3").stream()
                    .map(r -> new PageViews.PageCount(r[0], Long.parseLong(r[1]))).toList());
            assertThat(pageViews.visitors("/page/0")).isEqualTo(Http.longValue(server,
                    "SELECT uniqExact(user_id) FROM " + table + " WHERE page = '/page/0'"));
        } finally {
            server.httpQuery("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void templateApplicationStartsWhileClickHouseIsDown() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        // nothing listens: the application still starts, and the first call that needs the table fails
        try (ConfigurableApplicationContext context = TemplateApplication.start("--clickhouse.tcp.host=127.0.0.1",
                "--clickhouse.tcp.port=" + closedPort, "--clickhouse.tcp.connection.connect-timeout=2s")) {
            PageViews pageViews = context.getBean(PageViews.class);
            assertThatThrownBy(() -> pageViews.topPages(3)).isInstanceOf(DataAccessException.class);
        }
    }

    @Test
    void connectionDetailsBeanWinsOverProperties() throws IOException {
        ClickHouseServer server = ClickHouseServers.modern();
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        // clickhouse.tcp.port names a dead port: the connection details bean replaces it
        try (ConfigurableApplicationContext context = ConnectionDetailsApplication.start(
                "--example.clickhouse.host=" + server.host(), "--example.clickhouse.port=" + server.tcpPort(),
                "--clickhouse.tcp.host=127.0.0.1", "--clickhouse.tcp.port=" + closedPort)) {
            String where = ConnectionDetailsApplication.whereAmI(context.getBean(ClickHouseTcpTemplate.class));
            assertThat(where).isEqualTo(Http.value(server, "SELECT currentUser() || '@' || toString(tcpPort())"));
            assertThat(List.of(where)).containsExactly("default@" + server.tcpPort());
        }
    }
}
