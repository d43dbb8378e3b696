package dev.clickhousetcp.sample;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * Long-running reports that a client starts and may cancel: each runs on a worker thread under a query_id
 * chosen here (a UUID), so the id the client gets back names the query in {@code system.processes} and
 * {@code system.query_log}. Cancelling interrupts the worker: the client then sends ClickHouse a Cancel
 * packet, reads the rest of the response and gives the connection back to the pool (see
 * {@link EventRepository#slowReport}). At most {@value #MAX_RUNNING} run at once; the last
 * {@value #MAX_KEPT} reports are remembered. Thread-safe.
 */
@Component
public class SlowReports implements DisposableBean {

    static final int MAX_RUNNING = 4;

    static final int MAX_KEPT = 100;

    private static final Logger logger = LoggerFactory.getLogger(SlowReports.class);

    private final EventRepository events;

    private final ExecutorService workers;

    private final Map<String, Report> reports = new ConcurrentHashMap<>();

    private final AtomicInteger running = new AtomicInteger();

    /**
     * @param events runs the query
     */
    public SlowReports(EventRepository events) {
        this.events = events;
        AtomicInteger threads = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(MAX_RUNNING, (task) -> {
            Thread thread = new Thread(task, "slow-report-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts a report.
     * @param seconds how long it runs unless cancelled
     * @return its status, {@code RUNNING}, with the query_id
     * @throws TooManyReportsException when {@value #MAX_RUNNING} reports are running already
     */
    public Status start(int seconds) {
        if (this.running.incrementAndGet() > MAX_RUNNING) {
            this.running.decrementAndGet();
            throw new TooManyReportsException(MAX_RUNNING + " reports are running already; cancel one or wait");
        }
        String queryId = UUID.randomUUID().toString();
        Report report = new Report(queryId);
        this.reports.put(queryId, report);
        report.future = this.workers.submit(() -> run(report, seconds));
        forgetOld();
        return report.status();
    }

    private void run(Report report, int seconds) {
        try {
            long rows = this.events.slowReport(report.queryId, seconds);
            report.finish("DONE", rows, null);
        }
        catch (RuntimeException ex) {
            if (report.cancelRequested) {
                report.finish("CANCELLED", null, null);
                logger.info("Report {} cancelled", report.queryId);
            }
            else {
                report.finish("FAILED", null, ex.getMessage());
                logger.warn("Report {} failed: {}", report.queryId, ex.getMessage());
            }
        }
        finally {
            this.running.decrementAndGet();
        }
    }

    /**
     * @param queryId the report's query_id
     * @return its status, or {@code null} for an unknown id
     */
    public Status status(String queryId) {
        Report report = this.reports.get(queryId);
        return (report != null) ? report.status() : null;
    }

    /**
     * Cancels a running report (nothing happens to one that has ended). The query ends on the server within
     * one of its blocks; the status turns {@code CANCELLED} when the worker has seen it end.
     * @param queryId the report's query_id
     * @return its status, or {@code null} for an unknown id
     */
    public Status cancel(String queryId) {
        Report report = this.reports.get(queryId);
        if (report == null) {
            return null;
        }
        if (report.state.equals("RUNNING") && !report.cancelRequested) {
            report.cancelRequested = true;
            report.future.cancel(true);
        }
        return report.status();
    }

    private void forgetOld() {
        if (this.reports.size() > MAX_KEPT) {
            this.reports.values().stream()
                .filter((report) -> !report.state.equals("RUNNING"))
                .sorted((a, b) -> Long.compare(a.started, b.started))
                .limit(this.reports.size() - MAX_KEPT)
                .forEach((report) -> this.reports.remove(report.queryId));
        }
    }

    @Override
    public void destroy() {
        this.workers.shutdownNow();
    }

    /**
     * What a client sees of a report.
     * @param queryId its query_id (also its id in the URL)
     * @param state {@code RUNNING}, {@code CANCELLING} (cancel asked, the query has not ended yet), {@code DONE},
     *     {@code CANCELLED} or {@code FAILED}
     * @param rows the result when {@code DONE}, else {@code null}
     * @param error the error when {@code FAILED}, else {@code null}
     */
    public record Status(String queryId, String state, Long rows, String error) {
    }

    /** Thrown by {@link #start(int)} when the limit of running reports is reached; answered with 429. */
    public static final class TooManyReportsException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        TooManyReportsException(String message) {
            super(message);
        }
    }

    private static final class Report {

        final String queryId;

        final long started = System.nanoTime();

        volatile Future<?> future;

        volatile boolean cancelRequested;

        volatile String state = "RUNNING";

        volatile Long rows;

        volatile String error;

        Report(String queryId) {
            this.queryId = queryId;
        }

        synchronized void finish(String state, Long rows, String error) {
            this.rows = rows;
            this.error = error;
            this.state = state;
        }

        synchronized Status status() {
            String shown = (this.cancelRequested && this.state.equals("RUNNING")) ? "CANCELLING" : this.state;
            return new Status(this.queryId, shown, this.rows, this.error);
        }
    }
}
