package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.StalledListener;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Load balancing over three endpoints whose first accepts TCP connections and never answers the handshake:
 * the connections that tried it go to the live endpoints as the strategy spreads them, not all to the one
 * after it. The live endpoints are the modern and the legacy server, so each connection's server is known
 * from the endpoint it reached and the version in its Hello.
 */
@ClickHouseTest
class StalledEndpointBalancingTest {

    private static final int CALLERS = 12;

    /** In {@link #spread}'s counts: the callers whose time ran out while their connection was opened. */
    static final int TIMED_OUT = 0;

    /**
     * {@code callers} callers at once each borrow a connection and hold it until every caller has one or
     * has failed, so each has its own (an idle one, else a new one); returns how many ran their query on
     * each server, by the server's major version, and under {@link #TIMED_OUT} how many failed with a
     * timeout while borrowing.
     */
    static Map<Integer, Integer> spread(ClickHouseTcpClient client, int callers) throws Exception {
        CountDownLatch allDone = new CountDownLatch(callers);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            List<Future<Integer>> versions = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                versions.add(pool.submit(() -> {
                    start.await();
                    try {
                        return client.withConnection(c -> {
                            int version;
                            try (QueryResult r = c.query("SELECT version()", QueryOptions.DEFAULT)) {
                                version = Integer.parseInt(r.next().column(0).getString(0).split("\\.")[0]);
                                r.drain();
                            }
                            assertThat(version).isEqualTo(c.serverHello().versionMajor());
                            allDone.countDown();
                            try {
                                assertThat(allDone.await(60, TimeUnit.SECONDS)).isTrue();
                            } catch (InterruptedException e) {
                                throw new AssertionError(e);
                            }
                            return version;
                        });
                    } catch (ClickHouseTimeoutException e) {
                        allDone.countDown();
                        return TIMED_OUT;
                    }
                }));
            }
            start.countDown();
            Map<Integer, Integer> counts = new TreeMap<>();
            for (Future<Integer> v : versions) {
                counts.merge(v.get(90, TimeUnit.SECONDS), 1, Integer::sum);
            }
            return counts;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Both live servers got connections, their numbers at most one apart. */
    static void assertEven(Map<Integer, Integer> counts) {
        assertThat(counts).as("spread").containsKeys(18, 26);
        assertThat(Math.abs(counts.get(18) - counts.get(26))).as("spread %s", counts).isLessThanOrEqualTo(1);
    }

    static ClickHouseTcpClient client(StalledListener stalled, LoadBalancing balancing) {
        return builder(stalled, balancing).handshakeTimeout(Duration.ofMillis(800)).build();
    }

    static ClickHouseTcpClient.Builder builder(StalledListener stalled, LoadBalancing balancing) {
        ClickHouseServer modern = ClickHouseServers.modern();
        ClickHouseServer legacy = ClickHouseServers.legacy();
        return ClickHouseTcpClient.builder()
                .endpoints(List.of(stalled.endpoint(), modern.host() + ":" + modern.tcpPort(),
                        legacy.host() + ":" + legacy.tcpPort()))
                .loadBalancing(balancing)
                .acquireTimeout(Duration.ofSeconds(60))
                .maxPoolSize(2 * CALLERS);
    }

    /**
     * The acquire timeout shorter than the handshake timeout (with the defaults, 30 s each, the acquire
     * timeout ends first): the callers that tried the stalled endpoint fail, as their time is up, but the
     * endpoint is in back-off afterwards, so later connections do not try it.
     */
    @Test
    void anEndpointThatStalledPastTheAcquireTimeoutIsPassedOver() throws Exception {
        try (StalledListener stalled = new StalledListener();
             ClickHouseTcpClient client = builder(stalled, LoadBalancing.ROUND_ROBIN)
                     .acquireTimeout(Duration.ofMillis(800)).build()) {
            Map<Integer, Integer> counts = spread(client, CALLERS);
            assertThat(counts).isEqualTo(Map.of(TIMED_OUT, CALLERS / 3, 18, CALLERS / 3, 26, CALLERS / 3));
            assertThat(stalled.accepted()).isEqualTo(CALLERS / 3);
            Map<Integer, Integer> again = spread(client, CALLERS);
            assertThat(again).doesNotContainKey(TIMED_OUT);
            assertThat(stalled.accepted()).isEqualTo(CALLERS / 3);
            assertEven(again);
        }
    }

    @Test
    void roundRobinSpreadsEvenlyOverTheLiveEndpoints() throws Exception {
        try (StalledListener stalled = new StalledListener();
             ClickHouseTcpClient client = client(stalled, LoadBalancing.ROUND_ROBIN)) {
            Map<Integer, Integer> counts = spread(client, CALLERS);
            assertThat(counts.keySet()).containsExactly(18, 26);
            assertThat(counts.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(CALLERS);
            assertEven(counts);
            // a third of the turns went to the stalled endpoint first; within the back-off it is passed over
            assertThat(stalled.accepted()).isEqualTo(CALLERS / 3);
            // twice as many callers: the idle connections and as many new ones, all on the live endpoints
            Map<Integer, Integer> again = spread(client, 2 * CALLERS);
            assertThat(stalled.accepted()).isEqualTo(CALLERS / 3);
            assertEven(again);
        }
    }

    @Test
    void randomLandsEveryConnectionOnALiveEndpoint() throws Exception {
        try (StalledListener stalled = new StalledListener();
             ClickHouseTcpClient client = client(stalled, LoadBalancing.RANDOM)) {
            Map<Integer, Integer> counts = spread(client, CALLERS);
            assertThat(counts.keySet()).isSubsetOf(18, 26);
            assertThat(counts.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(CALLERS);
            int triedStalled = stalled.accepted(); // RANDOM is not a rotation: the stalled one's share varies
            assertThat(spread(client, 2 * CALLERS).values().stream().mapToInt(Integer::intValue).sum())
                    .isEqualTo(2 * CALLERS);
            if (triedStalled > 0) {
                assertThat(stalled.accepted()).isEqualTo(triedStalled); // passed over within the back-off
            }
        }
    }

    @Test
    void inOrderFailsOverToTheFirstLiveEndpoint() throws Exception {
        try (StalledListener stalled = new StalledListener();
             ClickHouseTcpClient client = client(stalled, LoadBalancing.IN_ORDER)) {
            assertThat(spread(client, CALLERS)).isEqualTo(Map.of(26, CALLERS));
            assertThat(stalled.accepted()).isEqualTo(CALLERS);
            assertThat(spread(client, 2 * CALLERS)).isEqualTo(Map.of(26, 2 * CALLERS));
            assertThat(stalled.accepted()).isEqualTo(CALLERS);
        }
    }
}
