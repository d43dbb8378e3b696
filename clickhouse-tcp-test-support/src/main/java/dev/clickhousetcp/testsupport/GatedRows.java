package dev.clickhousetcp.testsupport;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Rows {@code 0..rows-1} of one {@code UInt64} column ({@code Object[]{Long}}) whose producer stops before
 * row {@code gate} until the test {@link #open() opens} the gate: an insert that stays under way, at a
 * known row, for as long as a test needs, without a sleep. Iterate it once.
 */
public final class GatedRows implements Iterable<Object[]> {
    private final int rows;
    private final int gate;
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch proceed = new CountDownLatch(1);

    /**
     * Rows with a gate.
     *
     * @param rows how many rows
     * @param gate the row before which the producer waits (0 to {@code rows - 1})
     */
    public GatedRows(int rows, int gate) {
        this.rows = rows;
        this.gate = gate;
    }

    /**
     * Waits until the producer is at the gate.
     *
     * @param seconds the longest wait
     * @return {@code true} when it got there in time
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitGate(long seconds) throws InterruptedException {
        return reached.await(seconds, TimeUnit.SECONDS);
    }

    /** Lets the producer go on past the gate. */
    public void open() {
        proceed.countDown();
    }

    @Override
    public Iterator<Object[]> iterator() {
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < rows;
            }

            @Override
            public Object[] next() {
                if (next >= rows) {
                    throw new NoSuchElementException();
                }
                if (next == gate) {
                    reached.countDown();
                    try {
                        if (!proceed.await(60, TimeUnit.SECONDS)) {
                            throw new IllegalStateException("the test never opened the gate at row " + gate);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
                return new Object[] {(long) next++};
            }
        };
    }
}
