package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Server log lines the client forwards to SLF4J ({@code send_logs_level}) have the statement's secrets hidden:
 * ClickHouse 18.16 quotes the failed statement as written in its error line ({@code (in query: ...)}).
 */
@ClickHouseTest
class ServerLogMaskingTest {

    @ParameterizedTest
    @ValueSource(strings = {"SELECT * FROM mysql('127.0.0.1:1', 'db', 't', 'u', 'Secret-1')",
        "SELECT * FROM remote('127.0.0.1:1', db, t, 'u', 'Secret-2')",
        "SELECT * FROM url('http://u:Secret-3@127.0.0.1:1/x.csv', CSV, 'a String')"})
    void forwardedServerLogsHideSecrets(String sql) {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        String id = "log-masking-" + UUID.randomUUID();
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.legacy())) {
            assertThatThrownBy(() -> client.execute(sql, QueryOptions.builder().queryId(id)
                    .setting("send_logs_level", "error").setting("connect_timeout_with_failover_ms", "200").build()))
                    .isInstanceOf(ClickHouseException.class);
        } finally {
            System.setErr(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("dev.clickhousetcp.server").contains("{" + id + "}").contains("[HIDDEN]")
                .doesNotContain("Secret-");
    }
}
