package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.observe.ClickHouseTcpObservationContext;
import dev.clickhousetcp.observe.ClickHouseTcpObservationContext.Outcome;
import dev.clickhousetcp.observe.ClickHouseTcpObservationDocumentation;
import dev.clickhousetcp.observe.DefaultClickHouseTcpObservationConvention;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import io.micrometer.observation.tck.ObservationContextAssert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One observation per client call, against the real 26.7 server (and 18.16 where a call closes its
 * connection): exactly the documented keys with the expected values for every kind of call, success and
 * failure; stopped exactly once and only after the call's connection went back to the pool; a failing
 * handler never breaks a query.
 */
@ClickHouseTest
class ObservationTest {
    static final String NAME = DefaultClickHouseTcpObservationConvention.NAME;
    static final String[] LOW = keys(ClickHouseTcpObservationDocumentation.LowCardinalityKeyNames.values());
    static final String[] PROGRESS = {"clickhouse.read_rows", "clickhouse.read_bytes", "clickhouse.written_rows",
        "clickhouse.written_bytes", "clickhouse.elapsed_ns"};
    static final String[] QUERY_KEYS = concat(LOW, new String[] {"db.query.text", "clickhouse.query_id",
        "db.response.returned_rows"}, PROGRESS);
    static final String[] INSERT_KEYS = concat(LOW, new String[] {"db.query.text", "clickhouse.query_id",
        "db.operation.batch.size"}, PROGRESS);

    static ClickHouseServer server;
    static String table;

    public record Item(long id, String name) {
    }

    @BeforeAll
    static void createTable() {
        server = ClickHouseServers.modern();
        table = TestClients.table("observed");
        server.httpQuery("CREATE TABLE " + table + " (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
    }

    @AfterAll
    static void dropTable() {
        server.httpQuery("DROP TABLE IF EXISTS " + table);
    }

    /** What handlers saw: the registry, plus per context how often it stopped and the pool's lent connections then. */
    static final class Observed {
        final TestObservationRegistry registry = TestObservationRegistry.create();
        final Map<Observation.Context, Integer> stops = new IdentityHashMap<>();
        final Map<Observation.Context, Integer> activeAtStop = new IdentityHashMap<>();
        final List<ClickHouseTcpObservationContext> started = new java.util.concurrent.CopyOnWriteArrayList<>();
        final Map<Observation.Context, List<String>> events = new IdentityHashMap<>();
        ClickHouseTcpClient client;

        Observed(ClickHouseTcpClient.Builder builder) {
            registry.observationConfig().observationHandler(new ObservationHandler<>() {
                @Override
                public void onStart(Observation.Context context) {
                    started.add((ClickHouseTcpObservationContext) context);
                }

                @Override
                public void onEvent(Observation.Event event, Observation.Context context) {
                    events.computeIfAbsent(context, c -> new ArrayList<>()).add(event.getName());
                }

                @Override
                public void onStop(Observation.Context context) {
                    stops.merge(context, 1, Integer::sum);
                    activeAtStop.put(context, client.poolStats().active());
                }

                @Override
                public boolean supportsContext(Observation.Context context) {
                    return context instanceof ClickHouseTcpObservationContext;
                }
            });
            client = builder.observationRegistry(registry).build();
        }

        List<ClickHouseTcpObservationContext> contexts() {
            return new ArrayList<>(started);
        }

        /** The one observation made, checked to be stopped once with its connection given back. */
        ClickHouseTcpObservationContext only() {
            assertThat(contexts()).hasSize(1);
            ClickHouseTcpObservationContext c = contexts().get(0);
            assertThat(stops.get(c)).as("stops").isEqualTo(1);
            assertThat(activeAtStop.get(c)).as("connections lent when the observation stopped").isZero();
            return c;
        }
    }

    static Observed observed() {
        return new Observed(TestClients.builder(server).name("test"));
    }

    static Observed run(Consumer<ClickHouseTcpClient> call) {
        Observed o = observed();
        try (ClickHouseTcpClient client = o.client) {
            call.accept(client);
        }
        return o;
    }

    static void assertSuccess(ClickHouseTcpObservationContext c, String operation, String dbOperation, String[] keys) {
        ctx(c).hasNameEqualTo(NAME)
                .hasOnlyKeys(keys)
                .hasLowCardinalityKeyValue("db.system.name", "clickhouse")
                .hasLowCardinalityKeyValue("db.operation.name", dbOperation)
                .hasLowCardinalityKeyValue("clickhouse.operation", operation)
                .hasLowCardinalityKeyValue("db.namespace", "default")
                .hasLowCardinalityKeyValue("server.address", server.host())
                .hasLowCardinalityKeyValue("server.port", Integer.toString(server.tcpPort()))
                .hasLowCardinalityKeyValue("outcome", "SUCCESS")
                .hasLowCardinalityKeyValue("error.type", "none")
                .hasLowCardinalityKeyValue("db.response.status_code", "none")
                .hasLowCardinalityKeyValue("clickhouse.client.name", "test")
                .doesNotHaveError();
        assertThat(c.getOutcome()).isEqualTo(Outcome.SUCCESS);
    }

    static ObservationContextAssert<?> ctx(Observation.ContextView c) {
        return ObservationContextAssert.assertThat(c);
    }

    static String high(Observation.ContextView c, String key) {
        return c.getHighCardinalityKeyValue(key).getValue();
    }

    @Test
    void blockQuery() {
        String sql = "SELECT number FROM numbers(100000)";
        String queryId = "observed-" + UUID.randomUUID();
        Observed o = run(client -> {
            try (QueryResult r = client.query(sql, QueryOptions.builder().queryId(queryId).build())) {
                assertThat(r.drain()).isEqualTo(100_000);
            }
        });
        ClickHouseTcpObservationContext c = o.only();
        assertSuccess(c, "query", "SELECT", QUERY_KEYS);
        ctx(c).hasContextualNameEqualTo("SELECT default")
                .hasHighCardinalityKeyValue("db.query.text", sql)
                .hasHighCardinalityKeyValue("clickhouse.query_id", queryId)
                .hasHighCardinalityKeyValue("db.response.returned_rows", "100000")
                .hasHighCardinalityKeyValue("clickhouse.read_rows", "100000")
                .hasHighCardinalityKeyValue("clickhouse.written_rows", "0");
        assertThat(Long.parseLong(high(c, "clickhouse.read_bytes"))).isEqualTo(800_000); // 8 bytes a row
        assertThat(c.getTimeToFirstBlock()).isNotNull().isPositive();
        assertThat(o.events.get(c)).as("events").containsExactly("first.block"); // once, of the 100000 rows' blocks
        assertThat(c.getProfileInfo()).isNotNull();
        assertThat(c.getProfileInfo().rows()).isEqualTo(100_000);
        assertThat(c.getCompressedBytesRead()).isPositive(); // LZ4 by default
        assertThat(c.getDecompressedBytesRead()).isGreaterThan(c.getCompressedBytesRead());
        assertThat(o.registry).hasObservationWithNameEqualTo(NAME).that().hasBeenStarted().hasBeenStopped();
    }

    @Test
    void everyReadingFormIsOneQueryObservation() {
        String sql = "SELECT number AS id, toString(number) AS name FROM numbers(10)";
        List<Consumer<ClickHouseTcpClient>> forms = List.of(
                client -> assertThat(client.queryRows(sql)).hasSize(10),
                client -> assertThat(client.query(sql, (row, n) -> row.getLong(0))).hasSize(10),
                client -> assertThat(client.query(sql, Item.class)).hasSize(10),
                client -> assertThat(client.forEach(sql, Item.class, item -> { })).isEqualTo(10),
                client -> {
                    try (Stream<Item> s = client.stream(sql, Item.class)) {
                        assertThat(s.count()).isEqualTo(10);
                    }
                },
                client -> assertThat(client.describe(table)).hasSize(2));
        for (Consumer<ClickHouseTcpClient> form : forms) {
            ClickHouseTcpObservationContext c = run(form).only();
            assertThat(c.getOperationName()).isIn("SELECT", "DESCRIBE");
            assertSuccess(c, "query", c.getOperationName(), QUERY_KEYS);
            if (c.getOperationName().equals("SELECT")) {
                ctx(c).hasHighCardinalityKeyValue("db.response.returned_rows", "10");
            }
        }
    }

    @Test
    void executeAndPing() {
        Observed executed = run(client -> client.execute("OPTIMIZE TABLE " + table));
        ClickHouseTcpObservationContext exec = executed.only();
        assertSuccess(exec, "execute", "OPTIMIZE", QUERY_KEYS);
        assertThat(executed.events.get(exec)).as("no block with rows, no first.block event").isNull();
        assertThat(exec.getTimeToFirstBlock()).isNull();
        ctx(exec).hasContextualNameEqualTo("OPTIMIZE default")
                .hasHighCardinalityKeyValue("db.response.returned_rows", "0");

        ClickHouseTcpObservationContext ping = run(ClickHouseTcpClient::ping).only();
        assertSuccess(ping, "ping", "PING", LOW);
        ctx(ping).hasContextualNameEqualTo("PING");
    }

    @Test
    void everyInsertFormIsOneInsertObservation() {
        List<Consumer<ClickHouseTcpClient>> forms = List.of(
                client -> client.insert(table, List.of("id", "name"), List.of(new Object[] {1L, "a"}, new Object[] {2L, "b"})),
                client -> client.insertColumns(table, Map.of("id", new long[] {1, 2}, "name", List.of("a", "b"))),
                client -> client.insert(table, List.of(new Item(1, "a"), new Item(2, "b"))),
                client -> client.insert(table, Stream.of(new Item(1, "a"), new Item(2, "b"))),
                client -> client.insert(table, List.of(new Object[] {1L, "a"}, new Object[] {2L, "b"}),
                        InsertOptions.builder().deduplicationToken("t-" + UUID.randomUUID()).tokenPerBlock(true)
                                .maxRowsPerBlock(1).build()),
                client -> {
                    try (QueryResult r = client.query("SELECT number AS id, 'x' AS name FROM numbers(2)")) {
                        Block b = r.next().copy();
                        r.drain();
                        client.insertBlock(table, b);
                    }
                },
                client -> client.withInsert("INSERT INTO " + table + " VALUES", QueryOptions.DEFAULT, ins -> {
                    var w = ins.newWriters();
                    w[0].append(1L);
                    w[1].append("a");
                    w[0].append(2L);
                    w[1].append("b");
                    ins.sendBlock(w, 2);
                    return null;
                }));
        for (int i = 0; i < forms.size(); i++) {
            Observed o = run(forms.get(i));
            List<ClickHouseTcpObservationContext> inserts = o.contexts().stream()
                    .filter(c -> c.getOperation().value().equals("insert")).toList();
            assertThat(inserts).as("form %d", i).hasSize(1);
            ClickHouseTcpObservationContext c = inserts.get(0);
            assertThat(o.stops.get(c)).isEqualTo(1);
            assertThat(o.activeAtStop.get(c)).isZero();
            assertSuccess(c, "insert", "INSERT", INSERT_KEYS);
            ctx(c).as("form %d", i)
                    .hasContextualNameEqualTo("INSERT default")
                    .hasHighCardinalityKeyValue("db.operation.batch.size", "2")
                    .hasHighCardinalityKeyValue("clickhouse.written_rows", "2");
            assertThat(high(c, "db.query.text")).startsWith("INSERT INTO " + table);
            assertThat(Long.parseLong(high(c, "clickhouse.written_bytes"))).isPositive();
        }
    }

    @Test
    void anObjectInsertsDescribeIsItsChild() {
        Observed o = run(client -> client.insert(table, List.of(new Item(5, "e"))));
        List<ClickHouseTcpObservationContext> all = o.contexts();
        assertThat(all).extracting(ClickHouseTcpObservationContext::getOperationName)
                .containsExactlyInAnyOrder("INSERT", "DESCRIBE");
        ClickHouseTcpObservationContext describe = all.stream().filter(c -> c.getOperationName().equals("DESCRIBE"))
                .findFirst().orElseThrow();
        assertThat(describe.getParentObservation()).isNotNull();
        assertThat(describe.getParentObservation().getContextView()).isInstanceOf(ClickHouseTcpObservationContext.class);
        assertThat(((ClickHouseTcpObservationContext) describe.getParentObservation().getContextView()).getOperationName())
                .isEqualTo("INSERT");
    }

    @Test
    void sessionCallsAreObserved() {
        Observed o = observed();
        try (ClickHouseTcpClient client = o.client; ClickHouseSession session = client.openSession()) {
            session.execute("CREATE TEMPORARY TABLE tmp (x UInt8)");
            session.insert("tmp", List.of("x"), List.<Object[]>of(new Object[] {1}));
            assertThat(session.queryRows("SELECT x FROM tmp")).hasSize(1);
            session.ping();
        }
        List<ClickHouseTcpObservationContext> all = o.contexts();
        assertThat(all).extracting(ClickHouseTcpObservationContext::getOperationName)
                .containsExactly("CREATE", "INSERT", "SELECT", "PING");
        assertThat(all).allSatisfy(c -> assertThat(o.stops.get(c)).isEqualTo(1));
        assertSuccess(all.get(0), "execute", "CREATE", QUERY_KEYS);
        assertSuccess(all.get(1), "insert", "INSERT", INSERT_KEYS);
        ctx(all.get(1)).hasHighCardinalityKeyValue("db.operation.batch.size", "1");
        assertSuccess(all.get(2), "query", "SELECT", QUERY_KEYS);
        ctx(all.get(2)).hasHighCardinalityKeyValue("db.response.returned_rows", "1");
        assertSuccess(all.get(3), "ping", "PING", LOW);
    }

    @Test
    void sessionErrorsAreObserved() {
        Observed o = observed();
        try (ClickHouseTcpClient client = o.client; ClickHouseSession session = client.openSession()) {
            assertThatThrownBy(() -> session.queryRows("SELECT * FROM no_such_temporary_table"))
                    .isInstanceOf(ClickHouseServerException.class);
            assertThatThrownBy(() -> session.insert("no_such_temporary_table", List.of("x"),
                    List.<Object[]>of(new Object[] {1}))).isInstanceOf(ClickHouseServerException.class);
            assertThatThrownBy(() -> session.execute("SELEC 1")).isInstanceOf(ClickHouseServerException.class);
        }
        List<ClickHouseTcpObservationContext> all = o.contexts();
        assertThat(all).extracting(c -> c.getOperation().value()).containsExactly("query", "insert", "execute");
        String[][] keys = {QUERY_KEYS, INSERT_KEYS, QUERY_KEYS};
        String[] codes = {"60", "60", "62"};
        for (int i = 0; i < all.size(); i++) {
            ClickHouseTcpObservationContext c = all.get(i);
            assertThat(o.stops.get(c)).isEqualTo(1);
            ctx(c).hasOnlyKeys(keys[i])
                    .hasLowCardinalityKeyValue("outcome", "ERROR")
                    .hasLowCardinalityKeyValue("error.type", codes[i])
                    .hasLowCardinalityKeyValue("db.response.status_code", codes[i])
                    .hasLowCardinalityKeyValue("server.address", server.host())
                    .hasLowCardinalityKeyValue("clickhouse.client.name", "test")
                    .hasError();
        }
    }

    @Test
    void serverError() {
        String sql = "SELECT * FROM no_such_table_" + UUID.randomUUID().toString().replace("-", "");
        Observed o = run(client -> assertThatThrownBy(() -> client.queryRows(sql))
                .isInstanceOf(ClickHouseServerException.class));
        ClickHouseTcpObservationContext c = o.only();
        ctx(c).hasOnlyKeys(QUERY_KEYS)
                .hasLowCardinalityKeyValue("outcome", "ERROR")
                .hasLowCardinalityKeyValue("error.type", "60")
                .hasLowCardinalityKeyValue("db.response.status_code", "60")
                .hasLowCardinalityKeyValue("server.address", server.host())
                .hasHighCardinalityKeyValue("db.response.returned_rows", "0")
                .hasError();
        assertThat(c.getError()).isInstanceOf(ClickHouseServerException.class);

        ClickHouseTcpObservationContext insert = run(client -> assertThatThrownBy(() ->
                client.insert("no_such_table_x", List.of("id"), List.<Object[]>of(new Object[] {1L})))
                .isInstanceOf(ClickHouseServerException.class)).only();
        ctx(insert).hasOnlyKeys(INSERT_KEYS)
                .hasLowCardinalityKeyValue("clickhouse.operation", "insert")
                .hasLowCardinalityKeyValue("outcome", "ERROR")
                .hasLowCardinalityKeyValue("error.type", "60")
                .hasLowCardinalityKeyValue("db.response.status_code", "60")
                .hasHighCardinalityKeyValue("db.operation.batch.size", "0");

        ClickHouseTcpObservationContext exec = run(client -> assertThatThrownBy(() -> client.execute("SELEC 1"))
                .isInstanceOf(ClickHouseServerException.class)).only();
        ctx(exec).hasOnlyKeys(QUERY_KEYS)
                .hasLowCardinalityKeyValue("db.operation.name", "OTHER")
                .hasLowCardinalityKeyValue("error.type", "62")
                .hasLowCardinalityKeyValue("db.response.status_code", "62");
    }

    @Test
    void connectionFailures() {
        Observed o = new Observed(ClickHouseTcpClient.builder().host("127.0.0.1").port(1).name("test")
                .connectTimeout(Duration.ofSeconds(2)).acquireTimeout(Duration.ofSeconds(2)));
        try (ClickHouseTcpClient client = o.client) {
            assertThatThrownBy(client::ping).isInstanceOf(dev.clickhousetcp.ClickHouseConnectionException.class);
            assertThatThrownBy(() -> client.queryRows("SELECT 1"))
                    .isInstanceOf(dev.clickhousetcp.ClickHouseConnectionException.class);
            assertThatThrownBy(() -> client.insert(table, List.of("id"), List.<Object[]>of(new Object[] {1L})))
                    .isInstanceOf(dev.clickhousetcp.ClickHouseConnectionException.class);
        }
        List<ClickHouseTcpObservationContext> all = o.contexts();
        assertThat(all).extracting(ClickHouseTcpObservationContext::getOperationName)
                .containsExactly("PING", "SELECT", "INSERT");
        // nothing was sent: no query_id; the server is the configured one
        String[] queryKeys = Arrays.stream(QUERY_KEYS).filter(k -> !k.equals("clickhouse.query_id")).toArray(String[]::new);
        String[] insertKeys = Arrays.stream(INSERT_KEYS).filter(k -> !k.equals("clickhouse.query_id")).toArray(String[]::new);
        String[][] expectedKeys = {LOW, queryKeys, insertKeys};
        for (int i = 0; i < all.size(); i++) {
            ClickHouseTcpObservationContext c = all.get(i);
            assertThat(o.stops.get(c)).isEqualTo(1);
            ctx(c).hasOnlyKeys(expectedKeys[i])
                    .hasLowCardinalityKeyValue("outcome", "ERROR")
                    .hasLowCardinalityKeyValue("error.type", dev.clickhousetcp.ClickHouseConnectionException.class.getName())
                    .hasLowCardinalityKeyValue("db.response.status_code", "none")
                    .hasLowCardinalityKeyValue("server.address", "127.0.0.1")
                    .hasLowCardinalityKeyValue("server.port", "1")
                    .hasError();
        }
    }

    @Test
    void aMappingErrorEndsTheObservationWithIt() {
        IllegalStateException boom = new IllegalStateException("boom");
        ClickHouseTcpObservationContext c = run(client -> assertThatThrownBy(() ->
                client.forEach("SELECT number AS id, 'x' AS name FROM numbers(1000000)", Item.class, item -> {
                    throw boom;
                })).isSameAs(boom)).only();
        ctx(c).hasOnlyKeys(QUERY_KEYS)
                .hasLowCardinalityKeyValue("outcome", "ERROR")
                .hasLowCardinalityKeyValue("error.type", "java.lang.IllegalStateException")
                .hasLowCardinalityKeyValue("db.response.status_code", "none");
        assertThat(c.getError()).isSameAs(boom);
    }

    @Test
    void timeout() {
        ClickHouseTcpObservationContext c = run(client -> assertThatThrownBy(() -> client.queryRows(
                "SELECT sleepEachRow(0.1) FROM numbers(100) SETTINGS max_block_size = 1",
                QueryOptions.builder().timeout(Duration.ofMillis(300)).build()))
                .isInstanceOf(ClickHouseTimeoutException.class)).only();
        ctx(c).hasOnlyKeys(QUERY_KEYS)
                .hasLowCardinalityKeyValue("outcome", "ERROR")
                .hasLowCardinalityKeyValue("error.type", ClickHouseTimeoutException.class.getName())
                .hasLowCardinalityKeyValue("db.response.status_code", "none");
        assertThat(c.getTimeoutException()).isNotNull();
    }

    @Test
    void closingEarlyAndCancelAreCancellations() {
        ClickHouseTcpObservationContext closed = run(client -> {
            try (QueryResult r = client.query("SELECT number FROM numbers(100000000)")) {
                assertThat(r.next()).isNotNull();
            }
        }).only();
        ctx(closed).hasOnlyKeys(QUERY_KEYS)
                .hasLowCardinalityKeyValue("outcome", "CANCELLED")
                .hasLowCardinalityKeyValue("error.type", "cancelled")
                .doesNotHaveError();
        assertThat(Long.parseLong(high(closed, "db.response.returned_rows"))).isPositive();

        ClickHouseTcpObservationContext cancelled = run(client -> {
            try (QueryResult r = client.query("SELECT number FROM numbers(100000000)")) {
                assertThat(r.next()).isNotNull();
                r.cancel();
                r.drain();
            }
        }).only();
        ctx(cancelled).hasLowCardinalityKeyValue("outcome", "CANCELLED")
                .hasLowCardinalityKeyValue("error.type", "cancelled");

        // a stream closed before its end
        ClickHouseTcpObservationContext stream = run(client -> {
            try (Stream<Item> s = client.stream("SELECT number AS id, 'x' AS name FROM numbers(100000000)", Item.class)) {
                assertThat(s.findFirst()).isPresent();
            }
        }).only();
        assertThat(stream.getOutcome()).isEqualTo(Outcome.CANCELLED);
    }

    @Test
    void anInterruptedQueryIsACancellation() {
        ClickHouseTcpObservationContext interrupted = run(client -> {
            try (QueryResult r = client.query("SELECT sleepEachRow(0.05), number FROM numbers(2000) "
                    + "SETTINGS max_block_size = 1, function_sleep_max_microseconds_per_block = 0")) {
                assertThat(r.next()).isNotNull();
                Thread.currentThread().interrupt(); // the caller's thread asks the call to stop
                assertThatThrownBy(r::drain).isInstanceOf(ClickHouseException.class).hasMessageContaining("interrupted");
            } finally {
                Thread.interrupted();
            }
        }).only();
        ctx(interrupted).hasLowCardinalityKeyValue("outcome", "CANCELLED")
                .hasLowCardinalityKeyValue("error.type", "cancelled");
    }

    /**
     * Every operation kind interrupted by its caller's thread is a cancellation, wherever the interrupt
     * meets the call: while an insert waits for the server's confirmation (its connection is then closed,
     * so these run against the legacy server), or while a call waits for a pooled connection.
     */
    @Test
    void anInterruptedCallOfAnyKindIsACancellation() {
        ClickHouseServer legacy = ClickHouseServers.legacy();
        String legacyTable = TestClients.table("observed_interrupt");
        legacy.httpQuery("CREATE TABLE " + legacyTable + " (id UInt64, name String) ENGINE = Memory");
        try {
            // rows form: the thread is interrupted while the last row is produced, then waits for the server
            Iterable<Object[]> rows = () -> new Iterator<>() {
                int n;

                @Override
                public boolean hasNext() {
                    return n < 2;
                }

                @Override
                public Object[] next() {
                    if (++n == 2) {
                        Thread.currentThread().interrupt();
                    }
                    return new Object[] {(long) n, "r"};
                }
            };
            assertInterruptedCancellation(legacy, "insert", client -> client.insert(legacyTable, List.of("id", "name"), rows));
            // a callback's insert: interrupted after a block was sent
            assertInterruptedCancellation(legacy, "insert", client -> client.withInsert("INSERT INTO " + legacyTable
                    + " VALUES", QueryOptions.DEFAULT, ins -> {
                        var w = ins.newWriters();
                        w[0].append(1L);
                        w[1].append("a");
                        ins.sendBlock(w, 1);
                        Thread.currentThread().interrupt();
                        return null;
                    }));
            // interrupted while its connection is opened: a cancellation, and not attempted again
            Observed o = new Observed(TestClients.builder(legacy).name("test"));
            InsertOptions attempts = InsertOptions.builder().maxAttempts(3).deduplicationToken("t-" + UUID.randomUUID())
                    .build();
            try (ClickHouseTcpClient client = o.client) {
                Thread.currentThread().interrupt();
                assertThatThrownBy(() -> client.insert(legacyTable, List.of("id", "name"),
                        List.<Object[]>of(new Object[] {1L, "a"}), attempts))
                        .isInstanceOf(ClickHouseException.class).hasMessageContaining("interrupted");
                assertThat(Thread.interrupted()).as("the caller's interrupt is kept").isTrue();
            } finally {
                Thread.interrupted();
            }
            ClickHouseTcpObservationContext opening = o.only();
            ctx(opening).hasLowCardinalityKeyValue("outcome", "CANCELLED")
                    .hasLowCardinalityKeyValue("error.type", "cancelled")
                    .doesNotHaveError();
            assertThat(opening.getRetries()).as("attempts after the interrupt").isZero();
        } finally {
            legacy.httpQuery("DROP TABLE IF EXISTS " + legacyTable);
        }
        // waiting for the pool's only connection, lent to an open result: before anything is sent
        Map<String, Consumer<ClickHouseTcpClient>> waiting = new LinkedHashMap<>();
        waiting.put("ping", ClickHouseTcpClient::ping);
        waiting.put("query", client -> client.queryRows("SELECT 1"));
        waiting.put("execute", client -> client.execute("SELECT 1"));
        waiting.put("insert", client -> client.insert(table, List.of("id", "name"),
                List.<Object[]>of(new Object[] {1L, "a"})));
        waiting.forEach((operation, call) -> {
            Observed o = new Observed(TestClients.builder(server).name("test").maxPoolSize(1)
                    .acquireTimeout(Duration.ofSeconds(30)));
            try (ClickHouseTcpClient client = o.client; QueryResult holder = client.query("SELECT 1")) {
                Thread.currentThread().interrupt();
                assertThatThrownBy(() -> call.accept(client)).as(operation)
                        .isInstanceOf(ClickHouseException.class).hasMessageContaining("interrupted");
                assertThat(Thread.interrupted()).as("the caller's interrupt is kept").isTrue();
                holder.drain();
            } finally {
                Thread.interrupted();
            }
            ClickHouseTcpObservationContext c = o.contexts().get(1);
            assertThat(c.getOperation().value()).isEqualTo(operation);
            assertThat(o.stops.get(c)).isEqualTo(1);
            ctx(c).as(operation)
                    .hasLowCardinalityKeyValue("outcome", "CANCELLED")
                    .hasLowCardinalityKeyValue("error.type", "cancelled")
                    .hasLowCardinalityKeyValue("db.response.status_code", "none")
                    .doesNotHaveError();
        });
    }

    /** {@code call} on a client of {@code target} fails as interrupted; its one observation is a cancellation. */
    static void assertInterruptedCancellation(ClickHouseServer target, String operation, Consumer<ClickHouseTcpClient> call) {
        Observed o = new Observed(TestClients.builder(target).name("test"));
        try (ClickHouseTcpClient client = o.client) {
            assertThatThrownBy(() -> call.accept(client)).as(operation)
                    .isInstanceOf(ClickHouseException.class).hasMessageContaining("interrupted");
            assertThat(Thread.interrupted()).as("the caller's interrupt is kept").isTrue();
        } finally {
            Thread.interrupted();
        }
        ClickHouseTcpObservationContext c = o.only();
        assertThat(c.getOperation().value()).isEqualTo(operation);
        ctx(c).as(operation)
                .hasLowCardinalityKeyValue("outcome", "CANCELLED")
                .hasLowCardinalityKeyValue("error.type", "cancelled")
                .hasLowCardinalityKeyValue("db.response.status_code", "none")
                .doesNotHaveError();
    }

    /** A call waiting for the pool's only connection is observed already: the wait is part of its observation. */
    @Test
    void theObservationStartsBeforeTheConnectionIsAcquired() throws Exception {
        Observed o = new Observed(TestClients.builder(server).name("test").maxPoolSize(1));
        ClickHouseTcpObservationContext waiting;
        try (ClickHouseTcpClient client = o.client) {
            java.util.concurrent.CompletableFuture<Integer> second;
            try (QueryResult holder = client.query("SELECT 1")) {
                second = java.util.concurrent.CompletableFuture.supplyAsync(() -> client.queryRows("SELECT 2").size());
                long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (client.poolStats().pending() == 0) {
                    assertThat(System.nanoTime() - deadline).as("the second call waits for the pool").isNegative();
                    Thread.sleep(5); // polling interval, not a wait for an event
                }
                assertThat(o.contexts()).as("observations started while the second call waits").hasSize(2);
                waiting = o.contexts().get(1);
                assertThat(o.stops).doesNotContainKey(waiting);
                holder.drain();
            }
            assertThat(second.get(20, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(1);
        }
        assertThat(o.stops.get(waiting)).isEqualTo(1);
        assertSuccess(waiting, "query", "SELECT", QUERY_KEYS);
    }

    @Test
    void aStreamedResultsObservationEndsWhenItCloses() {
        Observed o = observed();
        try (ClickHouseTcpClient client = o.client) {
            QueryResult r = client.query("SELECT number FROM numbers(10)");
            assertThat(o.contexts()).hasSize(1);
            assertThat(o.stops).isEmpty();
            r.next();
            assertThat(o.stops).isEmpty();
            r.close();
            assertThat(o.stops).hasSize(1);
            r.close();
        }
        o.only();
    }

    @Test
    void queryTextCanBeTurnedOffAndNeverHoldsParameterValues() {
        String sql = "SELECT number FROM numbers(10) WHERE number > {min:UInt64}";
        Observed withText = run(client -> client.queryRows(sql,
                QueryOptions.builder().parameter("min", 7_654_321).build()));
        assertThat(high(withText.only(), "db.query.text")).isEqualTo(sql).doesNotContain("7654321");

        Observed o = new Observed(TestClients.builder(server).name("test")
                .observationConvention(new DefaultClickHouseTcpObservationConvention(false)));
        try (ClickHouseTcpClient client = o.client) {
            client.queryRows("SELECT 1");
        }
        List<String> expected = new ArrayList<>(Arrays.asList(QUERY_KEYS));
        expected.remove("db.query.text");
        ctx(o.only()).hasOnlyKeys(expected.toArray(new String[0]));
    }

    @Test
    void withoutARegistryNothingIsObserved() {
        try (ClickHouseTcpClient plain = TestClients.client(server);
             ClickHouseTcpClient noop = TestClients.builder(server).observationRegistry(ObservationRegistry.NOOP).build()) {
            assertThat(plain.isObserved()).isFalse();
            assertThat(noop.isObserved()).isFalse();
            assertThat(plain.queryRows("SELECT 1")).hasSize(1);
            assertThat(noop.queryRows("SELECT 1")).hasSize(1);
            assertThat(plain.name()).isEqualTo("default");
        }
        // a registry without handlers: observations are no-ops, queries run as before
        ObservationRegistry empty = ObservationRegistry.create();
        try (ClickHouseTcpClient client = TestClients.builder(server).observationRegistry(empty).build()) {
            assertThat(client.isObserved()).isTrue();
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
            client.ping();
        }
    }

    @Test
    void failingHandlersNeverBreakACall() {
        AtomicInteger calls = new AtomicInteger();
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onStart(Observation.Context context) {
                calls.incrementAndGet();
                throw new IllegalStateException("handler fails on start");
            }

            @Override
            public void onEvent(Observation.Event event, Observation.Context context) {
                throw new IllegalStateException("handler fails on event");
            }

            @Override
            public void onStop(Observation.Context context) {
                throw new IllegalStateException("handler fails on stop");
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
        try (ClickHouseTcpClient client = TestClients.builder(server).observationRegistry(registry).build()) {
            for (int i = 0; i < 3; i++) {
                assertThat(client.queryRows("SELECT number FROM numbers(5)")).hasSize(5);
                client.insert(table, List.of("id", "name"), List.<Object[]>of(new Object[] {9L, "z"}));
                client.ping();
            }
            assertThat(client.poolStats().active()).isZero();
        }
        assertThat(calls.get()).isEqualTo(9);
    }

    static String[] keys(KeyName[] names) {
        return Arrays.stream(names).map(KeyName::asString).toArray(String[]::new);
    }

    static String[] concat(String[]... parts) {
        return Arrays.stream(parts).flatMap(Arrays::stream).toArray(String[]::new);
    }
}
