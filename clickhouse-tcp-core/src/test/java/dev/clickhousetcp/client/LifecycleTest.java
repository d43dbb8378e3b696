package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseAuthenticationException;
import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.FaultProxy;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Pool, sessions, cancellation, timeouts, failover and listeners against the real servers. */
@ClickHouseTest
class LifecycleTest {

    /** Polls {@code condition} until true or the deadline passes (no fixed sleeps). */
    static void await(String what, Duration max, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + max.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
            try {
                Thread.sleep(20); // polling interval, not a wait for an event
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /**
     * A query of 300 rows of 0.2 s each under {@code id}, to interrupt: what it throws goes to {@code seen}
     * and whether the thread's interrupt flag was set then to {@code interruptKept[0]}. Rows of 0.2 s: the
     * server notices the Cancel at the next row, well within the interrupt's grace of 1 s even on a
     * loaded machine (rows of 1 s raced with it).
     */
    static Runnable interruptibleQuery(ClickHouseTcpClient client, String id, List<Throwable> seen,
                                       boolean[] interruptKept) {
        return () -> {
            try {
                client.execute("SELECT sleepEachRow(0.2) FROM numbers(300) SETTINGS max_block_size = 1, "
                        + "function_sleep_max_microseconds_per_block = 0", QueryOptions.builder().queryId(id).build());
            } catch (Throwable e) {
                seen.add(e);
                interruptKept[0] = Thread.currentThread().isInterrupted();
            }
        };
    }

    static boolean running(ClickHouseServer server, String queryId) {
        return !server.httpQuery("SELECT count() FROM system.processes WHERE query_id = '" + queryId + "'").trim()
                .equals("0");
    }

    @Test
    void poolExhaustionTimesOut() {
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern()).maxPoolSize(1)
                .acquireTimeout(Duration.ofMillis(300)).build();
             QueryResult held = client.query("SELECT 1")) {
            assertThatThrownBy(() -> client.queryRows("SELECT 2")).isInstanceOf(ClickHouseTimeoutException.class)
                    .hasMessageContaining("max size 1");
            assertThat(client.poolStats().acquireTimeouts()).isEqualTo(1);
            held.drain();
        }
    }

    @Test
    void cancelMidStreamStopsTheServerQueryAndKeepsThePoolUsable() {
        ClickHouseServer server = ClickHouseServers.modern();
        String id = "cancel-" + UUID.randomUUID();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            try (QueryResult r = client.query("SELECT number FROM system.numbers SETTINGS max_block_size = 1000",
                    QueryOptions.builder().queryId(id).build())) {
                assertThat(r.next()).isNotNull();
                assertThat(running(server, id)).isTrue();
                r.cancel();
                while (r.next() != null) {
                    // drained blocks in flight
                }
                assertThat(r.isCancelled()).isTrue();
            }
            await("query gone from system.processes", Duration.ofSeconds(10), () -> !running(server, id));
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
            assertThat(client.poolStats().destroyed()).isZero();
        }
    }

    @Test
    void cancelFromAnotherThreadWhileTheServerIsSilent() throws Exception {
        ClickHouseServer server = ClickHouseServers.modern();
        String id = "silent-" + UUID.randomUUID();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            QueryResult r = client.query("SELECT sleepEachRow(1) FROM numbers(60) SETTINGS max_block_size = 1, "
                    + "function_sleep_max_microseconds_per_block = 0", QueryOptions.builder().queryId(id).build());
            CompletableFuture<Block> reader = CompletableFuture.supplyAsync(r::next);
            await("query running", Duration.ofSeconds(10), () -> running(server, id));
            r.cancel();
            assertThat(reader.get(15, TimeUnit.SECONDS)).isNull();
            r.close();
            await("query gone", Duration.ofSeconds(10), () -> !running(server, id));
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
            assertThat(client.poolStats().destroyed()).isZero();
        }
    }

    @Test
    void interruptCancelsTheQuery() throws Exception {
        ClickHouseServer server = ClickHouseServers.modern();
        String id = "interrupt-" + UUID.randomUUID();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            List<Throwable> seen = new CopyOnWriteArrayList<>();
            boolean[] interruptKept = {false};
            Thread t = new Thread(interruptibleQuery(client, id, seen, interruptKept));
            t.start();
            await("query running", Duration.ofSeconds(10), () -> running(server, id));
            t.interrupt();
            t.join(15_000);
            assertThat(t.isAlive()).isFalse();
            assertThat(seen).singleElement().isInstanceOf(ClickHouseException.class);
            assertThat(seen.get(0).getMessage()).contains("interrupted");
            assertThat(interruptKept[0]).isTrue();
            await("query gone", Duration.ofSeconds(10), () -> !running(server, id));
            assertThat(client.poolStats().destroyed()).isZero();
        }
    }

    @Test
    void queryTimeoutCancelsOnClientAndServer() {
        ClickHouseServer server = ClickHouseServers.modern();
        String id = "timeout-" + UUID.randomUUID();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.execute("SELECT sleepEachRow(1) FROM numbers(60) SETTINGS max_block_size = 1, "
                    + "function_sleep_max_microseconds_per_block = 0",
                    QueryOptions.builder().queryId(id).timeout(Duration.ofMillis(700)).build()))
                    .isInstanceOf(ClickHouseTimeoutException.class).hasMessageContaining("timeout");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
            await("query gone", Duration.ofSeconds(10), () -> !running(server, id));
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
            // server-side limit too: the server itself stops the query with TIMEOUT_EXCEEDED
            assertThatThrownBy(() -> client.execute("SELECT sleepEachRow(0.5) FROM numbers(100) SETTINGS "
                    + "max_block_size = 1, function_sleep_max_microseconds_per_block = 0",
                    QueryOptions.builder().timeoutOnServerToo(Duration.ofSeconds(1)).build()))
                    .isInstanceOfAny(ClickHouseTimeoutException.class, dev.clickhousetcp.ClickHouseServerException.class);
        }
    }

    @Test
    void earlyBreakOutOfATenMillionRowStreamLeavesThePoolHealthy() {
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern()).maxPoolSize(1).build()) {
            for (int i = 0; i < 3; i++) {
                try (QueryResult r = client.query("SELECT number FROM numbers(10000000)")) {
                    for (Block b : r) {
                        if (b.rowCount() > 0) {
                            break;
                        }
                    }
                }
            }
            assertThat(client.queryRows("SELECT count() FROM numbers(10)").get(0)[0]).isEqualTo(java.math.BigInteger.TEN);
            PoolStats s = client.poolStats();
            assertThat(s.created()).isEqualTo(1);
            assertThat(s.destroyed()).isZero();
        }
    }

    @Test
    void aServerDyingMidQueryIsATypedErrorAndThePoolHeals() throws IOException {
        // the legacy server: the embedded 26.7 one aborts when a peer resets a connection
        ClickHouseServer server = ClickHouseServers.legacy();
        try (FaultProxy proxy = new FaultProxy(server.host(), server.tcpPort());
             ClickHouseTcpClient client = ClickHouseTcpClient.builder().host("127.0.0.1").port(proxy.port())
                     .maxPoolSize(2).validateAfterIdle(Duration.ofHours(1)).build()) {
            client.ping();
            QueryResult r = client.query("SELECT number FROM system.numbers SETTINGS max_block_size = 1000");
            assertThat(r.next()).isNotNull();
            proxy.resetAll();
            assertThatThrownBy(() -> {
                while (r.next() != null) {
                    // reading until the broken socket shows
                }
            }).isInstanceOf(ClickHouseConnectionException.class);
            r.close();
            // the broken connection was discarded; new ones work
            for (int i = 0; i < 3; i++) {
                assertThat(client.queryRows("SELECT 1")).hasSize(1);
            }
            assertThat(client.poolStats().destroyed()).isGreaterThanOrEqualTo(1);
            assertThat(client.poolStats().active()).isZero();
        }
    }

    @Test
    void aSessionWhoseConnectionBrokeKeepsThrowingConnectionExceptions() throws IOException {
        // the legacy server: the embedded 26.7 one aborts when a peer resets a connection
        ClickHouseServer server = ClickHouseServers.legacy();
        try (FaultProxy proxy = new FaultProxy(server.host(), server.tcpPort());
             ClickHouseTcpClient client = ClickHouseTcpClient.builder().host("127.0.0.1").port(proxy.port()).build();
             ClickHouseSession session = client.openSession()) {
            assertThat(session.queryRows("SELECT 1")).hasSize(1);
            proxy.resetAll();
            assertThatThrownBy(() -> session.queryRows("SELECT 2")).isInstanceOf(ClickHouseConnectionException.class);
            // the session's state went with its connection: every later call says so with the same type
            for (int i = 0; i < 2; i++) {
                assertThatThrownBy(() -> session.queryRows("SELECT 3"))
                        .isInstanceOf(ClickHouseConnectionException.class)
                        .hasMessageContaining("session");
            }
        }
    }

    @Test
    void idleConnectionsThatDiedAreValidatedBeforeReuse() throws IOException {
        ClickHouseServer server = ClickHouseServers.legacy();
        try (FaultProxy proxy = new FaultProxy(server.host(), server.tcpPort());
             ClickHouseTcpClient client = ClickHouseTcpClient.builder().host("127.0.0.1").port(proxy.port())
                     .validateAfterIdle(Duration.ZERO).build()) {
            client.ping();
            proxy.resetAll(); // the idle pooled socket is now dead (as behind a load balancer that dropped it)
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
            assertThat(client.poolStats().destroyed()).isEqualTo(1);
        }
    }

    @Test
    void failoverToTheSecondEndpointWhenTheFirstIsDown() throws IOException {
        ClickHouseServer server = ClickHouseServers.modern();
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .endpoints(List.of("127.0.0.1:" + closedPort, server.host() + ":" + server.tcpPort()))
                .connectTimeout(Duration.ofSeconds(2)).build()) {
            assertThat(client.serverInfo().versionMajor()).isEqualTo(26);
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
    }

    @Test
    void roundRobinSpreadsConnectionsOverTwoLiveServers() {
        ClickHouseServer modern = ClickHouseServers.modern();
        ClickHouseServer legacy = ClickHouseServers.legacy();
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .endpoints(List.of(modern.host() + ":" + modern.tcpPort(), legacy.host() + ":" + legacy.tcpPort()))
                .loadBalancing(LoadBalancing.ROUND_ROBIN).maxPoolSize(4).build()) {
            List<QueryResult> open = new ArrayList<>();
            Set<String> versions = new HashSet<>();
            for (int i = 0; i < 4; i++) {
                QueryResult r = client.query("SELECT version()");
                open.add(r);
                versions.add(r.next().column(0).getString(0));
            }
            for (QueryResult r : open) {
                r.close();
            }
            assertThat(versions).hasSize(2);
            assertThat(client.poolStats().created()).isEqualTo(4);
        }
    }

    @Test
    void sessionKeepsTemporaryTablesAndSettings() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            try (ClickHouseSession session = client.openSession()) {
                session.execute("CREATE TEMPORARY TABLE tmp_session (x UInt32)");
                session.insert("tmp_session", List.of("x"), List.<Object[]>of(new Object[] {7}, new Object[] {8}));
                session.execute("SET max_threads = 3");
                assertThat(session.queryRows("SELECT sum(x) FROM tmp_session").get(0)[0])
                        .isEqualTo(java.math.BigInteger.valueOf(15));
                assertThat(session.queryRows("SELECT getSetting('max_threads')").get(0)[0].toString()).isEqualTo("3");
                assertThat(client.poolStats().active()).isEqualTo(1);
            }
            PoolStats s = client.poolStats();
            assertThat(s.active()).isZero();
            assertThat(s.total()).isZero(); // the session's connection carried state: closed, not pooled
            assertThatThrownBy(() -> client.queryRows("SELECT * FROM tmp_session"))
                    .isInstanceOf(dev.clickhousetcp.ClickHouseServerException.class);
        }
    }

    @Test
    void progressProfileAndLogCallbacksFire() {
        List<Progress> progress = new CopyOnWriteArrayList<>();
        List<ProfileInfo> infos = new CopyOnWriteArrayList<>();
        AtomicLong logRows = new AtomicLong();
        AtomicLong events = new AtomicLong();
        QueryListener listener = new QueryListener() {
            @Override
            public void onProgress(Progress p) {
                progress.add(p);
            }

            @Override
            public void onProfileInfo(ProfileInfo info) {
                infos.add(info);
            }

            @Override
            public void onLog(Block logs) {
                assertThat(logs.names()).contains("text", "priority", "query_id");
                logRows.addAndGet(logs.rowCount());
            }

            @Override
            public void onProfileEvents(Block block) {
                assertThat(block.names()).contains("name", "value");
                events.addAndGet(block.rowCount());
            }
        };
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            Progress total = client.execute("SELECT sum(number) FROM numbers(3000000)", QueryOptions.builder()
                    .setting("send_logs_level", "debug").listener(listener).build());
            assertThat(progress).isNotEmpty();
            assertThat(total.readRows()).isEqualTo(3_000_000);
            assertThat(infos).singleElement().satisfies(i -> assertThat(i.rows()).isEqualTo(1));
            assertThat(logRows.get()).isPositive();
            assertThat(events.get()).isPositive();
        }
    }

    @Test
    void totalsAndExtremesAreReturned() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern());
             QueryResult r = client.query("SELECT number % 3 AS k, count() AS c FROM numbers(10) GROUP BY k WITH TOTALS "
                     + "ORDER BY k", QueryOptions.builder().setting("extremes", 1).build())) {
            assertThat(r.drain()).isEqualTo(3);
            assertThat(r.totals()).isNotNull();
            assertThat(r.totals().column("c").getLong(0)).isEqualTo(10);
            assertThat(r.extremes()).isNotNull();
            assertThat(r.extremes().rowCount()).isEqualTo(2);
            assertThat(r.extremes().column("k").getLong(0)).isEqualTo(0);
            assertThat(r.extremes().column("k").getLong(1)).isEqualTo(2);
        }
    }

    @Test
    void minIdleIdleTimeoutAndMaxLifetimeAreHonoured() {
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern()).minIdle(2).maxPoolSize(4)
                .idleTimeout(Duration.ofMillis(200)).maxLifetime(Duration.ofSeconds(1))
                .housekeepingPeriod(Duration.ofMillis(50)).build()) {
            await("min idle filled", Duration.ofSeconds(10), () -> client.poolStats().idle() == 2);
            List<QueryResult> held = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                held.add(client.query("SELECT 1"));
            }
            held.forEach(QueryResult::close);
            assertThat(client.poolStats().idle()).isEqualTo(4);
            await("idle above min evicted", Duration.ofSeconds(10), () -> client.poolStats().idle() == 2);
            long created = client.poolStats().created();
            await("connections retired after max lifetime and replaced", Duration.ofSeconds(10),
                    () -> client.poolStats().created() >= created + 2 && client.poolStats().idle() == 2);
        }
    }

    @Test
    void leakDetectionReportsAHeldConnection() {
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.modern())
                .leakDetectionThreshold(Duration.ofMillis(100)).housekeepingPeriod(Duration.ofMillis(50)).build();
             QueryResult held = client.query("SELECT 1")) {
            await("leak reported", Duration.ofSeconds(10), () -> client.poolStats().leaksReported() == 1);
            held.drain();
        }
    }

    @Test
    void pingWithTimeout() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            client.ping(Duration.ofSeconds(5));
        }
    }

    @Test
    void wrongPasswordIsAnAuthenticationErrorWithoutTheSecret() {
        ClickHouseServer legacy = ClickHouseServers.legacy();
        String secret = "not-the-password-" + UUID.randomUUID();
        try (ClickHouseTcpClient client = TestClients.builder(legacy).user(ClickHouseServer.SECRET_USER).password(secret)
                .build()) {
            assertThatThrownBy(client::ping).isInstanceOf(ClickHouseAuthenticationException.class)
                    .satisfies(e -> {
                        assertThat(((ClickHouseAuthenticationException) e).code()).isIn(192, 193, 516);
                        assertThat(e.getMessage()).doesNotContain(secret);
                    });
            assertThat(client.toString()).doesNotContain(secret);
            assertThat(client.config().toString()).doesNotContain(secret).contains("<hidden>");
            assertThat(client.poolStats().total()).isZero();
        }
        try (ClickHouseTcpClient client = TestClients.builder(legacy).user(ClickHouseServer.SECRET_USER)
                .password(ClickHouseServer.SECRET_PASSWORD).build()) {
            String id = "auth-" + UUID.randomUUID();
            assertThat(client.queryRows("SELECT user FROM system.processes WHERE query_id = '" + id + "'",
                    QueryOptions.builder().queryId(id).build()).get(0)[0]).isEqualTo(ClickHouseServer.SECRET_USER);
        }
    }

    @Test
    void passwordUserOnTheModernServer() {
        ClickHouseServer modern = ClickHouseServers.modern();
        try (ClickHouseTcpClient client = TestClients.builder(modern).user(ClickHouseServer.SECRET_USER)
                .password(ClickHouseServer.SECRET_PASSWORD).build()) {
            assertThat(client.queryRows("SELECT currentUser()").get(0)[0]).isEqualTo(ClickHouseServer.SECRET_USER);
        }
    }

    @Test
    void serverLogsAreForwardedToSlf4j() {
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        String id = "logs-" + UUID.randomUUID();
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            assertThatThrownBy(() -> client.execute("SELECT throwIf(number = 3) FROM numbers(10)",
                    QueryOptions.builder().queryId(id).setting("send_logs_level", "error").build()))
                    .isInstanceOf(dev.clickhousetcp.ClickHouseServerException.class);
        } finally {
            System.setErr(original);
        }
        String out = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(out).contains("dev.clickhousetcp.server").contains("{" + id + "}");
    }

    @Test
    void aServerKilledMidQueryIsATypedErrorAndThePoolHealsOnceItIsBack() throws Exception {
        // a real kill -9 of a private 18.16 server (the shared ones are never killed)
        try (dev.clickhousetcp.testsupport.PrivateServer legacy = ClickHouseServers.startPrivate(
                ClickHouseServer.Kind.LEGACY);
             ClickHouseTcpClient client = TestClients.builder(legacy.server()).validateAfterIdle(Duration.ZERO).build()) {
            client.ping(); // one idle pooled connection that the kill will break too
            QueryResult r = client.query("SELECT number FROM system.numbers SETTINGS max_block_size = 1000");
            assertThat(r.next()).isNotNull();
            legacy.kill();
            assertThatThrownBy(() -> {
                while (r.next() != null) {
                    // reading until the dead socket shows
                }
            }).isInstanceOf(ClickHouseConnectionException.class);
            r.close();
            assertThatThrownBy(() -> client.queryRows("SELECT 1")).isInstanceOf(ClickHouseConnectionException.class);
            legacy.start(); // on the same ports
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
            PoolStats s = client.poolStats();
            assertThat(s.active()).isZero();
            assertThat(s.destroyed()).isEqualTo(1); // the broken connection was discarded, not reused
        }
    }

    @Test
    void closingTheClientClosesConnectionsStillInUse() {
        ClickHouseServer legacy = ClickHouseServers.legacy();
        TlsConfig tls = TlsConfig.builder().trustedCertificates(legacy.serverCertificatePem().orElseThrow().getParent()
                .resolve("ca.crt")).build();
        Map<String, ClickHouseTcpClient.Builder> clients = new java.util.LinkedHashMap<>();
        // no shutdown grace: the borrower is this thread, which cannot give its connection back while close() waits
        clients.put("plain", TestClients.builder(ClickHouseServers.modern()).shutdownGrace(Duration.ZERO));
        clients.put("TLS", TestClients.builder(legacy).host("localhost").port(legacy.tlsPort()).tls(tls)
                .shutdownGrace(Duration.ZERO));
        clients.forEach((kind, builder) -> {
            ClickHouseTcpClient client = builder.build();
            QueryResult r = client.query("SELECT number FROM numbers(10000000) SETTINGS max_block_size = 8192");
            assertThat(r.next()).isNotNull();
            client.close();
            // the borrower is told what happened, not how the socket or the TLS session ended as a result
            assertThatThrownBy(() -> {
                while (r.next() != null) {
                    // the socket is gone
                }
            }).as(kind).isInstanceOf(ClickHouseConnectionException.class).hasMessageContaining("client was closed");
            r.close();
            assertThat(client.poolStats().total()).as(kind).isZero();
        });
    }
}
