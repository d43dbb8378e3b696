package dev.clickhousetcp.client;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.channels.Selector;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Ends the selector waits of virtual threads at their due time, so that those waits need no timeout
 * of their own.
 *
 * <p>Why: on a virtual thread, {@link Selector#select(long)} with a timeout is a timed park, and every
 * timed park schedules a timer task with the virtual-thread scheduler and cancels it again when data
 * arrives first; with several waits per query that was about a tenth of the client's CPU time per
 * short query on virtual threads ({@code VirtualThreadScale}, docs/performance.md). An untimed
 * {@link Selector#select()} parks without a timer. Its due time (the nearest deadline or socket
 * timeout, from {@link Transport.Guard#checkDueNanos(long, boolean)}) is kept here instead, and one
 * shared daemon thread sleeps until the earliest due time among the waits in progress and wakes the
 * selectors whose time has come ({@link Selector#wakeup()}). A wait due later than the time that thread
 * already sleeps toward does not disturb it, so with the usual constant timeouts it wakes about once per
 * the shortest timeout, not once per wait. Interrupts wake the select by themselves; cancel requests and
 * aborts call {@link Selector#wakeup()} directly.
 *
 * <p>Platform threads do not come here: their timed selects cost nothing extra. The thread is started
 * on the first virtual-thread wait and lives as long as the JVM (it holds no connection; with no wait in
 * progress it parks without a timeout).
 *
 * <p>Thread-safe: any number of threads may wait at once; {@link Wait} belongs to one transport, whose
 * single reading or writing thread uses it.
 */
final class SelectorWaker {
    /** {@link #planned} while the thread scans: any new wait unparks it (it may have missed that wait). */
    private static final long SCANNING = Long.MIN_VALUE;
    /** No due time: wait until data arrives or something else wakes the selector. */
    static final long NEVER = Long.MAX_VALUE;
    /** How soon the thread scans again after something it did failed unexpectedly. */
    private static final long RETRY_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(10);

    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();
    private static final Set<Wait> WAITS = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static final Thread THREAD = newThread();
    /** The {@link System#nanoTime()} the thread sleeps until, {@link #NEVER}, or {@link #SCANNING}. */
    private static volatile long planned = NEVER;

    private SelectorWaker() {
    }

    /** One transport's wait: its selector and the due time of the select in progress. */
    static final class Wait {
        final Selector selector;
        volatile long dueNanos = NEVER;

        Wait(Selector selector) {
            this.selector = selector;
        }
    }

    /**
     * Whether the current thread is a virtual thread ({@code Thread.isVirtual()} on JDK 21 and later;
     * always {@code false} before, where there are none).
     */
    static boolean onVirtualThread() {
        try {
            return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable e) {
            return false;
        }
    }

    /**
     * Selects on {@code w}'s selector without a timeout until it has something, it is woken (by
     * {@link Selector#wakeup()}, an interrupt, or this class at {@code dueNanos}), or at once when
     * {@code dueNanos} has already passed. Returns normally in every case; the caller checks why.
     *
     * @param dueNanos the {@link System#nanoTime()} at which the wait must end, or {@link #NEVER}
     */
    static void select(Wait w, long dueNanos) throws java.io.IOException {
        if (dueNanos != NEVER && dueNanos - System.nanoTime() <= 0) {
            w.selector.selectNow();
            return;
        }
        w.dueNanos = dueNanos;
        WAITS.add(w);
        try {
            if (dueNanos != NEVER) {
                wakeTheThreadIfLater(dueNanos);
            }
            w.selector.select();
        } finally {
            WAITS.remove(w);
            w.dueNanos = NEVER;
        }
    }

    /**
     * After {@code due} was published: unparks the thread when it sleeps toward a later time or is
     * scanning (and may have read the waits before this one was added). The volatile write of the wait
     * and the volatile read of {@link #planned} here, against the thread's write of {@link #SCANNING}
     * and its reads of the waits, make sure that either the thread sees this wait or this wait sees
     * what the thread plans.
     */
    private static void wakeTheThreadIfLater(long due) {
        if (!STARTED.get() && STARTED.compareAndSet(false, true)) {
            try {
                THREAD.start(); // its first action is a scan, which sees this wait
            } catch (RuntimeException | Error e) {
                STARTED.set(false); // e.g. no native thread to be had: the next wait tries again
                throw e;
            }
            return;
        }
        long p = planned;
        if (p == SCANNING || p == NEVER || due - p < 0) {
            LockSupport.unpark(THREAD);
        }
    }

    /**
     * Scans and sleeps for as long as the JVM lives. Nothing may end it: every virtual-thread wait with a
     * due time depends on it. A selector whose wakeup fails does not keep the others waiting; anything else
     * thrown (e.g. an {@link OutOfMemoryError}) costs a retry {@link #RETRY_NANOS} later.
     */
    private static void run() {
        while (true) {
            try {
                scanAndPark();
            } catch (Throwable e) {
                planned = SCANNING; // until the next scan, any new wait unparks the thread
                LockSupport.parkNanos(SelectorWaker.class, RETRY_NANOS);
            }
        }
    }

    private static void scanAndPark() {
        planned = SCANNING;
        long now = System.nanoTime();
        long next = NEVER;
        for (Wait w : WAITS) {
            long due = w.dueNanos;
            if (due == NEVER) {
                continue;
            }
            if (due - now <= 0) {
                wakeUp(w); // the waiter leaves the set itself; a late wakeup only ends a select early
            } else if (next == NEVER || due - next < 0) {
                next = due;
            }
        }
        planned = next;
        if (next == NEVER) {
            LockSupport.park(SelectorWaker.class);
        } else {
            LockSupport.parkNanos(SelectorWaker.class, next - System.nanoTime());
        }
    }

    /** Wakes {@code w}'s selector; never fails the thread (a closed selector ignores wake-ups). */
    private static void wakeUp(Wait w) {
        try {
            w.selector.wakeup();
        } catch (RuntimeException | Error e) {
            // the waits of other transports depend on this thread; this one ends with its transport
        }
    }

    private static Thread newThread() {
        // no inherited thread locals, and the library's own class loader: the thread outlives whatever
        // application thread happens to start it
        Thread t = new Thread(null, SelectorWaker::run, "clickhouse-tcp-selector-waker", 0, false);
        t.setDaemon(true);
        t.setContextClassLoader(SelectorWaker.class.getClassLoader());
        return t;
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return MethodHandles.dropArguments(MethodHandles.constant(boolean.class, false), 0, Thread.class);
        }
    }
}
