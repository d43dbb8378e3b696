package dev.clickhousetcp.spring.autoconfigure.observation;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Properties of the ClickHouse native TCP client's observations
 * ({@code management.observations.clickhousetcp.*}).
 */
@ConfigurationProperties("management.observations.clickhousetcp")
public class ClickHouseTcpObservationProperties {

    /**
     * Whether observations carry the SQL as the db.query.text key (span attribute). Query parameter values are
     * never part of it.
     */
    private boolean includeQueryText = true;

    public boolean isIncludeQueryText() {
        return this.includeQueryText;
    }

    public void setIncludeQueryText(boolean includeQueryText) {
        this.includeQueryText = includeQueryText;
    }

}
