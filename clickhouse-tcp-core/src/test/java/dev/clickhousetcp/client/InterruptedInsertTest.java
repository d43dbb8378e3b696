package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseInterruptedException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.util.Iterator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * An INSERT whose calling thread is interrupted stops at its next row, drops its connection and says what it
 * knows, as a lost connection does: a {@link ClickHouseInterruptedException} whose
 * {@code insertMayHaveBeenApplied()} is {@code true} once data had reached the server (the server may have
 * committed it) and {@code false} before, and the thread's interrupt flag set again. Runs on the legacy server:
 * an interrupted insert closes its connection mid-stream.
 */
@ClickHouseTest
class InterruptedInsertTest {
    private static final int ROWS = 200_000;
    private static final int INTERRUPT_AT = 50_000;

    /** Rows 1..{@link #ROWS}; the producing thread interrupts itself when it produces row {@code interruptAt}. */
    private static Iterable<Object[]> rows(int interruptAt) {
        return () -> new Iterator<>() {
            long n;

            @Override
            public boolean hasNext() {
                return n < ROWS;
            }

            @Override
            public Object[] next() {
                if (++n == interruptAt) {
                    Thread.currentThread().interrupt();
                }
                return new Object[] {n};
            }
        };
    }

    @Test
    void anInsertInterruptedAfterDataWasSentSaysItMayHaveBeenApplied() {
        ClickHouseServer legacy = ClickHouseServers.legacy();
        String table = TestClients.table("interrupted_insert");
        legacy.httpQuery("CREATE TABLE " + table + " (x UInt64) ENGINE = Memory");
        try (ClickHouseTcpClient client = TestClients.client(legacy)) {
            ClickHouseInterruptedException e = catchThrowableOfType(ClickHouseInterruptedException.class,
                    () -> client.insert(table, List.of("x"), rows(INTERRUPT_AT),
                            InsertOptions.builder().maxRowsPerBlock(10_000).build()));
            assertThat(Thread.interrupted()).as("the caller's interrupt is kept").isTrue();
            assertThat(e).as("an interrupted insert is never a silent success").isNotNull();
            assertThat(e.insertMayHaveBeenApplied()).as("blocks had been sent").isTrue();
            assertThat(e.deduplicationToken()).isNull();
            assertThat(e).hasMessageContaining("may have been applied").hasMessageContaining("may duplicate rows");
            long stored = Long.parseLong(legacy.httpQuery("SELECT count() FROM " + table).trim());
            assertThat(stored).as("the interrupt stopped the insert at its next row").isLessThan(ROWS);
            assertThat(client.poolStats().active()).isZero();
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        } finally {
            Thread.interrupted();
            legacy.httpQuery("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void anInsertInterruptedBeforeAnyRowWasSentSaysItWasNotApplied() {
        ClickHouseServer legacy = ClickHouseServers.legacy();
        String table = TestClients.table("interrupted_insert_early");
        legacy.httpQuery("CREATE TABLE " + table + " (x UInt64) ENGINE = Memory");
        try (ClickHouseTcpClient client = TestClients.client(legacy)) {
            ClickHouseInterruptedException e = catchThrowableOfType(ClickHouseInterruptedException.class,
                    () -> client.insert(table, List.of("x"), rows(1), InsertOptions.builder().maxRowsPerBlock(10_000)
                            .build()));
            assertThat(Thread.interrupted()).as("the caller's interrupt is kept").isTrue();
            assertThat(e).isNotNull();
            assertThat(e.insertMayHaveBeenApplied()).isFalse();
            assertThat(e).hasMessageContaining("not applied");
            assertThat(legacy.httpQuery("SELECT count() FROM " + table).trim()).isEqualTo("0");
        } finally {
            Thread.interrupted();
            legacy.httpQuery("DROP TABLE IF EXISTS " + table);
        }
    }
}
