package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseSessionRequiredException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A pooled connection comes back to its next borrower in the state the configuration gives it:
 * statements that change the state of the connection's server session (USE, SET, SET ROLE, temporary
 * tables) are refused outside a session, a connection that ran one anyway (through
 * {@code withConnection}) is closed when given back, and {@code QueryOptions.database} never outlives
 * its query. Sessions keep all of it.
 */
@ClickHouseTest
class PooledSessionStateTest {

    private static ClickHouseTcpClient poolOfOne(ClickHouseServer server) {
        return TestClients.builder(server).maxPoolSize(1).build();
    }

    /** The server's value of a setting on the connection that runs the query (18.16 has no getSetting). */
    private static String setting(QueryOperations ops, String name) {
        return ops.queryRows("SELECT value FROM system.settings WHERE name = '" + name + "'").get(0)[0].toString();
    }

    private static String database(QueryOperations ops) {
        return ops.queryRows("SELECT currentDatabase()").get(0)[0].toString();
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void useAndSetOutsideASessionAreRefusedAndChangeNothing(ClickHouseServer.Kind kind) {
        try (ClickHouseTcpClient client = poolOfOne(ClickHouseServers.get(kind))) {
            String threads = setting(client, "max_threads");
            String blockSize = setting(client, "max_block_size");
            assertThatThrownBy(() -> client.execute("USE system"))
                    .isInstanceOf(ClickHouseSessionRequiredException.class)
                    .hasMessageContaining("USE").hasMessageContaining("openSession()")
                    .hasMessageContaining("QueryOptions.database");
            assertThat(database(client)).isEqualTo("default");
            assertThatThrownBy(() -> client.execute("SET max_threads = 1"))
                    .isInstanceOf(ClickHouseSessionRequiredException.class)
                    .hasMessageContaining("SET").hasMessageContaining("openSession()")
                    .hasMessageContaining("QueryOptions.setting");
            assertThat(setting(client, "max_threads")).isEqualTo(threads);

            // the same kind: other spellings and other statements that change the connection's session
            List<String> refused = List.of(
                    "/* switch */ use system",
                    "-- a comment\n\tUSE`system`",
                    "set max_threads = 1, max_block_size = 77",
                    "SET/**/max_block_size=77",
                    "SET ROLE NONE",
                    "set role default",
                    "SET TRANSACTION SNAPSHOT 1",
                    "CREATE TEMPORARY TABLE leaked (x UInt8)",
                    "create or replace temporary table leaked (x UInt8)",
                    "BEGIN TRANSACTION",
                    "EXECUTE AS default",
                    // comments and white space ClickHouse's lexer skips: // (both servers), nested block
                    // comments and Unicode white space (26.7)
                    "// a comment\nSET max_threads = 1",
                    "/* a /* nested */ comment */ SET max_threads = 1",
                    "\u00a0SET max_threads = 1",
                    "\ufeffUSE system",
                    "\u200bCREATE\u3000TEMPORARY TABLE leaked (x UInt8)",
                    "START TRANSACTION");
            for (String sql : refused) {
                assertThatThrownBy(() -> client.execute(sql)).as(sql)
                        .isInstanceOf(ClickHouseSessionRequiredException.class)
                        .hasMessageContaining("openSession()");
                assertThatThrownBy(() -> client.queryRows(sql)).as(sql)
                        .isInstanceOf(ClickHouseSessionRequiredException.class);
            }
            assertThat(database(client)).isEqualTo("default");
            assertThat(setting(client, "max_threads")).isEqualTo(threads);
            assertThat(setting(client, "max_block_size")).isEqualTo(blockSize);
            assertThat(client.queryRows("SELECT count() FROM system.tables WHERE name = 'leaked'").get(0)[0].toString())
                    .isEqualTo("0");
            assertThat(client.poolStats().created()).isEqualTo(1); // refused before a connection was borrowed
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void statementsThatOnlyMentionTheKeywordsRun(ClickHouseServer.Kind kind) {
        try (ClickHouseTcpClient client = poolOfOne(ClickHouseServers.get(kind))) {
            assertThat(client.queryRows("SELECT 'SET max_threads = 1' AS `USE` SETTINGS max_threads = 1")).hasSize(1);
            assertThat(client.queryRows("/* SET max_threads = 1 */ SELECT 1")).hasSize(1);
            assertThat(client.queryRows("-- USE system\nSELECT currentDatabase()").get(0)[0]).isEqualTo("default");
            assertThat(client.queryRows("SELECT name FROM system.settings WHERE name = 'max_threads'")).hasSize(1);
            // the same kind: the words as names, in strings, after a leading parenthesis or a // comment
            assertThat(client.queryRows("WITH 1 AS set SELECT set + 1 AS use").get(0)[0].toString()).isEqualTo("2");
            assertThat(client.queryRows("(SELECT 'USE system')").get(0)[0]).isEqualTo("USE system");
            assertThat(client.queryRows("// SET max_threads = 1\nSELECT currentDatabase()").get(0)[0])
                    .isEqualTo("default");
            assertThat(client.queryRows("SELECT `set`.name FROM system.settings AS `set` WHERE name = 'use_uncompressed_cache'"))
                    .hasSize(1);
            if (kind == ClickHouseServer.Kind.MODERN) {
                assertThat(client.queryRows("/* a /* SET max_threads = 1 */ b */ SELECT 1")).hasSize(1);
                assertThat(client.queryRows("\u00a0SELECT currentDatabase()").get(0)[0]).isEqualTo("default");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void aConnectionThatRanSuchAStatementIsClosedWhenGivenBack(ClickHouseServer.Kind kind) {
        try (ClickHouseTcpClient client = poolOfOne(ClickHouseServers.get(kind))) {
            String threads = setting(client, "max_threads");
            String inside = client.withConnection(c -> {
                c.query("SET max_threads = 1", QueryOptions.DEFAULT).drain();
                c.query("USE system", QueryOptions.DEFAULT).drain();
                try (QueryResult r = c.query("SELECT currentDatabase(), value FROM system.settings "
                        + "WHERE name = 'max_threads'", QueryOptions.DEFAULT)) {
                    var b = r.next();
                    String v = b.column(0).getString(0) + " " + b.column(1).getString(0);
                    r.drain();
                    return v;
                }
            });
            assertThat(inside).isEqualTo("system 1"); // several statements on one borrowed connection keep working
            assertThat(database(client)).isEqualTo("default");
            assertThat(setting(client, "max_threads")).isEqualTo(threads);
            assertThat(client.poolStats().destroyed()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void queryOptionsDatabaseDoesNotOutliveItsQuery(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        for (String configured : List.of("default", "")) {
            try (ClickHouseTcpClient client = TestClients.builder(server).maxPoolSize(1).database(configured).build()) {
                assertThat(client.queryRows("SELECT currentDatabase()", QueryOptions.builder().database("system")
                        .build()).get(0)[0]).as(configured).isEqualTo("system");
                assertThat(database(client)).as("configured '%s'", configured).isEqualTo("default");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void sessionsKeepUseSetAndTemporaryTables(ClickHouseServer.Kind kind) {
        try (ClickHouseTcpClient client = poolOfOne(ClickHouseServers.get(kind))) {
            String threads = setting(client, "max_threads");
            try (ClickHouseSession session = client.openSession()) {
                session.execute("/* switch */ use system");
                assertThat(database(session)).isEqualTo("system");
                session.execute("SET max_threads = 1, max_block_size = 77");
                assertThat(setting(session, "max_threads")).isEqualTo("1");
                assertThat(setting(session, "max_block_size")).isEqualTo("77");
                session.execute("CREATE TEMPORARY TABLE kept (x UInt8)");
                session.insert("kept", List.of("x"), List.<Object[]>of(new Object[] {1}));
                assertThat(session.queryRows("SELECT count() FROM kept").get(0)[0].toString()).isEqualTo("1");
            }
            assertThat(database(client)).isEqualTo("default");
            assertThat(setting(client, "max_threads")).isEqualTo(threads);
        }
    }
}
