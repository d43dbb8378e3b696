package dev.clickhousetcp.testsupport;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polling with a deadline, for tests that wait for something another thread or the server does. */
public final class Await {
    private Await() {
    }

    /**
     * Polls {@code condition} until it holds.
     *
     * @param what      what is awaited, for the failure message
     * @param timeout   the longest wait
     * @param condition the condition, polled on the calling thread
     * @throws AssertionError when the condition does not hold within {@code timeout}
     */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("still waiting after " + timeout + " for: " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
