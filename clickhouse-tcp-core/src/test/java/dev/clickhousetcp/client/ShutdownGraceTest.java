package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.testsupport.Await;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.GatedRows;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Closing the client while other threads use it (a scheduled job, a consumer thread): it waits its
 * shutdown grace for the borrowed connections to be given back, and past the grace ends them, so the
 * server cancels their queries and their callers get a clear exception.
 */
@ClickHouseTest
class ShutdownGraceTest {
    private static final int ROWS = 30_000;
    private static final int BLOCK = 10_000;
    /** The row at which the insert's producer waits for the test: inside the second block, the first one sent. */
    private static final int GATE = 15_000;

    private static void await(String what, BooleanSupplier condition) {
        Await.until(what, Duration.ofSeconds(30), condition);
    }

    private static long count(ClickHouseTcpClient observer, String sql) {
        return Long.parseLong(observer.queryRows(sql).get(0)[0].toString());
    }

    private static boolean running(ClickHouseTcpClient observer, String queryId) {
        return count(observer, "SELECT count() FROM system.processes WHERE query_id = '" + queryId + "'") > 0;
    }

    /** Whether the client refuses new calls, i.e. its close has begun. */
    private static boolean refusing(ClickHouseTcpClient client) {
        try {
            client.queryRows("SELECT 1");
            return false;
        } catch (ClickHouseException e) {
            assertThat(e).hasMessageContaining("pool is closed");
            return true;
        }
    }

    /** A test body given the server, a client that watches it and a new table {@code (id UInt64)}. */
    private interface TableTest {
        void run(ClickHouseServer server, ClickHouseTcpClient observer, String table) throws Exception;
    }

    private static void withTable(ClickHouseServer server, String prefix, TableTest test) throws Exception {
        String table = TestClients.table(prefix);
        try (ClickHouseTcpClient observer = TestClients.client(server)) {
            observer.execute("CREATE TABLE " + table + " (id UInt64) ENGINE = MergeTree ORDER BY id");
            try {
                test.run(server, observer, table);
            } finally {
                observer.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    private static CompletableFuture<Long> insertOnAnotherThread(ClickHouseTcpClient client, String table,
                                                                 GatedRows rows, String queryId) {
        InsertOptions options = InsertOptions.builder().maxRowsPerBlock(BLOCK)
                .queryOptions(QueryOptions.builder().queryId(queryId).build()).build();
        return CompletableFuture.supplyAsync(() -> client.insert(table, List.of("id"), rows, options));
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void closeWaitsForARunningInsertWithinItsGrace(ClickHouseServer.Kind kind) throws Exception {
        withTable(ClickHouseServers.get(kind), "shutdown_grace_kept", (server, observer, table) -> {
            ClickHouseTcpClient client = TestClients.builder(server).shutdownGrace(Duration.ofSeconds(60)).build();
            GatedRows rows = new GatedRows(ROWS, GATE);
            CompletableFuture<Long> insert = insertOnAnotherThread(client, table, rows, UUID.randomUUID().toString());
            assertThat(rows.awaitGate(30)).isTrue();
            CompletableFuture<Void> close = CompletableFuture.runAsync(client::close);
            await("the close to begin", () -> refusing(client));
            assertThat(close).as("close waits while the insert runs").isNotDone();
            rows.open();
            assertThat(insert.get(30, TimeUnit.SECONDS)).isEqualTo(ROWS);
            close.get(30, TimeUnit.SECONDS);
            assertThat(client.poolStats().total()).isZero();
            assertThat(count(observer, "SELECT count() FROM " + table)).isEqualTo(ROWS);
        });
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void pastItsGraceCloseEndsTheInsertAndTheServerCancelsIt(ClickHouseServer.Kind kind) throws Exception {
        withTable(ClickHouseServers.get(kind), "shutdown_grace_cut", (server, observer, table) -> {
            ClickHouseTcpClient client = TestClients.builder(server).shutdownGrace(Duration.ofMillis(300)).build();
            GatedRows rows = new GatedRows(ROWS, GATE);
            String queryId = UUID.randomUUID().toString();
            CompletableFuture<Long> insert = insertOnAnotherThread(client, table, rows, queryId);
            assertThat(rows.awaitGate(30)).isTrue();
            await("the insert to run on the server", () -> running(observer, queryId));
            client.close(); // returns after its grace, the insert still held by its producer
            assertThat(insert).isNotDone();
            await("the server to cancel the insert", () -> !running(observer, queryId));
            rows.open();
            assertThatThrownBy(() -> insert.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(ClickHouseConnectionException.class)
                    .hasMessageContaining("client was closed")
                    .hasMessageContaining("shutdown grace of PT0.3S")
                    .satisfies(e -> assertThat(((ClickHouseConnectionException) e).insertMayHaveBeenApplied())
                            .isTrue());
            assertThat(client.poolStats().total()).isZero();
            assertThat(count(observer, "SELECT count() FROM " + table)).isLessThan(ROWS);
        });
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void pastItsGraceCloseEndsARunningQueryAndTheServerCancelsIt(ClickHouseServer.Kind kind) throws Exception {
        ClickHouseServer server = ClickHouseServers.get(kind);
        try (ClickHouseTcpClient observer = TestClients.client(server)) {
            ClickHouseTcpClient client = TestClients.builder(server).shutdownGrace(Duration.ofMillis(300)).build();
            String queryId = UUID.randomUUID().toString();
            CountDownLatch reading = new CountDownLatch(1);
            CompletableFuture<Long> read = CompletableFuture.supplyAsync(() -> client.forEachRow(
                    "SELECT number FROM system.numbers SETTINGS max_block_size = 1000",
                    QueryOptions.builder().queryId(queryId).build(), row -> reading.countDown()));
            assertThat(reading.await(30, TimeUnit.SECONDS)).isTrue();
            client.close();
            await("the server to cancel the query", () -> !running(observer, queryId));
            assertThatThrownBy(() -> read.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(ClickHouseConnectionException.class)
                    .hasMessageContaining("client was closed");
            assertThat(client.poolStats().total()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void aSessionGoesOnDuringTheGraceUntilItIsClosed(ClickHouseServer.Kind kind) throws Exception {
        ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.get(kind))
                .shutdownGrace(Duration.ofSeconds(60)).build();
        ClickHouseSession session = client.openSession();
        session.execute("CREATE TEMPORARY TABLE during_grace (x UInt8)");
        CompletableFuture<Void> close = CompletableFuture.runAsync(client::close);
        await("the close to begin", () -> refusing(client));
        session.insert("during_grace", List.of("x"), List.<Object[]>of(new Object[] {1}));
        assertThat(session.queryRows("SELECT count() FROM during_grace").get(0)[0].toString()).isEqualTo("1");
        assertThat(close).isNotDone();
        session.close();
        close.get(30, TimeUnit.SECONDS);
        assertThat(client.poolStats().total()).isZero();
    }

    /**
     * A thread that closes the client while it holds a connection itself (inside withConnection, inside a
     * row callback, with a session of its own open) cannot give it back while close waits: close does not
     * wait the grace for it, and the thread's next use of that connection fails saying the client was closed.
     */
    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void closeFromAThreadThatHoldsAConnectionDoesNotWaitForItself(ClickHouseServer.Kind kind) throws Exception {
        List<Consumer<ClickHouseTcpClient>> closingWhileHolding = List.of(
                client -> client.withConnection(c -> {
                    client.close();
                    return c.query("SELECT 1", QueryOptions.DEFAULT).drain();
                }),
                client -> {
                    try (ClickHouseSession s = client.openSession()) {
                        s.execute("CREATE TEMPORARY TABLE own_session (x UInt8)");
                        client.close();
                        s.queryRows("SELECT count() FROM own_session");
                    }
                },
                // many blocks: the rows after the close are still to be read from the ended connection
                client -> client.forEachRow("SELECT number FROM system.numbers LIMIT 100000000 "
                        + "SETTINGS max_block_size = 1000", r -> {
                            if (((Number) r[0]).longValue() == 0) {
                                client.close();
                            }
                        }));
        for (var body : closingWhileHolding) {
            ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.get(kind))
                    .shutdownGrace(Duration.ofMinutes(10)).build();
            CompletableFuture<Throwable> thrown = CompletableFuture.supplyAsync(() -> {
                try {
                    body.accept(client);
                    return null;
                } catch (RuntimeException e) {
                    return e;
                }
            });
            assertThat(thrown.get(30, TimeUnit.SECONDS)).isInstanceOf(ClickHouseConnectionException.class)
                    .hasMessageContaining("the client was closed by the thread using this connection");
            assertThat(client.poolStats().total()).isZero();
        }
    }
}
