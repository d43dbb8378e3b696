package dev.clickhousetcp.spring.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.clickhousetcp.client.ClickHouseSession;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.LoadBalancing;
import dev.clickhousetcp.spring.core.ClickHouseTcpTemplate;
import dev.clickhousetcp.testsupport.ClickHouseCluster;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter pointed at the local three-node cluster with the {@code application.yml} of docs/scaling.md: the
 * pool's connections spread over the nodes and the template answers through any of them. Tagged
 * {@code cluster} (run with {@code -Pcluster-tests}).
 */
@Tag("cluster")
class ClusterApplicationYamlTests {

    private static ClickHouseCluster cluster;

    @TempDir
    Path dir;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

    }

    @BeforeAll
    static void startCluster() {
        try {
            cluster = ClickHouseCluster.get();
        }
        catch (IllegalStateException ex) {
            if ("true".equals(System.getenv("CI"))) {
                throw ex;
            }
            Assumptions.abort("the local ClickHouse cluster cannot start here: " + ex.getMessage());
        }
    }

    @Test
    void endpointsAndRoundRobinSpreadTheStartersPoolOverTheNodes() throws IOException {
        Path file = this.dir.resolve("application.yml");
        Files.writeString(file, """
                clickhouse:
                  tcp:
                    endpoints: [%s]
                    load-balancing: round-robin
                    failover-backoff: 10s
                    pool:
                      max-size: 6
                """.formatted(String.join(", ", cluster.nativeEndpoints())));
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
            .web(WebApplicationType.NONE)
            .properties("spring.config.location=file:" + file, "spring.main.banner-mode=off")
            .run()) {
            ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
            assertThat(client.poolConfig().endpoints()).hasSize(ClickHouseCluster.NODES);
            assertThat(client.poolConfig().loadBalancing()).isEqualTo(LoadBalancing.ROUND_ROBIN);
            ClickHouseTcpTemplate template = context.getBean(ClickHouseTcpTemplate.class);
            assertThat(template.query("SELECT count() FROM system.clusters WHERE cluster = '" + ClickHouseCluster.NAME
                    + "'", (row, n) -> row.getLong(0)))
                .containsExactly(3L);

            Map<Integer, Integer> perPort = new TreeMap<>();
            List<ClickHouseSession> sessions = new ArrayList<>();
            try {
                for (int i = 0; i < 6; i++) {
                    ClickHouseSession session = client.openSession();
                    sessions.add(session);
                    perPort.merge(session.query("SELECT toInt32(tcpPort())", (row, n) -> row.getInt(0)).get(0), 1,
                            Integer::sum);
                }
            }
            finally {
                sessions.forEach(ClickHouseSession::close);
            }
            assertThat(perPort).containsOnlyKeys(cluster.nodes().stream().map((s) -> s.tcpPort()).toList());
            assertThat(perPort.values()).containsOnly(2);
        }
    }

}
