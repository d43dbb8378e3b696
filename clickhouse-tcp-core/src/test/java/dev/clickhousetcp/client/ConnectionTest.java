package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.Int64Column;
import dev.clickhousetcp.protocol.ProtocolRevision;
import dev.clickhousetcp.protocol.ServerHello;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ClickHouseTest
class ConnectionTest {

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void handshakeFieldsMatchTheServer(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        String[] expected = server.httpQuery("SELECT version(), timezone(), hostName()").trim().split("\t");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            ServerHello hello = client.serverInfo();
            assertThat(hello.name()).isEqualTo("ClickHouse");
            assertThat(expected[0]).startsWith(hello.version());
            assertThat(hello.timezone()).isEqualTo(expected[1]);
            assertThat(hello.displayName()).isNotEmpty();
            if (kind == ClickHouseServer.Kind.MODERN) {
                assertThat(hello.revision()).isEqualTo(ProtocolRevision.CLIENT);
                assertThat(hello.parallelReplicasProtocol()).isPositive();
            } else {
                assertThat(hello.revision()).isLessThan(54429);
            }
            client.withConnection(c -> {
                assertThat(c.revision()).isEqualTo(Math.min(ProtocolRevision.CLIENT, hello.revision()));
                return null;
            });
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void pingAndReuse(ClickHouseServer.Kind kind) {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.get(kind))) {
            for (int i = 0; i < 5; i++) {
                client.ping();
            }
            assertThat(client.poolStats().created()).isEqualTo(1);
            assertThat(client.poolStats().idle()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void manyBlocksAreReadFully(ClickHouseServer.Kind kind) {
        long n = 3_000_000;
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.get(kind));
             QueryResult r = client.query("SELECT number FROM system.numbers LIMIT " + n)) {
            long sum = 0;
            int blocks = 0;
            long[] buf = new long[1 << 20];
            Block b;
            while ((b = r.next()) != null) {
                Int64Column c = (Int64Column) b.column(0);
                if (b.rowCount() > buf.length) {
                    buf = new long[b.rowCount()];
                }
                c.copyTo(buf, 0);
                for (int i = 0; i < b.rowCount(); i++) {
                    sum += buf[i];
                }
                blocks++;
            }
            assertThat(r.rowCount()).isEqualTo(n);
            assertThat(sum).isEqualTo(n * (n - 1) / 2);
            assertThat(blocks).isGreaterThan(1);
            assertThat(r.progress().readRows()).isGreaterThanOrEqualTo(n);
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void serverExceptionCarriesCodeAndKeepsTheConnection(ClickHouseServer.Kind kind) {
        // 18.16 cannot skip the compressed end-of-data block of a query that failed while being parsed
        // and closes the connection (CompressionTest covers that case); uncompressed, it stays usable
        Compression compression = kind == ClickHouseServer.Kind.LEGACY ? Compression.NONE : Compression.LZ4;
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.get(kind)).compression(compression)
                .build()) {
            assertThatThrownBy(() -> client.execute("SELECT * FROM default.no_such_table_xyz"))
                    .isInstanceOfSatisfying(ClickHouseServerException.class, e -> {
                        assertThat(e.code()).isEqualTo(60);
                        assertThat(e.name()).isEqualTo("DB::Exception");
                        assertThat(e.getMessage()).contains("no_such_table_xyz");
                    });
            assertThatThrownBy(() -> client.execute("SELECT * FROM no_such_db_xyz.t"))
                    .isInstanceOfSatisfying(ClickHouseServerException.class, e -> assertThat(e.code()).isEqualTo(81));
            assertThatThrownBy(() -> client.execute("SELEC 1"))
                    .isInstanceOfSatisfying(ClickHouseServerException.class, e -> assertThat(e.code()).isEqualTo(62));
            assertThat(client.queryRows("SELECT 42").get(0)[0]).isEqualTo((short) 42);
            PoolStats s = client.poolStats();
            assertThat(s.created()).isEqualTo(1);
            assertThat(s.destroyed()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void exceptionInTheMiddleOfAStream(ClickHouseServer.Kind kind) {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.get(kind))) {
            String sql = "SELECT throwIf(number = 900000) AS x FROM system.numbers LIMIT 1000000 "
                    + "SETTINGS max_block_size = 65536";
            try (QueryResult r = client.query(sql)) {
                assertThatThrownBy(r::drain).isInstanceOfSatisfying(ClickHouseServerException.class,
                        e -> assertThat(e.code()).isEqualTo(395));
            }
            assertThat(client.queryRows("SELECT 1").size()).isEqualTo(1);
            assertThat(client.poolStats().destroyed()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void closingAnUnfinishedResultCancelsAndKeepsTheConnection(ClickHouseServer.Kind kind) {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.get(kind))) {
            try (QueryResult r = client.query("SELECT number FROM system.numbers LIMIT 100000000 SETTINGS max_block_size = 8192")) {
                assertThat(r.next()).isNotNull();
            }
            assertThat(client.queryRows("SELECT 7").get(0)[0]).isEqualTo((short) 7);
            PoolStats s = client.poolStats();
            assertThat(s.total()).isEqualTo(1);
            assertThat(s.active()).isZero();
        }
    }

    /**
     * LowCardinality strings are decoded once per dictionary entry and shared by the rows holding it;
     * the values equal the server's, NULL stays null, and the column still refuses reads once its
     * block is released.
     */
    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void lowCardinalityStringsAreDecodedOncePerDictionaryEntry(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        String sql = "SELECT toLowCardinality(concat('v', toString(number % 7))), "
                + "toLowCardinality(if(number % 3 = 0, NULL, toNullable(concat('n', toString(number % 5))))) "
                + "FROM system.numbers LIMIT 100 SETTINGS max_block_size = 50";
        List<String> expected = List.of(server.httpQuery(sql + " FORMAT TSV").trim().split("\n"));
        try (ClickHouseTcpClient client = TestClients.client(server);
             QueryResult r = client.query(sql)) {
            Block first = r.next();
            Column plain = first.column(0);
            Column nullable = first.column(1);
            for (int i = 0; i < first.rowCount(); i++) {
                String[] cells = expected.get(i).split("\t");
                assertThat(plain.getString(i)).isEqualTo(cells[0]);
                assertThat(plain.getObject(i)).isEqualTo(cells[0]);
                if (cells[1].equals("\\N")) {
                    assertThat(nullable.getString(i)).isNull();
                    assertThat(nullable.getObject(i)).isNull();
                } else {
                    assertThat(nullable.getString(i)).isEqualTo(cells[1]);
                }
            }
            assertThat(plain.getString(7)).isSameAs(plain.getString(0)).isSameAs(plain.getObject(14));
            r.next();
            assertThatThrownBy(() -> plain.getString(0)).isInstanceOf(IllegalStateException.class);
            r.drain();
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void aBlockIsBorrowedUntilTheStreamMovesOn(ClickHouseServer.Kind kind) {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.get(kind));
             QueryResult r = client.query("SELECT number FROM system.numbers LIMIT 100 SETTINGS max_block_size = 10")) {
            Block first = r.next();
            Column kept = first.column(0).copy();
            Column borrowed = first.column(0);
            assertThat(borrowed.getLong(3)).isEqualTo(3);
            r.next();
            assertThatThrownBy(() -> borrowed.getLong(3)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("copy()");
            assertThatThrownBy(() -> first.column(0)).isInstanceOf(IllegalStateException.class);
            assertThat(kept.getLong(3)).isEqualTo(3);
            r.drain();
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void settingsAndParametersReachTheServer(ClickHouseServer.Kind kind) {
        try (ClickHouseTcpClient client = TestClients.builder(ClickHouseServers.get(kind)).setting("max_threads", 3).build()) {
            QueryOptions opts = QueryOptions.builder().setting("max_block_size", 1234).build();
            Object[] row = client.queryRows("SELECT toString(value) FROM system.settings WHERE name IN ('max_threads', "
                    + "'max_block_size') ORDER BY name", opts).stream().map(r -> r[0]).toArray();
            assertThat(row).containsExactly("1234", "3");
            if (kind == ClickHouseServer.Kind.MODERN) {
                QueryOptions p = QueryOptions.builder().parameter("n", 5).parameter("s", "it's a \\ \t 'test'")
                        .parameter("d", java.time.LocalDate.of(2024, 2, 29)).parameter("a", java.util.List.of("x", "y'z"))
                        .parameter("m", java.util.Map.of("k", 1)).parameter("nul", null).build();
                Object[] r = client.queryRows("SELECT {n:UInt8} + 1, {s:String}, {d:Date}, {a:Array(String)}, "
                        + "{m:Map(String, UInt8)}, {nul:Nullable(Int32)}", p).get(0);
                assertThat(r).containsExactly(6, "it's a \\ \t 'test'", java.time.LocalDate.of(2024, 2, 29),
                        java.util.List.of("x", "y'z"), java.util.Map.of("k", (short) 1), null);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void queryIdIsSentAndVisible(ClickHouseServer.Kind kind) {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.get(kind))) {
            String id = "qid-" + System.nanoTime();
            // the running query sees itself in system.processes under the id we sent
            Object[] r = client.queryRows("SELECT query_id FROM system.processes WHERE query_id = '" + id + "'",
                    QueryOptions.builder().queryId(id).build()).get(0);
            assertThat(r[0]).isEqualTo(id);
        }
    }

    @org.junit.jupiter.api.Test
    void closedPortGivesAConnectionExceptionAndNoPooledConnection() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host("127.0.0.1").port(port)
                .connectTimeout(Duration.ofSeconds(2)).build()) {
            assertThatThrownBy(client::ping).isInstanceOf(ClickHouseConnectionException.class)
                    .hasMessageContaining("127.0.0.1:" + port);
            assertThat(client.poolStats().total()).isZero();
        }
    }

    @org.junit.jupiter.api.Test
    void aNonClickHouseAnswerIsAProtocolError() {
        // the HTTP port answers the native Hello with "HTTP/1.1 400": 'H' is no packet this protocol knows
        ClickHouseServer modern = ClickHouseServers.modern();
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host(modern.host()).port(modern.httpPort())
                .handshakeTimeout(Duration.ofSeconds(5)).build()) {
            assertThatThrownBy(client::ping).isInstanceOf(ClickHouseProtocolException.class)
                    .hasMessageContaining("Hello");
            assertThat(client.poolStats().total()).isZero();
        }
    }

    @org.junit.jupiter.api.Test
    void wrongDatabaseAtHandshakeIsAServerException() {
        ClickHouseServer legacy = ClickHouseServers.legacy();
        try (ClickHouseTcpClient client = TestClients.builder(legacy).database("no_such_database_xyz").build()) {
            assertThatThrownBy(client::ping).isInstanceOfSatisfying(ClickHouseServerException.class,
                    e -> assertThat(e.code()).isEqualTo(81));
            assertThat(client.poolStats().total()).isZero();
        }
    }

    @org.junit.jupiter.api.Test
    void closedClientRefusesWork() {
        ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern());
        client.ping();
        client.close();
        assertThatThrownBy(client::ping).isInstanceOf(ClickHouseException.class).hasMessageContaining("closed");
    }

    @org.junit.jupiter.api.Test
    void inlineInsertValuesOnAServerThatWantsBlocksIsAClearError() {
        ClickHouseServer legacy = ClickHouseServers.legacy();
        String t = TestClients.table("inline");
        try (ClickHouseTcpClient client = TestClients.client(legacy)) {
            client.execute("CREATE TABLE " + t + " (id UInt32) ENGINE = Memory");
            try {
                assertThatThrownBy(() -> client.execute("/* c */ insert INTO " + t + " VALUES (1)"))
                        .isInstanceOf(ClickHouseException.class).hasMessageContaining("insert(");
                assertThat(legacy.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo("0");
                assertThat(client.queryRows("SELECT 1")).hasSize(1);
                assertThat(client.poolStats().active()).isZero();
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @org.junit.jupiter.api.Test
    void columnBuffersAreRecycledAcrossBlocks() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            client.withConnection(c -> {
                long allocatedBefore = c.bufferPool().allocatedBytes();
                long reusedBefore = c.bufferPool().reusedBytes();
                try (QueryResult r = c.query("SELECT number, toString(number) FROM numbers(2000000) "
                        + "SETTINGS max_block_size = 65536", QueryOptions.DEFAULT)) {
                    long n = 0;
                    for (Block b : r) {
                        assertThat(b.column(0).getLong(b.rowCount() - 1)).isEqualTo(n + b.rowCount() - 1);
                        assertThat(b.column(1).getString(0)).isEqualTo(Long.toString(n));
                        n += b.rowCount();
                    }
                    assertThat(n).isEqualTo(2_000_000);
                }
                // 31 blocks of ~1.3 MB of column buffers: after the first blocks, the bytes come from the pool
                long allocated = c.bufferPool().allocatedBytes() - allocatedBefore;
                long reused = c.bufferPool().reusedBytes() - reusedBefore;
                assertThat(reused).as("allocated %d bytes", allocated).isGreaterThan(5 * allocated);
                return null;
            });
        }
    }

    @org.junit.jupiter.api.Test
    void blockBufferPoolSizeBoundsTheIdleBuffersAConnectionKeeps() {
        ClickHouseServer server = ClickHouseServers.modern();
        String sql = "SELECT number, toString(number) FROM numbers(2000000) SETTINGS max_block_size = 65536";
        for (long cap : new long[] {0, 1L << 20, ClickHouseConnection.BUFFER_POOL_MAX_RETAINED_BYTES}) {
            try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host(server.host())
                    .port(server.tcpPort()).blockBufferPoolSize(cap).build()) {
                assertThat(client.config().blockBufferPoolSize()).isEqualTo(cap);
                client.withConnection(c -> {
                    long rows = 0;
                    try (QueryResult r = c.query(sql, QueryOptions.DEFAULT)) {
                        for (Block b : r) {
                            rows += b.rowCount();
                        }
                    }
                    assertThat(rows).isEqualTo(2_000_000);
                    assertThat(c.bufferPool().maxRetainedBytes()).isEqualTo(cap);
                    assertThat(c.bufferPool().retainedBytes()).as("cap %d", cap).isLessThanOrEqualTo(cap);
                    if (cap > 0) {
                        assertThat(c.bufferPool().retainedBytes()).as("cap %d", cap).isPositive();
                    }
                    return null;
                });
            }
        }
        assertThatIllegalArgumentException().isThrownBy(() -> ClickHouseTcpClient.builder().blockBufferPoolSize(-1));
    }

    @org.junit.jupiter.api.Test
    void temporalAndAddressParameters() throws Exception {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            java.time.Instant instant = java.time.Instant.parse("2024-01-02T03:04:05Z");
            QueryOptions p = QueryOptions.builder()
                    .parameter("i", instant)
                    .parameter("i3", instant.plusMillis(123))
                    .parameter("z", instant.atZone(java.time.ZoneId.of("Asia/Tokyo")))
                    .parameter("l", java.time.LocalDateTime.of(2024, 1, 2, 3, 4, 5))
                    .parameter("t", java.time.LocalTime.of(3, 4))
                    .parameter("ip", java.net.InetAddress.getByName("10.1.2.3"))
                    .parameter("arr", java.util.List.of(instant))
                    .build();
            String[] r = client.query("SELECT toString({i:DateTime('UTC')}), toString({i3:DateTime64(3, 'UTC')}), "
                    + "toString({z:DateTime('UTC')}), toString({l:DateTime('UTC')}), toString({t:String}), "
                    + "toString({ip:IPv4}), toString({arr:Array(DateTime('UTC'))})", p,
                    (row, n) -> new String[] {row.getString(0), row.getString(1), row.getString(2), row.getString(3),
                        row.getString(4), row.getString(5), row.getString(6)}).get(0);
            assertThat(r).containsExactly("2024-01-02 03:04:05", "2024-01-02 03:04:05.123", "2024-01-02 03:04:05",
                    "2024-01-02 03:04:05", "03:04:00", "10.1.2.3", "['2024-01-02 03:04:05']");
            assertThatThrownBy(() -> QueryOptions.builder().parameter("b", new byte[1]))
                    .isInstanceOf(dev.clickhousetcp.ClickHouseTypeException.class);
            assertThatThrownBy(() -> QueryOptions.builder().parameter("o", new Object()))
                    .isInstanceOf(dev.clickhousetcp.ClickHouseTypeException.class);
        }
    }

    @org.junit.jupiter.api.Test
    void aLimitViolationMidStreamDiscardsTheConnectionAndSparesTheServer() {
        ClickHouseServer server = ClickHouseServers.modern();
        long uptimeBefore = Long.parseLong(server.httpQuery("SELECT uptime()").trim());
        dev.clickhousetcp.data.DecodeLimits tiny = new dev.clickhousetcp.data.DecodeLimits(1000, 1 << 20, 1L << 30,
                1 << 20, 100);
        try (ClickHouseTcpClient client = TestClients.builder(server).limits(tiny).build()) {
            assertThatThrownBy(() -> client.queryRows("SELECT number FROM numbers(1000000) SETTINGS max_block_size = 65536"))
                    .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("row count");
            assertThat(client.poolStats().total()).isZero();
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
        // the server was not restarted (a reset connection would have aborted the embedded one)
        long uptimeAfter = Long.parseLong(server.httpQuery("SELECT uptime()").trim());
        assertThat(uptimeAfter).isGreaterThanOrEqualTo(uptimeBefore);
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void externalTablesAreVisibleToTheQuery(ClickHouseServer.Kind kind) {
        java.util.List<Object[]> ids = new java.util.ArrayList<>();
        for (long i = 0; i < 100_000; i += 7) {
            ids.add(new Object[] {i, "n" + i});
        }
        QueryOptions opts = QueryOptions.builder()
                .externalTable(ExternalTable.of("ids", "id UInt64, label String", ids))
                .externalTable(ExternalTable.of("empty_t", "x Int32", java.util.List.of()))
                .build();
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.get(kind))) {
            Object[] r = client.queryRows("SELECT count(), sum(number) FROM numbers(100000) "
                    + "WHERE number IN (SELECT id FROM ids)", opts).get(0);
            long expectedSum = 0;
            long count = 0;
            for (long i = 0; i < 100_000; i += 7) {
                expectedSum += i;
                count++;
            }
            assertThat(r[0].toString()).isEqualTo(Long.toString(count));
            assertThat(r[1].toString()).isEqualTo(Long.toString(expectedSum));
            assertThat(client.queryRows("SELECT label FROM ids WHERE id = 14", opts).get(0)[0]).isEqualTo("n14");
            assertThat(client.queryRows("SELECT count() FROM empty_t", opts).get(0)[0].toString()).isEqualTo("0");
            assertThatThrownBy(() -> ExternalTable.of("bad", "id", java.util.List.of()))
                    .isInstanceOf(dev.clickhousetcp.ClickHouseTypeException.class);
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void defaultDatabasePerQuery(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        String db = TestClients.table("db");
        try (ClickHouseTcpClient client = TestClients.builder(server).maxPoolSize(1).build()) {
            client.execute("CREATE DATABASE " + db);
            try {
                client.execute("CREATE TABLE " + db + ".t (x UInt8) ENGINE = Memory");
                client.execute("INSERT INTO " + db + ".t SELECT 5");
                QueryOptions inDb = QueryOptions.builder().database(db).build();
                assertThat(client.queryRows("SELECT currentDatabase(), sum(x) FROM t", inDb).get(0)[0]).isEqualTo(db);
                // the next query without the option is back in the configured database, on the same connection
                assertThat(client.queryRows("SELECT currentDatabase()").get(0)[0]).isEqualTo("default");
                assertThat(client.insert("t", java.util.List.of("x"), java.util.List.<Object[]>of(new Object[] {7}), inDb))
                        .isEqualTo(1);
                assertThat(server.httpQuery("SELECT sum(x) FROM " + db + ".t").trim()).isEqualTo("12");
                assertThat(client.queryRows("SELECT currentDatabase()").get(0)[0]).isEqualTo("default");
                assertThat(client.poolStats().created()).isEqualTo(1);
            } finally {
                client.execute("DROP DATABASE IF EXISTS " + db);
            }
        }
    }
}
