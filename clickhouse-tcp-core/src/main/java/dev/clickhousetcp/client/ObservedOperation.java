package dev.clickhousetcp.client;

import dev.clickhousetcp.observe.ClickHouseTcpObservationContext;
import dev.clickhousetcp.observe.ClickHouseTcpObservationContext.Outcome;
import dev.clickhousetcp.observe.ClickHouseTcpObservationDocumentation.Events;
import dev.clickhousetcp.observe.TraceHeaders;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.protocol.TraceContext;
import io.micrometer.observation.Observation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One observed client call: its started {@link Observation} and context, the trace context its
 * propagation headers carry, and the counters of the connection it uses. Stopped exactly once, by the
 * result or call that decides the outcome, after it gave its connection back. Used by the thread
 * running the call.
 *
 * <p>Instrumentation never breaks a call: whatever an observation handler or convention throws is
 * logged (a warning the first time, then at debug level) and otherwise ignored.
 */
final class ObservedOperation {
    private static final Logger LOG = LoggerFactory.getLogger(ObservedOperation.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    final ClickHouseTcpObservationContext context;
    private final Observation observation;
    private final long startNanos = System.nanoTime();
    private final TraceContext trace;
    private BlockChannel channel;
    private long compressedRead;
    private long decompressedRead;
    private long compressedWritten;
    private long uncompressedWritten;
    private boolean firstBlockSeen;
    private boolean stopped;

    ObservedOperation(Observation observation, ClickHouseTcpObservationContext context) {
        this.observation = observation;
        this.context = context;
        TraceContext t = null;
        try {
            t = TraceHeaders.parse(context.getCarrier());
        } catch (RuntimeException e) {
            failed("reading the propagation headers", e);
        }
        this.trace = t;
    }

    /** Logs a failure of the instrumentation itself; the call goes on. */
    static void failed(String what, Throwable e) {
        if (WARNED.compareAndSet(false, true)) {
            LOG.warn("ClickHouse observation failed while {}; the query is not affected (further failures are "
                    + "logged at debug level)", what, e);
        } else {
            LOG.debug("ClickHouse observation failed while {}", what, e);
        }
    }

    /** The options to send: with the observation's trace context, unless the caller set one. */
    QueryOptions options(QueryOptions options) {
        if (trace == null || options.traceContext() != null) {
            return options;
        }
        return options.toBuilder().traceContext(trace).build();
    }

    /** The trace context sent with the call's statements, or {@code null}. */
    TraceContext trace() {
        return trace;
    }

    /**
     * Makes the observation current on this thread (for the calls of a synchronous operation, such as an
     * object insert's {@code DESCRIBE}, which then become its children). Close it on the same thread.
     */
    Observation.Scope openScope() {
        try {
            return observation.openScope();
        } catch (RuntimeException e) {
            failed("opening its scope", e);
            return Observation.Scope.NOOP;
        }
    }

    /** A connection was acquired for the call (again, after a retry; once per statement of an insert). */
    void connected(ClickHouseConnection conn) {
        takeCompression();
        context.setEndpoint(conn.endpoint());
        channel = conn.blocks();
        compressedRead = channel.compressedBytesRead();
        decompressedRead = channel.decompressedBytesRead();
        compressedWritten = channel.compressedBytesWritten();
        uncompressedWritten = channel.uncompressedBytesWritten();
    }

    /** A statement was sent. */
    void sent(Exchange exchange) {
        if (exchange.queryId != null) {
            context.setQueryId(exchange.queryId);
        }
    }

    /** A data block with rows arrived; the first one is an event (time to first block). */
    void block() {
        if (!firstBlockSeen) {
            firstBlockSeen = true;
            context.setTimeToFirstBlockNanos(System.nanoTime() - startNanos);
            try {
                observation.event(Events.FIRST_BLOCK);
            } catch (RuntimeException e) {
                failed("recording the first block", e);
            }
        }
    }

    /** The statement is sent again. */
    void retry() {
        context.addRetry();
        try {
            observation.event(Events.RETRY);
        } catch (RuntimeException e) {
            failed("recording a retry", e);
        }
    }

    /** A statement's response ended (or was abandoned): its figures join the call's. */
    void statementEnded(Progress progress, ProfileInfo profileInfo) {
        takeCompression();
        context.addProgress(progress);
        if (profileInfo != null) {
            context.setProfileInfo(profileInfo);
        }
    }

    /**
     * An INSERT statement ended: its progress, with the rows and bytes the server reported inserted in
     * its ProfileEvents as written when its Progress packets had none (they never count the client's
     * rows), and the rows it sent.
     */
    void insertEnded(Progress progress, long insertedRows, long insertedBytes, long rowsSent) {
        Progress p = progress;
        if (p.writtenRows() == 0 && insertedRows > 0) {
            p = new Progress(p.readRows(), p.readBytes(), p.totalRowsToRead(), p.totalBytesToRead(), insertedRows,
                    insertedBytes, p.elapsedNanos());
        }
        statementEnded(p, null);
        context.setInsertedRows(context.getInsertedRows() + rowsSent);
    }

    private void takeCompression() {
        BlockChannel c = channel;
        if (c != null) {
            channel = null;
            context.addCompression(c.compressedBytesRead() - compressedRead, c.decompressedBytesRead() - decompressedRead,
                    c.compressedBytesWritten() - compressedWritten, c.uncompressedBytesWritten() - uncompressedWritten);
        }
    }

    /**
     * Ends the observation: with {@code error}, else as cancelled (the caller stopped the call before
     * its end) or successful. An {@code error} caused by an interrupt of the caller's thread (wherever
     * the interrupt met the call: waiting for a connection, connecting, sending, waiting for the server)
     * is a cancellation too, for every kind of call. Only the first call counts.
     */
    void stop(Throwable error, boolean cancelled) {
        if (stopped) {
            return;
        }
        stopped = true;
        if (error != null && Interrupts.isInterrupt(error)) {
            error = null;
            cancelled = true;
        }
        try {
            takeCompression();
            if (error != null) {
                context.setOutcome(Outcome.ERROR);
                observation.error(error);
            } else {
                context.setOutcome(cancelled ? Outcome.CANCELLED : Outcome.SUCCESS);
            }
        } catch (RuntimeException e) {
            failed("recording the outcome", e);
        }
        try {
            observation.stop();
        } catch (RuntimeException e) {
            failed("stopping", e);
        }
    }
}
