package dev.clickhousetcp.spring.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Details required to connect to a ClickHouse server over the native TCP protocol: where it is and
 * whom to authenticate as.
 *
 * <p>By default these come from {@link ClickHouseTcpProperties} (see
 * {@link PropertiesClickHouseTcpConnectionDetails}). Define a bean of this type to take them from
 * elsewhere — a secrets store, a service binding, a test container — and the properties
 * {@code clickhouse.tcp.host}, {@code port}, {@code database}, {@code username} and {@code password}
 * are ignored.
 *
 * <p>Implementations should be thread-safe (they are read once, when the client bean is created) and
 * must not expose the password in {@code toString()}.
 */
public interface ClickHouseTcpConnectionDetails extends ConnectionDetails {

    /**
     * Host name or IP address of the server.
     * @return the host, never {@code null}
     */
    String getHost();

    /**
     * Native protocol (TCP) port of the server.
     * @return the port, 1 to 65535
     */
    int getPort();

    /**
     * Default database of every connection.
     * @return the database name, by default {@code default}
     */
    default String getDatabase() {
        return "default";
    }

    /**
     * User to authenticate as.
     * @return the user name, by default {@code default}
     */
    default String getUsername() {
        return "default";
    }

    /**
     * Password of {@link #getUsername()}.
     * @return the password, or {@code null} (treated as empty) for none
     */
    default @Nullable String getPassword() {
        return null;
    }
}
