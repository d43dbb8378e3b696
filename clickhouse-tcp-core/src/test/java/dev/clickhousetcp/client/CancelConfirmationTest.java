package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.FaultProxy;
import dev.clickhousetcp.testsupport.FaultProxy.Direction;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A timed-out query whose server confirms the Cancel after the grace (the caller has its timeout exception by
 * then) leaves its connection awaiting that confirmation: the connection's next use first reads the rest of the
 * cancelled response to its end and then runs, so a session keeps its server state; when the rest never comes
 * within the next use's bound, the connection is closed and that use fails as on any broken connection. A pooled
 * connection in that state is never lent again. A proxy in front of the server holds back what the client sends
 * after the query's text, so the query and its Cancel reach the server late, deterministically.
 */
@ClickHouseTest
class CancelConfirmationTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** Longer than the timeout and its grace: the query itself reaches the server after the caller gave up. */
    private static final Duration LATE = Duration.ofMillis(1500);

    /** A query that streams one-row blocks of {@code value} for 5 s, with {@code marker} at the end of its text. */
    private static String streaming(long value, String marker) {
        return "SELECT " + value + " AS v, sleepEachRow(0.05) AS s FROM numbers(100) /* " + marker + " */";
    }

    private static QueryOptions oneRowBlocks() {
        return QueryOptions.builder().timeout(TIMEOUT).setting("max_block_size", 1).build();
    }

    private static ClickHouseTcpClient client(FaultProxy proxy) {
        return ClickHouseTcpClient.builder().host(proxy.host()).port(proxy.port()).compression(Compression.LZ4)
                .socketTimeout(Duration.ofSeconds(30)).maxPoolSize(1).build();
    }

    /** The query times out; {@code onTime}: within the documented bound (the session's promise under test). */
    private static void timesOut(QueryOperations ops, String sql, boolean onTime) {
        long start = System.nanoTime();
        ClickHouseTimeoutException e = catchThrowableOfType(() -> ops.queryRows(sql, oneRowBlocks()),
                ClickHouseTimeoutException.class);
        assertThat(e).isNotNull();
        assertThat(e.deadline()).isEqualTo(ClickHouseTimeoutException.Deadline.QUERY);
        if (onTime) {
            assertThat(DeadlineTest.since(start)).isLessThan(DeadlineTest.bound(TIMEOUT));
        }
    }

    @Test
    void aLateConfirmationIsReadByTheSessionsNextQueryWhichGetsItsOwnAnswer() {
        for (ClickHouseServer server : List.of(ClickHouseServers.legacy(), ClickHouseServers.modern())) {
            String marker = "late_confirm_" + Long.toHexString(System.nanoTime());
            try (FaultProxy proxy = FaultProxy.forNativePort(server);
                 ClickHouseTcpClient client = client(proxy);
                 ClickHouseSession session = client.openSession()) {
                session.execute("CREATE TEMPORARY TABLE kept (x UInt32)");
                session.execute("INSERT INTO kept SELECT 7");
                proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, marker).delay(LATE).once();
                timesOut(session, streaming(111_111, marker), true);
                assertThat(session.isOpen()).as("awaiting the confirmation, not broken").isTrue();
                long before = proxy.stats().bytes(Direction.SERVER_TO_CLIENT);

                List<Object[]> rows = session.queryRows("SELECT toUInt32(222222) AS v");
                long read = proxy.stats().bytes(Direction.SERVER_TO_CLIENT) - before;
                // the cancelled query's one-row blocks, streamed from when its text reached the server until it
                // read the Cancel (about 30 blocks, 2 KB from 18.16), were read and discarded by this query
                assertThat(read).isGreaterThan(1000);
                assertThat(rows).hasSize(1);
                assertThat(rows.get(0)).containsExactly(222_222L);
                assertThat(session.queryRows("SELECT x FROM kept")).singleElement()
                        .satisfies(r -> assertThat(r).containsExactly(7L));
                assertThat(session.isOpen()).isTrue();
            }
        }
    }

    @Test
    void aConfirmationThatNeverComesEndsTheSessionAtItsNextUse() {
        String marker = "no_confirm_" + Long.toHexString(System.nanoTime());
        try (FaultProxy proxy = FaultProxy.forNativePort(ClickHouseServers.legacy());
             ClickHouseTcpClient client = client(proxy);
             ClickHouseSession session = client.openSession()) {
            session.execute("CREATE TEMPORARY TABLE lost (x UInt32)");
            proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, marker).stall().once();
            timesOut(session, streaming(111_111, marker), false);

            ClickHouseConnectionException e = catchThrowableOfType(() -> session.queryRows("SELECT 222222",
                    QueryOptions.builder().timeout(TIMEOUT).build()), ClickHouseConnectionException.class);
            assertThat(e).isNotNull();
            assertThat(e.getMessage()).contains("the session's connection is broken");
            assertThat(session.isOpen()).isFalse();
            proxy.releaseStalls();
        }
    }

    @Test
    void aPooledConnectionAwaitingAConfirmationIsNotLentAgain() {
        String marker = "pool_confirm_" + Long.toHexString(System.nanoTime());
        try (FaultProxy proxy = FaultProxy.forNativePort(ClickHouseServers.legacy());
             ClickHouseTcpClient client = client(proxy)) {
            client.ping();
            proxy.on(Direction.CLIENT_TO_SERVER).afterMarker(Direction.CLIENT_TO_SERVER, marker).stall().once();
            timesOut(client, streaming(111_111, marker), false);
            assertThat(client.poolStats().destroyed()).isEqualTo(1);
            proxy.releaseStalls();
            for (long v : new long[] {222_222, 333_333}) {
                List<Object[]> rows = client.queryRows("SELECT toUInt32(" + v + ")");
                assertThat(rows).hasSize(1);
                assertThat(rows.get(0)).containsExactly(v);
            }
        }
    }
}
