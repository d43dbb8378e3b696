package dev.clickhousetcp.spring.autoconfigure.jdbc;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the {@code DataSource} over the ClickHouse client's own pool
 * ({@code clickhouse.tcp.jdbc.*}).
 */
@ConfigurationProperties("clickhouse.tcp.jdbc")
public class ClickHouseTcpJdbcProperties {

    /**
     * Whether to define a DataSource over the clickhouse.tcp client and its connection pool, so JdbcTemplate,
     * JdbcClient and Flyway share that pool. Only when the application defines no DataSource of its own and sets
     * no spring.datasource.url.
     */
    private boolean enabled;

    /**
     * Driver options of that DataSource's connections, for example transactionMode=strict or databaseTerm=catalog.
     * Servers, credentials, database, TLS, timeouts and ClickHouse settings are the client's.
     */
    private final Map<String, String> properties = new LinkedHashMap<>();

    /**
     * Whether the DataSource over the client's pool is defined.
     * @return {@code true} when it is; {@code false} by default
     */
    public boolean isEnabled() {
        return this.enabled;
    }

    /**
     * Sets whether the DataSource over the client's pool is defined.
     * @param enabled {@code true} to define it
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * The driver options of the DataSource's connections.
     * @return the mutable map bound from {@code clickhouse.tcp.jdbc.properties.*}, option name to value
     */
    public Map<String, String> getProperties() {
        return this.properties;
    }

}
