package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.BufferPool;
import dev.clickhousetcp.data.Int64Column;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The idle column buffers a client keeps ({@link ConnectionConfig#blockBufferPoolSize()}) are one budget
 * for the whole client, shared by its connections: ten pooled connections that each read a result of
 * 100 UInt64 columns at the same time keep, once idle, at most the budget between them (with the default
 * budget, and with 16 MiB: below what ten connections kept with a cap of their own each, 4.25 MiB).
 */
@ClickHouseTest
class BlockBufferBudgetTest {

    private static final int CONNECTIONS = 10;

    private static final String WIDE;

    static {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int c = 0; c < 100; c++) {
            sql.append(c == 0 ? "" : ", ").append("number + ").append(c).append(" AS c").append(c);
        }
        WIDE = sql.append(" FROM numbers(200000)").toString();
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, 16 << 20})
    void tenIdleConnectionsAfterAWideReadKeepAtMostTheClientsBudget(long configured) {
        ClickHouseServer server = ClickHouseServers.modern();
        ClickHouseTcpClient.Builder builder = ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort())
                .maxPoolSize(CONNECTIONS).acquireTimeout(Duration.ofSeconds(30));
        if (configured >= 0) {
            builder.blockBufferPoolSize(configured);
        }
        try (ClickHouseTcpClient client = builder.build()) {
            long budget = client.config().blockBufferPoolSize();
            assertThat(budget).isEqualTo(configured >= 0 ? configured : ClickHouseConnection.BUFFER_POOL_MAX_RETAINED_BYTES);
            List<QueryResult> results = new ArrayList<>();
            try {
                for (int i = 0; i < CONNECTIONS; i++) {
                    results.add(client.query(WIDE)); // all open at once: one connection each
                }
                for (QueryResult r : results) {
                    long rows = 0;
                    for (Block b : r) {
                        assertThat(b.columnCount()).isEqualTo(100);
                        assertThat(((Int64Column) b.column(99)).getLong(0)).isEqualTo(rows + 99);
                        rows += b.rowCount();
                    }
                    assertThat(rows).isEqualTo(200_000);
                }
            } finally {
                results.forEach(QueryResult::close);
            }
            assertThat(client.poolStats().idle()).isEqualTo(CONNECTIONS);
            Set<BufferPool> pools = Collections.newSetFromMap(new IdentityHashMap<>());
            List<ConnectionLease> leases = new ArrayList<>();
            try {
                for (int i = 0; i < CONNECTIONS; i++) { // every idle connection of the pool, held at once
                    leases.add(client.acquire(Budget.NONE));
                    pools.add(leases.get(i).connection().bufferPool());
                }
            } finally {
                leases.forEach(ConnectionLease::close);
            }
            long kept = pools.stream().mapToLong(BufferPool::retainedBytes).sum();
            System.out.printf("%d idle connections after a 100-column read: %d pools keep %d bytes (%s), budget %d%n",
                    CONNECTIONS, pools.size(), kept, pools.stream().map(BufferPool::retainedBytes).toList(), budget);
            assertThat(kept).as("bytes of idle column buffers kept by %d idle connections (%d pools)", CONNECTIONS,
                    pools.size()).isLessThanOrEqualTo(budget).isPositive();
        }
    }
}
