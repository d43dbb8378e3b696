package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.FaultProxy;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * AT-11: {@code JdbcTemplate.batchUpdate} of {@value #ROWS} rows (UInt64, String, Float64) through a
 * BatchPreparedStatementSetter is exactly one INSERT in {@code system.query_log} with {@code written_rows} =
 * {@value #ROWS}, whose data came as native Data blocks ({@code ProfileEvents['InterfaceNativeReceiveBytes']} at
 * least the rows' Native encoding, sent uncompressed here so the bytes compare), and returns {@value #ROWS}
 * counts of 1. It runs in a child JVM whose heap is capped at {@value #HEAP_MB} MB, so a batch that needed more
 * (the rows, their blocks) fails with OutOfMemoryError; the child prints the used heap it sampled. About 10 to
 * 20 s on 2 cores.
 *
 * <p>The acceptance list bounds the growth at 128 MB: the cap is 128 MB over the child's baseline of a few MB. The
 * batch keeps its rows column by column (primitives for setLong and setDouble), about 26 MB for these rows; when
 * it kept them as boxed Java values (about 150 MB sampled), a child capped like this ran out of memory.
 */
@ClickHouseTest
class MillionRowBatchTest {
    static final int ROWS = 1_000_000;
    static final int HEAP_MB = 136;

    @Test
    void aMillionRowBatchIsOneNativeInsertInABoundedHeap() throws Exception {
        String t = JdbcTests.table("jdbc_at11");
        String url = JdbcTests.url(ClickHouseServers.modern()) + "?compression=none";
        JdbcTemplate jdbc = new JdbcTemplate(new SingleConnectionDataSource(url, true));
        jdbc.execute("CREATE TABLE " + t + " (id UInt64, name String, score Float64) ENGINE = MergeTree ORDER BY id");
        // the child talks through a proxy: should it die (OutOfMemoryError) mid-insert, the proxy ends the server
        // side gracefully, where the child's own reset would abort the 26.7 server
        try (FaultProxy proxy = FaultProxy.forNativePort(ClickHouseServers.modern())) {
            String childUrl = "jdbc:clickhouse:tcp://" + proxy.host() + ":" + proxy.port() + "/default?compression=none";
            String out = ChildJvm.run(ChildJvm.thisJava(), List.of("-Xmx" + HEAP_MB + "m", "-XX:+UseSerialGC"),
                    Probe.class, 300, childUrl, t);
            System.out.println(out.strip());
            assertThat(out).contains("counts ok");
            assertThat(jdbc.queryForObject("SELECT count() FROM " + t, Long.class)).isEqualTo(ROWS);
            assertThat(jdbc.queryForObject("SELECT sum(id) FROM " + t, Long.class))
                    .isEqualTo((long) ROWS * (ROWS - 1) / 2);
            assertThat(jdbc.queryForObject("SELECT name FROM " + t + " WHERE id = 777777", String.class))
                    .isEqualTo(name(777777));
            jdbc.execute("SYSTEM FLUSH LOGS");
            Map<String, Object> log = jdbc.queryForMap("SELECT count() AS n, sum(written_rows) AS w,"
                    + " sum(ProfileEvents['InterfaceNativeReceiveBytes']) AS b FROM system.query_log"
                    + " WHERE type = 'QueryFinish' AND query_kind = 'Insert' AND has(tables, 'default." + t + "')"
                    + " AND event_date >= yesterday()");
            assertThat(((Number) log.get("n")).longValue()).as("INSERT queries").isEqualTo(1);
            assertThat(((Number) log.get("w")).longValue()).as("written_rows").isEqualTo(ROWS);
            assertThat(((Number) log.get("b")).longValue()).as("native bytes received")
                    .isGreaterThanOrEqualTo(encodedSize());
        } finally {
            jdbc.execute("DROP TABLE IF EXISTS " + t);
        }
    }

    static String name(int i) {
        return "name-" + i;
    }

    /** The rows' Native encoding: UInt64 8 bytes, String a length byte (all names are shorter than 128) and UTF-8. */
    private static long encodedSize() {
        long size = 0;
        for (int i = 0; i < ROWS; i++) {
            size += 8 + 1 + name(i).getBytes(StandardCharsets.UTF_8).length + 8;
        }
        return size;
    }

    /** The child: arguments URL and table; prints the sampled heap and "counts ok", or fails. */
    static final class Probe {
        private Probe() {
        }

        public static void main(String[] args) throws Exception {
            Runtime rt = Runtime.getRuntime();
            JdbcTemplate jdbc = new JdbcTemplate(new SingleConnectionDataSource(args[0], true));
            jdbc.queryForObject("SELECT 1", Integer.class); // connected and warm before the baseline
            System.gc();
            long baseline = rt.totalMemory() - rt.freeMemory();
            long[] peak = {baseline};
            Thread sampler = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    peak[0] = Math.max(peak[0], rt.totalMemory() - rt.freeMemory());
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            sampler.setDaemon(true);
            sampler.start();
            int[] counts = jdbc.batchUpdate("INSERT INTO " + args[1] + " (id, name, score) VALUES (?, ?, ?)",
                    new BatchPreparedStatementSetter() {
                        @Override
                        public void setValues(PreparedStatement ps, int i) throws SQLException {
                            ps.setLong(1, i);
                            ps.setString(2, name(i));
                            ps.setDouble(3, i / 4.0);
                        }

                        @Override
                        public int getBatchSize() {
                            return ROWS;
                        }
                    });
            sampler.interrupt();
            sampler.join();
            System.out.println("baseline " + baseline / (1 << 20) + " MB, sampled peak " + peak[0] / (1 << 20)
                    + " MB (heap capped at " + HEAP_MB + " MB)");
            if (counts.length != ROWS) {
                throw new AssertionError(counts.length + " counts");
            }
            for (int c : counts) {
                if (c != 1 && c != java.sql.Statement.SUCCESS_NO_INFO) {
                    throw new AssertionError("count " + c);
                }
            }
            System.out.println("counts ok");
        }
    }
}
