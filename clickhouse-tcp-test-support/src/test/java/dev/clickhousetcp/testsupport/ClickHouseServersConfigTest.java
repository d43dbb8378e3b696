package dev.clickhousetcp.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.clickhousetcp.testsupport.ClickHouseServer.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClickHouseServersConfigTest {

    @Test
    void defaultsMatchTheScript() {
        ClickHouseServer modern = ClickHouseServers.configured(Kind.MODERN, Map.of());
        assertEquals(new ClickHouseServer(Kind.MODERN, "127.0.0.1", 19000, 18123, -1, null), modern);
        assertFalse(modern.hasTls());

        ClickHouseServer legacy = ClickHouseServers.configured(Kind.LEGACY, Map.of());
        assertEquals(29000, legacy.tcpPort());
        assertEquals(28123, legacy.httpPort());
        assertEquals(29440, legacy.tlsPort());
        assertEquals(Optional.of(Path.of("/tmp/clickhouse-tcp-servers/legacy/server.crt")), legacy.serverCertificatePem());
    }

    @Test
    void portAndStateOverridesFollowTheScriptsVariables() {
        ClickHouseServer legacy = ClickHouseServers.configured(Kind.LEGACY, Map.of(
                "CLICKHOUSE_LEGACY_TCP_PORT", "39000", "CLICKHOUSE_TCP_STATE", "/var/tmp/ch"));
        assertEquals(39000, legacy.tcpPort());
        assertEquals(Optional.of(Path.of("/var/tmp/ch/legacy/server.crt")), legacy.serverCertificatePem());
        assertFalse(ClickHouseServers.isExternal(Kind.LEGACY, Map.of("CLICKHOUSE_LEGACY_TCP_PORT", "39000")));
    }

    @Test
    void externalServersComeFromHostPortVariables() {
        Map<String, String> env = Map.of(
                "CLICKHOUSE_LEGACY_TCP", "db.example:9000",
                "CLICKHOUSE_LEGACY_HTTP", "db.example:8123",
                "CLICKHOUSE_LEGACY_TLS", "db.example:9440",
                "CLICKHOUSE_LEGACY_TLS_CERT", "/etc/ssl/ch.pem");
        assertTrue(ClickHouseServers.isExternal(Kind.LEGACY, env));
        assertEquals(new ClickHouseServer(Kind.LEGACY, "db.example", 9000, 8123, 9440, Path.of("/etc/ssl/ch.pem")),
                ClickHouseServers.configured(Kind.LEGACY, env));

        ClickHouseServer v6 = ClickHouseServers.configured(Kind.MODERN,
                Map.of("CLICKHOUSE_MODERN_TCP", "[::1]:9000", "CLICKHOUSE_MODERN_HTTP", "[::1]:8123"));
        assertEquals("::1", v6.host());
        assertEquals("http://[::1]:8123/", v6.httpUri().toString());
    }

    @Test
    void incompleteOrMalformedExternalVariablesAreRejected() {
        assertThrows(IllegalStateException.class,
                () -> ClickHouseServers.configured(Kind.MODERN, Map.of("CLICKHOUSE_MODERN_TCP", "h:9000")));
        assertThrows(IllegalStateException.class, () -> ClickHouseServers.configured(Kind.MODERN,
                Map.of("CLICKHOUSE_MODERN_TCP", "h:x", "CLICKHOUSE_MODERN_HTTP", "h:8123")));
        assertThrows(IllegalStateException.class, () -> ClickHouseServers.configured(Kind.MODERN,
                Map.of("CLICKHOUSE_MODERN_TCP", "a:9000", "CLICKHOUSE_MODERN_HTTP", "b:8123")));
    }

    @Test
    void scriptIsFoundInAParentDirectory(@TempDir Path root) throws Exception {
        Path script = root.resolve("scripts/clickhouse-server.sh");
        Files.createDirectories(script.getParent());
        Files.writeString(script, "#!/bin/bash\n");
        Path module = Files.createDirectories(root.resolve("module/target"));
        assertEquals(script, ClickHouseServers.locateScript(module));
        assertThrows(IllegalStateException.class, () -> ClickHouseServers.locateScript(Path.of("/")));
    }
}
