package dev.clickhousetcp.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.clickhousetcp.testsupport.ClickHouseServer.Kind;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** Runs against the real servers: injection, users, the HTTP helper and the legacy TLS material. */
@ClickHouseTest
class ClickHouseServerExtensionTest {

    private final ClickHouseServer modernFromConstructor;

    ClickHouseServerExtensionTest(ClickHouseServer modern) {
        this.modernFromConstructor = modern;
    }

    @Test
    void injectsTheModernServerByDefault(ClickHouseServer server) {
        assertEquals(Kind.MODERN, server.kind());
        assertEquals(server, modernFromConstructor);
        assertTrue(server.isAlive());
        assertTrue(server.httpQuery("SELECT version()").startsWith("26."));
    }

    @Test
    void injectsTheLegacyServerWhenAnnotated(@LegacyServer ClickHouseServer server) {
        assertEquals(Kind.LEGACY, server.kind());
        assertTrue(server.httpQuery("SELECT version()").startsWith("18.16."));
        assertTrue(server.hasTls());
        assertTrue(Files.isRegularFile(server.serverCertificatePem().orElseThrow()));
    }

    @Test
    void bothServersKnowTheSecretUser(ClickHouseServer modern, @LegacyServer ClickHouseServer legacy) {
        for (ClickHouseServer server : new ClickHouseServer[] {modern, legacy}) {
            assertEquals("tcp_secret\n", server.httpQuery(
                    "SELECT user FROM system.processes WHERE query LIKE '%secret-user-probe%' AND user != ''",
                    ClickHouseServer.SECRET_USER, ClickHouseServer.SECRET_PASSWORD));
        }
    }

    @Test
    void httpQueryReportsTheServersError(ClickHouseServer modern, @LegacyServer ClickHouseServer legacy) {
        ClickHouseHttpException e = assertThrows(ClickHouseHttpException.class,
                () -> modern.httpQuery("SELECT * FROM system.no_such_table"));
        assertTrue(e.getMessage().contains("Code: 60"), e.getMessage());
        ClickHouseHttpException auth = assertThrows(ClickHouseHttpException.class,
                () -> legacy.httpQuery("SELECT 1", ClickHouseServer.SECRET_USER, "wrong"));
        assertTrue(auth.body().contains("Code: 193"), auth.body());
    }

    @Test
    void httpQueryCanModifyData(ClickHouseServer server) {
        server.httpQuery("DROP TABLE IF EXISTS default.test_support_probe");
        server.httpQuery("CREATE TABLE default.test_support_probe (x UInt8) ENGINE = Memory");
        server.httpQuery("INSERT INTO default.test_support_probe VALUES (7)");
        assertEquals("7\n", server.httpQuery("SELECT x FROM default.test_support_probe"));
        server.httpQuery("DROP TABLE default.test_support_probe");
    }
}
