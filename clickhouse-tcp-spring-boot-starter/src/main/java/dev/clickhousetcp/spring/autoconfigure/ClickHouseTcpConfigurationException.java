package dev.clickhousetcp.spring.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * The ClickHouse client cannot be set up from the application's configuration: an unknown or rejected
 * entry of {@code clickhouse.tcp.settings}, a missing SSL bundle, a value the client refuses. Its
 * message names the property; {@link ClickHouseTcpConfigurationFailureAnalyzer} turns it into the
 * startup failure report.
 */
class ClickHouseTcpConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String action;

    ClickHouseTcpConfigurationException(String description, String action) {
        this(description, action, null);
    }

    ClickHouseTcpConfigurationException(String description, String action, @Nullable Throwable cause) {
        super(description, cause);
        this.action = action;
    }

    /**
     * What to change.
     * @return the action for the failure report
     */
    String getAction() {
        return this.action;
    }

}
