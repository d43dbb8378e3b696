package dev.clickhousetcp.client;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared thread that ends selector waits at their due time serves every virtual-thread wait of the
 * JVM: nothing one wait's selector does may stop it from ending the others. {@link SelectorWaker#select}
 * is called here from platform threads (the build runs on Java 17); it treats every caller alike.
 */
class SelectorWakerTest {
    /** A selector whose {@link #wakeup()} ends its select and then fails. */
    private static final class FailingWakeup extends AbstractSelector {
        private final CountDownLatch woken = new CountDownLatch(1);

        FailingWakeup() {
            super(SelectorProvider.provider());
        }

        @Override
        public Selector wakeup() {
            woken.countDown();
            throw new IllegalStateException("a failing wakeup");
        }

        @Override
        public int select() throws IOException {
            try {
                woken.await(30, TimeUnit.SECONDS); // bounded: a test must not hang
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 0;
        }

        @Override
        public int select(long timeout) throws IOException {
            return select();
        }

        @Override
        public int selectNow() {
            return 0;
        }

        @Override
        protected void implCloseSelector() {
            woken.countDown();
        }

        @Override
        protected SelectionKey register(AbstractSelectableChannel ch, int ops, Object att) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Set<SelectionKey> keys() {
            return Set.of();
        }

        @Override
        public Set<SelectionKey> selectedKeys() {
            return Set.of();
        }
    }

    @Test
    void aFailingSelectorDoesNotStopTheWakerFromEndingLaterWaits() throws Exception {
        try (FailingWakeup failing = new FailingWakeup(); Selector real = Selector.open()) {
            SelectorWaker.select(new SelectorWaker.Wait(failing), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20));
            CompletableFuture<Void> later = CompletableFuture.runAsync(() -> {
                try {
                    SelectorWaker.select(new SelectorWaker.Wait(real), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertThat(later).as("a later wait with a due time ends").succeedsWithin(java.time.Duration.ofSeconds(20));
        }
    }
}
