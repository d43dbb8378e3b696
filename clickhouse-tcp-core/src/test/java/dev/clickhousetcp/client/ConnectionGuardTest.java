package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The due times the guard gives the untimed waits of virtual threads: each one is a time at which the
 * check after the wait acts. A due time the check ignores would end every later wait at once, and the
 * thread would spin until the socket timeout. No server: the connection handshakes over bytes in memory.
 */
class ConnectionGuardTest {
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(30);

    /** A connection after its handshake with a server of revision 54412, guarded by {@code guard}. */
    private static ClickHouseConnection connect(ConnectionGuard guard) throws IOException {
        ByteArrayOutputStream hello = new ByteArrayOutputStream();
        FuzzFindingsTest.hello(hello, "guard").flush();
        return ConnectionOpener.handshake(ConnectionConfig.builder().host("guard").port(9000)
                        .compression(Compression.NONE).socketTimeout(SOCKET_TIMEOUT).build(),
                new InMemoryTransport(hello.toByteArray(), 1 << 16), guard);
    }

    @Test
    void aWriteIsNotDueAtADrainDeadlineOnlyReadsActOn() throws IOException {
        ConnectionGuard guard = new ConnectionGuard(Budget.NONE);
        ClickHouseConnection c = connect(guard);
        Exchange x = c.startQuery("SELECT 1", QueryOptions.DEFAULT, Budget.of(Duration.ofMinutes(5), Deadline.QUERY));
        long now = System.nanoTime();
        x.cancelSent = true; // a Cancel went out; the server has until the drain deadline, which has passed
        x.drainDeadlineNanos = now - 1;

        assertThat(guard.checkDueNanos(now, false)).as("a read: due at the passed drain deadline")
                .isEqualTo(x.drainDeadlineNanos);
        long writeDue = guard.checkDueNanos(now, true);
        assertThat(writeDue - now).as("a write: due at its socket timeout, which the write check acts on")
                .isEqualTo(SOCKET_TIMEOUT.toNanos());
    }

    @Test
    void aWriteIsDueAtTheRequestsDeadline() throws IOException {
        ConnectionGuard guard = new ConnectionGuard(Budget.NONE);
        ClickHouseConnection c = connect(guard);
        Budget budget = Budget.of(Duration.ofSeconds(2), Deadline.QUERY);
        c.startQuery("SELECT 1", QueryOptions.DEFAULT, budget);
        assertThat(guard.checkDueNanos(System.nanoTime(), true)).isEqualTo(budget.deadlineNanos());
        assertThat(guard.checkDueNanos(System.nanoTime(), false)).isEqualTo(budget.deadlineNanos());
    }
}
