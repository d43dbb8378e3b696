package dev.clickhousetcp.sample;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.clickhousetcp.mapping.SchemaReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Creates the events table in the background, so the application starts (and answers its liveness probe)
 * while ClickHouse is still down: a daemon thread tries {@code CREATE TABLE IF NOT EXISTS} at startup and,
 * when ClickHouse cannot be reached, again after a backoff that doubles from
 * {@code sample.events.schema-retry.initial-backoff} up to {@code max-backoff}, until it succeeds. Then it
 * compares the {@link Event} record with the table ({@code checkSchema}), makes sure an existing table
 * deduplicates retried inserts ({@link EventRepository#ensureDeduplication()}) and logs the report.
 * When the table cannot deduplicate (an engine other than MergeTree), the report and the health details say
 * so, and an insert with an {@code Idempotency-Key} is refused ({@link #requireDeduplication()}) rather than
 * stored twice when it is sent again.
 *
 * <p>It is also the {@code schema} health indicator, part of the readiness group
 * ({@code /actuator/health/readiness}): DOWN, with the attempts so far and the last error, until the table
 * exists; UP, with the schema report, after. A load balancer or Kubernetes then sends no traffic to an
 * instance that could only fail it, and does not restart it either (liveness stays UP). Requests that
 * arrive anyway get 503 ({@link #requireReady()}).
 *
 * <p>Why not create the table in {@code afterPropertiesSet} or an {@code ApplicationRunner}: an exception
 * there fails startup, so a ClickHouse outage would turn into a crash loop of the application.
 */
@Component("schema")
public class SchemaInitializer implements SmartLifecycle, HealthIndicator {

    private static final Logger logger = LoggerFactory.getLogger(SchemaInitializer.class);

    private final EventRepository events;

    private final Duration initialBackoff;

    private final Duration maxBackoff;

    private final CountDownLatch stopped = new CountDownLatch(1);

    private volatile Thread thread;

    private volatile int attempts;

    private volatile String lastError;

    private volatile SchemaReport report;

    private volatile EventRepository.Deduplication deduplication;

    /**
     * @param events where the table is created
     * @param properties the backoff settings
     */
    public SchemaInitializer(EventRepository events, EventsProperties properties) {
        this.events = events;
        this.initialBackoff = properties.getSchemaRetry().getInitialBackoff();
        this.maxBackoff = properties.getSchemaRetry().getMaxBackoff();
    }

    @Override
    public void start() {
        Thread worker = new Thread(this::createSchema, "schema-initializer");
        worker.setDaemon(true);
        this.thread = worker;
        worker.start();
    }

    private void createSchema() {
        Duration backoff = this.initialBackoff;
        while (true) {
            this.attempts++;
            try {
                this.events.createTable();
                SchemaReport checked = this.events.checkSchema();
                EventRepository.Deduplication dedup = this.events.ensureDeduplication();
                if (checked.ok()) {
                    logger.info("Table {} is ready (attempt {}); schema check: {}; deduplication: {}",
                            this.events.table(), this.attempts, checked, dedup.detail());
                }
                else {
                    logger.warn("Table {} exists but does not match {}: {}", this.events.table(),
                            Event.class.getSimpleName(), checked);
                }
                if (!dedup.on()) {
                    logger.warn("Table {} does not deduplicate inserts, POST /events with an Idempotency-Key is "
                            + "refused: {}", this.events.table(), dedup.detail());
                }
                this.deduplication = dedup;
                this.report = checked;
                return;
            }
            catch (RuntimeException ex) {
                this.lastError = ex.getClass().getSimpleName() + ": " + ex.getMessage();
                logger.warn("Cannot create table {} (attempt {}), next try in {}: {}", this.events.table(),
                        this.attempts, backoff, this.lastError);
            }
            try {
                if (this.stopped.await(backoff.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
            backoff = backoff.multipliedBy(2).compareTo(this.maxBackoff) > 0 ? this.maxBackoff : backoff.multipliedBy(2);
        }
    }

    @Override
    public void stop() {
        this.stopped.countDown();
        this.thread = null;
    }

    @Override
    public boolean isRunning() {
        return this.thread != null;
    }

    /** @return whether the table exists (the schema report may still list mismatches) */
    public boolean isReady() {
        return this.report != null;
    }

    /**
     * Fails a request that needs the table while it does not exist yet.
     * @throws SchemaNotReadyException until the table has been created
     */
    public void requireReady() {
        if (!isReady()) {
            // the cause stays in the log and the health details, not in answers to clients
            throw new SchemaNotReadyException("the events table is not ready yet (" + this.attempts
                    + " attempts to create it so far); see /actuator/health/readiness");
        }
    }

    /**
     * Fails an insert that relies on deduplication (an {@code Idempotency-Key}) when the table cannot
     * deduplicate, rather than storing a repeated batch twice.
     * @throws SchemaNotReadyException until the table has been created
     * @throws DeduplicationUnavailableException when the table's engine keeps no block tokens
     */
    public void requireDeduplication() {
        requireReady();
        EventRepository.Deduplication dedup = this.deduplication;
        if (!dedup.on()) {
            throw new DeduplicationUnavailableException("the events table cannot deduplicate inserts ("
                    + dedup.detail() + "); send the batch without an Idempotency-Key, or fix the table");
        }
    }

    @Override
    public Health health() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("table", this.events.table());
        details.put("attempts", this.attempts);
        SchemaReport checked = this.report;
        if (checked == null) {
            if (this.lastError != null) {
                details.put("lastError", this.lastError);
            }
            return Health.down().withDetails(details).build();
        }
        details.put("matchesEventRecord", checked.ok());
        details.put("problems", checked.problems().stream().map(SchemaReport.Problem::toString).toList());
        details.put("deduplication", this.deduplication.on());
        details.put("deduplicationDetail", this.deduplication.detail());
        return Health.up().withDetails(details).build();
    }

    /** Thrown by {@link #requireDeduplication()}; answered with 409 Conflict. */
    public static final class DeduplicationUnavailableException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        /**
         * @param message why the table does not deduplicate
         */
        DeduplicationUnavailableException(String message) {
            super(message);
        }
    }

    /** Thrown by {@link #requireReady()}; answered with 503 Service Unavailable. */
    public static final class SchemaNotReadyException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        /**
         * @param message what is missing and why
         */
        SchemaNotReadyException(String message) {
            super(message);
        }
    }
}
