package dev.clickhousetcp.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.clickhousetcp.testsupport.ClickHouseServer.Kind;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bookkeeping of private servers that needs no server: state sweeping and port choice. */
class PrivateServerStateTest {

    @Test
    void theSweepKillsServersOfDeadOwnersAndKeepsLiveOnes(@TempDir Path base) throws Exception {
        Path mine = PrivateServer.createStateRoot(base, Kind.MODERN);
        Path abandoned = Files.createDirectories(base.resolve("legacy-abandoned"));
        Files.createDirectories(abandoned.resolve("legacy"));
        Process orphan = new ProcessBuilder("bash", "-c", "sleep 600; : " + abandoned + "/legacy/").start();
        try {
            Files.writeString(abandoned.resolve("legacy").resolve("server.pid"), orphan.pid() + "\n",
                    StandardCharsets.US_ASCII);
            Files.writeString(abandoned.resolve("owner"), deadPid() + " 0\n", StandardCharsets.US_ASCII);

            PrivateServer.sweepAbandoned(base);

            assertTrue(orphan.waitFor(10, TimeUnit.SECONDS), "the abandoned server was killed");
            assertFalse(Files.exists(abandoned));
            assertTrue(Files.isDirectory(mine));
        } finally {
            orphan.destroyForcibly();
        }
    }

    @Test
    void aPidFileOfAnUnrelatedProcessIsNotKilled(@TempDir Path base) throws Exception {
        Path abandoned = Files.createDirectories(base.resolve("modern-abandoned").resolve("modern"));
        Process unrelated = new ProcessBuilder("sleep", "600").start();
        try {
            Files.writeString(abandoned.resolve("server.pid"), unrelated.pid() + "\n", StandardCharsets.US_ASCII);
            Files.writeString(abandoned.getParent().resolve("owner"), deadPid() + " 0\n", StandardCharsets.US_ASCII);
            PrivateServer.sweepAbandoned(base);
            assertTrue(unrelated.isAlive());
            assertFalse(Files.exists(abandoned));
        } finally {
            unrelated.destroyForcibly();
        }
    }

    @Test
    void freePortsAreDistinctBindableAndNotTheSharedOnes() throws Exception {
        int[] ports = PrivateServer.freePorts(5);
        assertEquals(5, Arrays.stream(ports).distinct().count());
        for (int port : ports) {
            assertFalse(port == 19000 || port == 18123 || port == 29000 || port == 28123 || port == 29440);
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
                assertEquals(port, s.getLocalPort());
            }
        }
    }

    /** A pid no process has now: one of a process that already ended. */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }
}
