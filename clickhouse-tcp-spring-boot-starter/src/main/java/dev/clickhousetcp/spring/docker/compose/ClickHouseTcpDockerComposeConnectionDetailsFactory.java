package dev.clickhousetcp.spring.docker.compose;

import java.util.List;

import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionDetailsFactory;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;
import org.springframework.boot.ssl.SslBundle;

/**
 * {@link DockerComposeConnectionDetailsFactory} to create {@link ClickHouseTcpConnectionDetails} for a
 * {@code clickhouse/clickhouse-server} service: the host port mapped to the native protocol port 9000
 * (or, when the service carries Spring Boot's SSL bundle labels, to the TLS port 9440), and the user,
 * password and database from the service's environment ({@link ClickHouseEnvironment}).
 */
class ClickHouseTcpDockerComposeConnectionDetailsFactory
        extends DockerComposeConnectionDetailsFactory<ClickHouseTcpConnectionDetails> {

    static final int NATIVE_PORT = 9000;

    static final int NATIVE_TLS_PORT = 9440;

    ClickHouseTcpDockerComposeConnectionDetailsFactory() {
        super("clickhouse/clickhouse-server", "dev.clickhousetcp.client.ClickHouseTcpClient");
    }

    @Override
    protected ClickHouseTcpConnectionDetails getDockerComposeConnectionDetails(DockerComposeConnectionSource source) {
        return new ClickHouseTcpDockerComposeConnectionDetails(source.getRunningService());
    }

    /**
     * {@link ClickHouseTcpConnectionDetails} backed by a {@code clickhouse/clickhouse-server}
     * {@link RunningService}.
     */
    static class ClickHouseTcpDockerComposeConnectionDetails extends DockerComposeConnectionDetails
            implements ClickHouseTcpConnectionDetails {

        private final ClickHouseEnvironment environment;

        private final List<Node> nodes;

        private final @Nullable SslBundle sslBundle;

        ClickHouseTcpDockerComposeConnectionDetails(RunningService service) {
            super(service);
            this.environment = new ClickHouseEnvironment(service.env());
            this.sslBundle = getSslBundle(service);
            int port = service.ports().get((this.sslBundle != null) ? NATIVE_TLS_PORT : NATIVE_PORT);
            this.nodes = List.of(new Node(service.host(), port));
        }

        @Override
        public List<Node> getNodes() {
            return this.nodes;
        }

        @Override
        public String getUsername() {
            return this.environment.getUsername();
        }

        @Override
        public String getPassword() {
            return this.environment.getPassword();
        }

        @Override
        public String getDatabase() {
            return this.environment.getDatabase();
        }

        @Override
        public @Nullable SslBundle getSslBundle() {
            return this.sslBundle;
        }

        @Override
        public String toString() {
            return "ClickHouseTcpDockerComposeConnectionDetails[" + this.nodes + ", user="
                    + this.environment.getUsername() + ", database=" + this.environment.getDatabase() + "]";
        }

    }

}
