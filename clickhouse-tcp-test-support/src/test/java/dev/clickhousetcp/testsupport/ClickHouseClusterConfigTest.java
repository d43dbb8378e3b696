package dev.clickhousetcp.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.clickhousetcp.testsupport.ClickHouseServer.Kind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClickHouseClusterConfigTest {

    @Test
    void defaultsMatchTheScript() {
        ClickHouseCluster cluster = ClickHouseCluster.configured(Map.of());
        assertEquals(List.of("127.0.0.1:19101", "127.0.0.1:19102", "127.0.0.1:19103"), cluster.nativeEndpoints());
        assertEquals(new ClickHouseServer(Kind.MODERN, "127.0.0.1", 19103, 18103, -1, null), cluster.node(3));
        assertEquals(1, ClickHouseCluster.shardOf(1));
        assertEquals(2, ClickHouseCluster.shardOf(2));
        assertEquals(2, ClickHouseCluster.shardOf(3));
    }

    @Test
    void portBasesComeFromTheScriptsVariables() {
        ClickHouseCluster cluster = ClickHouseCluster.configured(
                Map.of("CLICKHOUSE_CLUSTER_TCP_BASE", "29100", "CLICKHOUSE_CLUSTER_HTTP_BASE", " 28100 "));
        assertEquals(29101, cluster.node(1).tcpPort());
        assertEquals(28102, cluster.node(2).httpPort());
    }

    @Test
    void rejectsMalformedBasesAndNodesOutOfRange() {
        assertThrows(IllegalStateException.class,
                () -> ClickHouseCluster.configured(Map.of("CLICKHOUSE_CLUSTER_TCP_BASE", "x")));
        ClickHouseCluster cluster = ClickHouseCluster.configured(Map.of());
        assertThrows(IllegalArgumentException.class, () -> cluster.node(0));
        assertThrows(IllegalArgumentException.class, () -> cluster.node(4));
        assertThrows(IllegalArgumentException.class, () -> ClickHouseCluster.shardOf(4));
    }
}
