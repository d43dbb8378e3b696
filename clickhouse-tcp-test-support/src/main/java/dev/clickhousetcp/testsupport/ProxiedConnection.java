package dev.clickhousetcp.testsupport;

import dev.clickhousetcp.testsupport.FaultProxy.Direction;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One connection of a {@link FaultProxy}: the accepted client socket, the socket to the target, and one
 * forwarding thread per direction that reads a chunk, plans the faults falling into it (under the
 * connection's lock), then forwards it piece by piece around them (without the lock).
 *
 * <p>Lock order: the proxy's lock before this connection's lock before a rule's lock; nothing else is
 * taken while this connection's lock is held.
 */
final class ProxiedConnection {

    private static final int CHUNK = 64 * 1024;

    /** How the connection is ending; only moves forward (NONE → GRACEFUL → RESET/CLOSED). */
    private enum Ending { NONE, GRACEFUL, RESET, CLOSED }

    /** A fault taking effect at an absolute offset of a stream. */
    private static final class Event {
        final long position;
        final FaultRule rule;

        Event(long position, FaultRule rule) {
            this.position = position;
            this.rule = rule;
        }
    }

    /** A rule's state on this connection. */
    private static final class Arm {
        final FaultRule rule;
        final int[] matchState = new int[1];
        /** Resolved fault offset in the rule's direction, or -1 while its marker has not been seen. */
        long trigger;

        Arm(FaultRule rule) {
            this.rule = rule;
            this.trigger = rule.hasMarker() ? -1 : rule.offset();
        }
    }

    /** One direction: its source, destination and forwarding state. Mutable fields guarded by {@code lock}. */
    private final class Stream {
        final Direction direction;
        final Socket destination;
        final InputStream in;
        final OutputStream out;
        final Thread thread;
        long readPosition;
        boolean stalled;
        long delayNanos;
        /** Everything read from now on is dropped (graceful end, or the destination is gone). */
        boolean discarding;
        /** The source sent its FIN or failed. */
        boolean sourceEnded;

        Stream(Direction direction, Socket source, Socket destination, String threadName) throws IOException {
            this.direction = direction;
            this.destination = destination;
            this.in = source.getInputStream();
            this.out = destination.getOutputStream();
            this.thread = new Thread(() -> pump(this), threadName);
            thread.setDaemon(true);
        }
    }

    private final FaultProxy proxy;
    private final long number;
    private final Socket client;
    private final Socket server;
    private final Stream toServer;
    private final Stream toClient;

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a stall is released, the connection starts ending, or a direction's source ends. */
    private final Condition changed = lock.newCondition();
    private final List<Arm> arms = new ArrayList<>();
    private Ending ending = Ending.NONE;
    private int pumpsRunning = 2;

    ProxiedConnection(FaultProxy proxy, long number, Socket client, Socket server, String threadPrefix)
            throws IOException {
        this.proxy = proxy;
        this.number = number;
        this.client = client;
        this.server = server;
        this.toServer = new Stream(Direction.CLIENT_TO_SERVER, client, server, threadPrefix + "-c2s");
        this.toClient = new Stream(Direction.SERVER_TO_CLIENT, server, client, threadPrefix + "-s2c");
    }

    long number() {
        return number;
    }

    void start() {
        toServer.thread.start();
        toClient.thread.start();
    }

    List<Thread> threads() {
        return List.of(toServer.thread, toClient.thread);
    }

    void arm(FaultRule rule) {
        lock.lock();
        try {
            arms.add(new Arm(rule));
        } finally {
            lock.unlock();
        }
    }

    private Stream stream(Direction direction) {
        return direction == Direction.CLIENT_TO_SERVER ? toServer : toClient;
    }

    // ------------------------------------------------------------------ control from outside

    void releaseStalls() {
        lock.lock();
        try {
            toServer.stalled = false;
            toClient.stalled = false;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** @return whether the direction was stalled by this call (false if the connection is ending) */
    boolean stall(Direction direction) {
        lock.lock();
        try {
            if (ending != Ending.NONE) {
                return false;
            }
            stream(direction).stalled = true;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * FIN to both peers; both directions then read and discard until their source ends.
     *
     * @return whether this call started the end (false if the connection was already ending)
     */
    boolean endGracefully() {
        lock.lock();
        try {
            if (ending != Ending.NONE) {
                return false;
            }
            ending = Ending.GRACEFUL;
            for (Stream s : List.of(toServer, toClient)) {
                s.discarding = true;
                s.stalled = false;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        shutdownOutputQuietly(server);
        shutdownOutputQuietly(client);
        return true;
    }

    /** @return whether this call reset the connection (false if it was already reset or closed) */
    boolean reset() {
        lock.lock();
        try {
            if (ending == Ending.RESET || ending == Ending.CLOSED) {
                return false;
            }
            ending = Ending.RESET;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        resetQuietly(client);
        resetQuietly(server);
        return true;
    }

    /** Waits until the server has closed its side (or both threads ended), at most until {@code deadline}. */
    void awaitServerSideClosed(long deadlineNanos) {
        lock.lock();
        try {
            while (!toClient.sourceEnded && pumpsRunning > 0) {
                long remaining = deadlineNanos - System.nanoTime();
                if (remaining <= 0) {
                    return;
                }
                changed.awaitNanos(remaining);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    /** Closes both sockets as they are (used by the proxy's close after the graceful end had its time). */
    void forceClose() {
        lock.lock();
        try {
            if (ending != Ending.RESET) {
                ending = Ending.CLOSED;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        FaultProxy.closeQuietly(client);
        FaultProxy.closeQuietly(server);
    }

    // ------------------------------------------------------------------ forwarding

    private void pump(Stream s) {
        byte[] buf = new byte[CHUNK];
        try {
            while (true) {
                int n;
                try {
                    n = s.in.read(buf);
                } catch (IOException e) {
                    sourceFailed(s);
                    return;
                }
                if (n < 0) {
                    sourceEnded(s);
                    return;
                }
                long pos;
                List<Event> events;
                lock.lock();
                try {
                    pos = s.readPosition;
                    s.readPosition += n;
                    events = plan(s, buf, pos, n);
                } finally {
                    lock.unlock();
                }
                if (events != null) {
                    events.forEach(e -> e.rule.reportFired());
                }
                if (!deliver(s, buf, pos, n, events)) {
                    return;
                }
            }
        } finally {
            pumpEnded();
        }
    }

    /** Resolves marker triggers seen in this chunk and claims the faults that fall into it. Holds the lock. */
    private List<Event> plan(Stream s, byte[] buf, long pos, int n) {
        if (ending != Ending.NONE || arms.isEmpty()) {
            return null;
        }
        List<Event> events = null;
        for (Iterator<Arm> it = arms.iterator(); it.hasNext(); ) {
            Arm arm = it.next();
            FaultRule rule = arm.rule;
            if (!rule.live()) {
                it.remove();
                continue;
            }
            if (arm.trigger < 0 && rule.markerDirection() == s.direction) {
                int end = rule.findMarkerEnd(arm.matchState, buf, n);
                if (end >= 0) {
                    arm.trigger = rule.direction() == s.direction
                            ? pos + end + rule.offset()
                            : stream(rule.direction()).readPosition + rule.offset();
                }
            }
            if (arm.trigger >= 0 && rule.direction() == s.direction) {
                long at = Math.max(arm.trigger, pos);
                if (at < pos + n) {
                    it.remove();
                    if (rule.tryFire()) {
                        if (events == null) {
                            events = new ArrayList<>(2);
                        }
                        events.add(new Event(at, rule));
                    }
                }
            }
        }
        if (events != null) {
            events.sort(Comparator.comparingLong(e -> e.position));
        }
        return events;
    }

    /** @return false if the connection was reset or closed and the thread must end */
    private boolean deliver(Stream s, byte[] buf, long pos, int n, List<Event> events) {
        int cursor = 0;
        if (events != null) {
            for (Event e : events) {
                int at = (int) (e.position - pos);
                if (!forward(s, buf, cursor, at - cursor)) {
                    return false;
                }
                cursor = at;
                switch (e.rule.action()) {
                    case FLIP:
                        buf[at] ^= (byte) 0xFF;
                        break;
                    case DELAY:
                        setDelay(s, e.rule.latency().toNanos());
                        break;
                    case STALL:
                        stall(s.direction);
                        break;
                    case TRUNCATE:
                        endGracefully();
                        break;
                    case RESET:
                        reset();
                        return false;
                    default:
                        throw new AssertionError(e.rule.action());
                }
            }
        }
        return forward(s, buf, cursor, n - cursor);
    }

    private void setDelay(Stream s, long nanos) {
        lock.lock();
        try {
            s.delayNanos = nanos;
        } finally {
            lock.unlock();
        }
    }

    /** Writes {@code buf[off, off+len)} to the destination once stalls and delays allow it. */
    private boolean forward(Stream s, byte[] buf, int off, int len) {
        if (len == 0) {
            return true;
        }
        lock.lock();
        try {
            while (s.stalled && ending == Ending.NONE) {
                changed.await();
            }
            if (s.delayNanos > 0 && ending == Ending.NONE) {
                long remaining = s.delayNanos;
                while (remaining > 0 && ending == Ending.NONE) {
                    remaining = changed.awaitNanos(remaining);
                }
            }
            if (ending == Ending.RESET || ending == Ending.CLOSED) {
                return false;
            }
            if (s.discarding) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
        try {
            s.out.write(buf, off, len);
            proxy.countForwarded(s.direction, len);
        } catch (IOException e) {
            lock.lock();
            try {
                s.discarding = true; // the destination is gone: drain the source until it ends
            } finally {
                lock.unlock();
            }
        }
        return true;
    }

    /** The source sent its FIN: pass it on, unless this direction is already dropping everything. */
    private void sourceEnded(Stream s) {
        boolean passOn;
        lock.lock();
        try {
            s.sourceEnded = true;
            passOn = !s.discarding && ending == Ending.NONE;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (passOn) {
            shutdownOutputQuietly(s.destination);
        }
    }

    /**
     * Reading the source failed. After a reset or close of our own that is expected. A server that reset
     * the connection is passed on to the client as a reset; a client that did so (or vanished) ends the
     * server side gracefully, so the server never sees a reset it did not ask for.
     */
    private void sourceFailed(Stream s) {
        Ending current;
        lock.lock();
        try {
            s.sourceEnded = true;
            current = ending;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (current != Ending.NONE) {
            return;
        }
        if (s.direction == Direction.SERVER_TO_CLIENT) {
            reset();
        } else {
            endGracefully();
        }
    }

    private void pumpEnded() {
        boolean last;
        lock.lock();
        try {
            last = --pumpsRunning == 0;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (last) {
            FaultProxy.closeQuietly(client);
            FaultProxy.closeQuietly(server);
            proxy.connectionEnded(this);
        }
    }

    private static void shutdownOutputQuietly(Socket socket) {
        try {
            socket.shutdownOutput();
        } catch (IOException ignored) {
            // already closed or reset
        }
    }

    private static void resetQuietly(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // already closed: nothing to reset
        }
        FaultProxy.closeQuietly(socket);
    }
}
