package dev.clickhousetcp.spring.autoconfigure.observation;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Properties of the ClickHouse native TCP client's observations
 * ({@code management.observations.clickhousetcp.*}).
 */
@ConfigurationProperties("management.observations.clickhousetcp")
public class ClickHouseTcpObservationProperties {

    /**
     * Whether observations carry the SQL as the db.query.text key (span attribute), its secrets hidden as the
     * server hides them in its logs. Query parameter values are never part of it.
     */
    private boolean includeQueryText = true;

    /**
     * Whether observations carry the SQL as the {@code db.query.text} key
     * ({@code management.observations.clickhousetcp.include-query-text}).
     *
     * @return {@code true} (the default) when the SQL is included; query parameter values never are
     */
    public boolean isIncludeQueryText() {
        return this.includeQueryText;
    }

    /**
     * Sets whether observations carry the SQL as the {@code db.query.text} key (a span attribute).
     *
     * @param includeQueryText {@code false} to leave the SQL out, e.g. when it may hold sensitive literals
     */
    public void setIncludeQueryText(boolean includeQueryText) {
        this.includeQueryText = includeQueryText;
    }

}
