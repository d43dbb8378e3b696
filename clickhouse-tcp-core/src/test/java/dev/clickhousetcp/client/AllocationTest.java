package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Int64Column;
import dev.clickhousetcp.data.Float64Column;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reading fixed-width columns through the block tier allocates per block, not per row: after the
 * connection's buffer pool is warm, the bytes this thread allocates per block stay under a small
 * bound while each block carries 65 536 rows (1 MiB of values). Measured with the JVM's per-thread
 * allocation counter.
 */
@ClickHouseTest
class AllocationTest {
    static final long MAX_BYTES_PER_BLOCK = 32 * 1024;

    @ParameterizedTest
    @ValueSource(strings = {"NONE", "LZ4"})
    void fixedWidthBlocksAllocateOBlocksNotORows(String codec) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        threads.setThreadAllocatedMemoryEnabled(true);
        Compression compression = codec.equals("LZ4") ? Compression.LZ4 : Compression.NONE;
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern()).compression(compression).build()) {
            String sql = "SELECT number, toFloat64(number) FROM numbers(6553600) SETTINGS max_block_size = 65536";
            read(client, sql); // warm up: code paths and the connection's buffer pool
            long tid = Thread.currentThread().getId();
            long before = threads.getThreadAllocatedBytes(tid);
            long[] blocksAndSum = read(client, sql);
            long allocated = threads.getThreadAllocatedBytes(tid) - before;
            assertThat(blocksAndSum[1]).isEqualTo(6553600L * 6553599L / 2);
            assertThat(blocksAndSum[0]).isGreaterThanOrEqualTo(100);
            long perBlock = allocated / blocksAndSum[0];
            assertThat(perBlock).as("bytes allocated per 65 536-row block (%d in total)", allocated)
                    .isLessThan(MAX_BYTES_PER_BLOCK);
        }
    }

    private static long[] read(ClickHouseTcpClient client, String sql) {
        long blocks = 0;
        long sum = 0;
        double dsum = 0;
        try (QueryResult r = client.query(sql)) {
            Block b;
            while ((b = r.next()) != null) {
                Int64Column n = (Int64Column) b.column(0);
                Float64Column d = (Float64Column) b.column(1);
                for (int i = 0; i < b.rowCount(); i++) {
                    sum += n.getLong(i);
                    dsum += d.getDouble(i);
                }
                blocks++;
            }
        }
        assertThat(dsum).isPositive();
        return new long[] {blocks, sum};
    }
}
