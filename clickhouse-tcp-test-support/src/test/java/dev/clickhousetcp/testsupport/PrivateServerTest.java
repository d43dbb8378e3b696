package dev.clickhousetcp.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.clickhousetcp.testsupport.ClickHouseServer.Kind;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Private servers of both kinds: started on their own ports, killed, restarted on the same ports, removed. */
@Tag("clickhouse")
class PrivateServerTest {

    @Test
    void privateServersStartDieRestartAndLeaveNothingBehind() throws Exception {
        List<Long> pids = new ArrayList<>();
        Path modernState;
        Path legacyState;
        try (PrivateServer modern = ClickHouseServers.startPrivate(Kind.MODERN);
             PrivateServer legacy = ClickHouseServers.startPrivate(Kind.LEGACY)) {
            modernState = modern.stateDirectory();
            legacyState = legacy.stateDirectory();
            pids.add(modern.pid());
            pids.add(legacy.pid());
            assertTrue(modern.isAlive());
            assertTrue(legacy.isAlive());
            assertTrue(modern.server().httpQuery("SELECT version()").startsWith("26."));
            assertTrue(legacy.server().httpQuery("SELECT version()").startsWith("18.16."));
            assertNotEquals(ClickHouseServers.modern().tcpPort(), modern.server().tcpPort());
            assertNotEquals(ClickHouseServers.legacy().tcpPort(), legacy.server().tcpPort());
            assertTrue(Files.isRegularFile(legacy.server().serverCertificatePem().orElseThrow()));
            assertTrue(Files.isRegularFile(modernState.resolve("config.xml")));

            modern.server().httpQuery("CREATE TABLE default.survivor (x UInt8) ENGINE = MergeTree ORDER BY x");
            modern.server().httpQuery("INSERT INTO default.survivor VALUES (42)");

            // a crash: the process is gone at once, its ports with it
            ClickHouseServer before = modern.server();
            long killed = modern.pid();
            modern.kill();
            assertFalse(PrivateServer.processAlive(killed, null));
            assertFalse(modern.isAlive());
            assertThrows(IOException.class, () -> new Socket(before.host(), before.tcpPort()).close());
            assertEquals(killed, modern.pid());

            // back on the same ports, with its tables
            modern.start();
            pids.add(modern.pid());
            assertNotEquals(killed, modern.pid());
            assertEquals(before, modern.server());
            assertTrue(modern.isAlive());
            assertEquals("42\n", modern.server().httpQuery("SELECT x FROM default.survivor"));

            long legacyBefore = legacy.pid();
            legacy.restart();
            pids.add(legacy.pid());
            assertFalse(PrivateServer.processAlive(legacyBefore, null));
            assertEquals("1\n", legacy.server().httpQuery("SELECT 1"));

            legacy.stop();
            assertFalse(legacy.isAlive());
            legacy.start(); // idempotent after a stop
            legacy.start(); // and while running
            pids.add(legacy.pid());
            assertTrue(legacy.isAlive());
        }
        for (long pid : pids) {
            assertFalse(PrivateServer.processAlive(pid, null), "process " + pid + " left behind");
        }
        assertFalse(Files.exists(modernState.getParent()));
        assertFalse(Files.exists(legacyState.getParent()));
    }
}
