package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServer.Kind;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.PrivateServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A query that fails with {@code send_logs_level} set leaves nothing unread on its connection: the server's Log
 * packets come before its Exception (18.16 and 26.7 send nothing after it), so the next query on the same
 * connection gets its own result and only its own log rows, and closing the connection then ends it with a FIN
 * (the private 26.7 server, which aborts on a reset, is still alive and answering afterwards).
 */
@ClickHouseTest
class ServerLogsAfterErrorTest {
    static PrivateServer modern;

    @BeforeAll
    static void start() {
        modern = ClickHouseServers.startPrivate(Kind.MODERN);
    }

    @AfterAll
    static void stop() {
        if (modern != null) {
            modern.close();
        }
    }

    static final String[] FAILING = {"SELECT * FROM mysql('127.0.0.1:1', 'db', 't', 'u', 'pw')",
        "SELECT throwIf(number = 3) FROM numbers(10)", "SELECT * FROM no_such_table_logs_after_error"};

    @Test
    void nextQueryGetsItsOwnResultAndLogsOn26() {
        check(modern.server());
        assertThat(modern.isAlive()).as("the private 26.7 server after the closes").isTrue();
        try (ClickHouseTcpClient client = TestClients.client(modern.server())) {
            assertThat(client.queryRows("SELECT 1").size()).isEqualTo(1);
        }
    }

    @Test
    void nextQueryGetsItsOwnResultAndLogsOn18(@dev.clickhousetcp.testsupport.LegacyServer ClickHouseServer legacy) {
        check(legacy);
    }

    private static void check(ClickHouseServer server) {
        for (String level : new String[] {"error", "trace"}) {
            for (String failing : FAILING) {
                ClickHouseConnection c = ClickHouseConnection.open(ConnectionConfig.builder().host(server.host())
                        .port(server.tcpPort()).build());
                try {
                    assertThatThrownBy(() -> c.query(failing, QueryOptions.builder().setting("send_logs_level", level)
                            .setting("connect_timeout_with_failover_ms", "200").build()).drain())
                            .isInstanceOf(ClickHouseServerException.class);
                    assertThat(c.isUsable()).isTrue();
                    assertThat(c.closedByServer()).as("bytes after the failed query's response").isFalse();
                    String id = "after-error-" + UUID.randomUUID();
                    List<Object> logIds = new ArrayList<>();
                    QueryListener logs = new QueryListener() {
                        @Override
                        public void onLog(Block b) {
                            int col = b.indexOf("query_id");
                            for (int i = 0; i < b.rowCount(); i++) {
                                logIds.add(b.column(col).getObject(i));
                            }
                        }
                    };
                    long answer;
                    try (QueryResult r = c.query("SELECT toUInt64(42) + number AS answer FROM numbers(1)",
                            QueryOptions.builder().queryId(id).setting("send_logs_level", level).listener(logs).build())) {
                        Block b = r.next();
                        answer = ((Number) b.column(0).getObject(0)).longValue();
                        assertThat(r.next()).isNull();
                    }
                    assertThat(answer).isEqualTo(42);
                    if (level.equals("trace")) {
                        assertThat(logIds).as("log rows of the next query").isNotEmpty();
                    }
                    assertThat(logIds).as("log rows of the next query (%s, %s)", failing, level).allMatch(id::equals);
                    assertThat(c.isUsable()).isTrue();
                } finally {
                    c.close();
                }
            }
        }
    }
}
