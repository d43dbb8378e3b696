package dev.clickhousetcp.sample;

import java.time.Duration;
import java.util.regex.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the sample app, bound from {@code sample.events.*}.
 */
@ConfigurationProperties("sample.events")
public class EventsProperties {

    private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

    /** Table holding the events, optionally qualified with a database ({@code db.table}). */
    private String table = "events";

    /** Rows per INSERT when generating events in the app ({@code mode=client}). */
    private int clientBatchSize = 50_000;

    /** Largest {@code count} accepted by {@code POST /events/generate}. */
    private long maxGenerate = 10_000_000;

    /** How the table is created when ClickHouse is down at startup. */
    private final SchemaRetry schemaRetry = new SchemaRetry();

    /** @return the events table, {@code [db.]name} */
    public String getTable() {
        return this.table;
    }

    /**
     * @param table the events table, {@code [db.]name} of letters, digits and {@code _}
     * @throws IllegalArgumentException for any other name (it is put into SQL as is)
     */
    public void setTable(String table) {
        if (!TABLE_NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("sample.events.table must be [db.]name of letters, digits and _: "
                    + table);
        }
        this.table = table;
    }

    /** @return rows per INSERT of {@code POST /events/generate?mode=client} */
    public int getClientBatchSize() {
        return this.clientBatchSize;
    }

    /** @param clientBatchSize rows per INSERT of {@code POST /events/generate?mode=client} */
    public void setClientBatchSize(int clientBatchSize) {
        this.clientBatchSize = clientBatchSize;
    }

    /** @return the largest {@code count} of {@code POST /events/generate} */
    public long getMaxGenerate() {
        return this.maxGenerate;
    }

    /** @param maxGenerate the largest {@code count} of {@code POST /events/generate} */
    public void setMaxGenerate(long maxGenerate) {
        this.maxGenerate = maxGenerate;
    }

    /** @return the backoff of the background table creation */
    public SchemaRetry getSchemaRetry() {
        return this.schemaRetry;
    }

    /** Backoff of the background table creation ({@link SchemaInitializer}). */
    public static class SchemaRetry {

        /** Wait after the first failed attempt; doubled after each further one. */
        private Duration initialBackoff = Duration.ofSeconds(1);

        /** Longest wait between two attempts. */
        private Duration maxBackoff = Duration.ofSeconds(30);

        /** @return the wait after the first failed attempt */
        public Duration getInitialBackoff() {
            return this.initialBackoff;
        }

        /**
         * @param initialBackoff the wait after the first failed attempt
         * @throws IllegalArgumentException unless positive
         */
        public void setInitialBackoff(Duration initialBackoff) {
            if (initialBackoff.isNegative() || initialBackoff.isZero()) {
                throw new IllegalArgumentException("initial-backoff must be positive: " + initialBackoff);
            }
            this.initialBackoff = initialBackoff;
        }

        /** @return the longest wait between two attempts */
        public Duration getMaxBackoff() {
            return this.maxBackoff;
        }

        /**
         * @param maxBackoff the longest wait between two attempts
         * @throws IllegalArgumentException unless positive
         */
        public void setMaxBackoff(Duration maxBackoff) {
            if (maxBackoff.isNegative() || maxBackoff.isZero()) {
                throw new IllegalArgumentException("max-backoff must be positive: " + maxBackoff);
            }
            this.maxBackoff = maxBackoff;
        }
    }
}
