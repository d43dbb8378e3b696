package dev.clickhousetcp.spring.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.ssl.SslBundle;

/**
 * Details required to connect to ClickHouse over the native TCP protocol: the servers, whom to
 * authenticate as, the default database and TLS.
 *
 * <p>By default these come from the {@code clickhouse.tcp.*} properties ({@code url}, {@code host},
 * {@code port}, {@code endpoints}, {@code username}, {@code password}, {@code database},
 * {@code ssl.enabled}, {@code ssl.bundle}). Define a bean of this type to take them from elsewhere (a
 * secrets store, a service binding), or let {@code @ServiceConnection} on a Testcontainers
 * {@code ClickHouseContainer} or Spring Boot's docker compose support define one: those properties (of
 * {@code url}: its hosts, credentials, database and {@code secure}) are then ignored. The remaining properties
 * (timeouts, pool, compression, settings, hostname verification) and the other query parameters of
 * {@code url} (ClickHouse settings, {@code compression}, {@code zstd_level}, {@code client_name}) apply either
 * way.
 *
 * <p>Implementations should be thread-safe (they are read when the client bean is created) and must not
 * expose the password in {@code toString()}.
 */
public interface ClickHouseTcpConnectionDetails extends ConnectionDetails {

    /**
     * The servers, in order: one node, or several replicas over which connections spread per
     * {@code clickhouse.tcp.load-balancing}.
     * @return at least one node
     */
    List<Node> getNodes();

    /**
     * User to authenticate as.
     * @return the user name, or {@code null} for {@code default}
     */
    default @Nullable String getUsername() {
        return null;
    }

    /**
     * Password of {@link #getUsername()}.
     * @return the password, or {@code null} (treated as empty) for none
     */
    default @Nullable String getPassword() {
        return null;
    }

    /**
     * Default database of every connection.
     * @return the database name, or {@code null} for {@code default}
     */
    default @Nullable String getDatabase() {
        return null;
    }

    /**
     * SSL bundle to connect with: when not {@code null}, connections use TLS with its trust material
     * and, for mutual TLS, its key.
     * @return the SSL bundle, or {@code null} for a plain TCP connection
     */
    default @Nullable SslBundle getSslBundle() {
        return null;
    }

    /**
     * A ClickHouse server's native protocol address.
     *
     * @param host host name or IP address
     * @param port native protocol port (9000 plain, 9440 TLS by default)
     */
    record Node(String host, int port) {

        @Override
        public String toString() {
            return (this.host.indexOf(':') >= 0) ? "[" + this.host + "]:" + this.port : this.host + ":" + this.port;
        }

    }

}
