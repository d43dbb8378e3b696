package dev.clickhousetcp.sample;

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

    public String getTable() {
        return this.table;
    }

    public void setTable(String table) {
        if (!TABLE_NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("sample.events.table must be [db.]name of letters, digits and _: "
                    + table);
        }
        this.table = table;
    }

    public int getClientBatchSize() {
        return this.clientBatchSize;
    }

    public void setClientBatchSize(int clientBatchSize) {
        this.clientBatchSize = clientBatchSize;
    }

    public long getMaxGenerate() {
        return this.maxGenerate;
    }

    public void setMaxGenerate(long maxGenerate) {
        this.maxGenerate = maxGenerate;
    }
}
