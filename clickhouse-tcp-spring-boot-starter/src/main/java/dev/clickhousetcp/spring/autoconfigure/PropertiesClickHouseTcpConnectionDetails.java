package dev.clickhousetcp.spring.autoconfigure;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * {@link ClickHouseTcpConnectionDetails} read from {@link ClickHouseTcpProperties} — the default
 * when the application defines no other {@code ClickHouseTcpConnectionDetails} bean.
 *
 * <p>Reads the properties on every call, so it reflects them as bound. Thread-safe once the context
 * has started. {@link #toString()} never shows the password.
 */
public final class PropertiesClickHouseTcpConnectionDetails implements ClickHouseTcpConnectionDetails {

    private final ClickHouseTcpProperties properties;

    /**
     * Creates details backed by the given properties.
     * @param properties the bound {@code clickhouse.tcp.*} properties
     */
    public PropertiesClickHouseTcpConnectionDetails(ClickHouseTcpProperties properties) {
        this.properties = Objects.requireNonNull(properties, "properties");
    }

    @Override
    public String getHost() {
        return this.properties.getHost();
    }

    @Override
    public int getPort() {
        return this.properties.getPort();
    }

    @Override
    public String getDatabase() {
        return this.properties.getDatabase();
    }

    @Override
    public String getUsername() {
        return this.properties.getUsername();
    }

    @Override
    public @Nullable String getPassword() {
        return this.properties.getPassword();
    }

    @Override
    public String toString() {
        return "PropertiesClickHouseTcpConnectionDetails[" + getUsername() + "@" + getHost() + ":" + getPort() + "/"
                + getDatabase() + ", password=" + mask(getPassword()) + "]";
    }

    /** How a password shows in {@code toString()}: whether one is set, never its value. */
    static String mask(@Nullable String password) {
        return (password == null || password.isEmpty()) ? "<none>" : "<hidden>";
    }
}
