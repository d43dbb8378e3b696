package dev.clickhousetcp.spring.testcontainers;

import java.util.List;
import java.util.function.IntUnaryOperator;

import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import org.jspecify.annotations.Nullable;
import org.testcontainers.clickhouse.ClickHouseContainer;

import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

/**
 * {@link ContainerConnectionDetailsFactory} to create {@link ClickHouseTcpConnectionDetails} from a
 * {@link ServiceConnection @ServiceConnection}-annotated {@link ClickHouseContainer}: the container's
 * host and the host port mapped to the native protocol port 9000, its user, password and database.
 *
 * <p>Spring Boot's own JDBC factory creates {@code JdbcConnectionDetails} from the same container (a
 * {@code ClickHouseContainer} is a {@code JdbcDatabaseContainer}); the two describe different
 * connection details types, so both apply side by side, and the native client uses these. To have only
 * one, name the type: {@code @ServiceConnection(type = ClickHouseTcpConnectionDetails.class)}.
 */
class ClickHouseTcpContainerConnectionDetailsFactory
        extends ContainerConnectionDetailsFactory<ClickHouseContainer, ClickHouseTcpConnectionDetails> {

    /** The native protocol port inside the container. */
    static final int NATIVE_PORT = 9000;

    ClickHouseTcpContainerConnectionDetailsFactory() {
        super(ANY_CONNECTION_NAME, "dev.clickhousetcp.client.ClickHouseTcpClient");
    }

    @Override
    protected ClickHouseTcpConnectionDetails getContainerConnectionDetails(
            ContainerConnectionSource<ClickHouseContainer> source) {
        return new ClickHouseTcpContainerConnectionDetails(source);
    }

    /**
     * The node of a container: its host and the host port mapped to {@link #NATIVE_PORT}.
     * @param host the host the container is reached at
     * @param mappedPort the container's port mapping
     * @return the single node
     */
    static List<ClickHouseTcpConnectionDetails.Node> nodes(String host, IntUnaryOperator mappedPort) {
        return List.of(new ClickHouseTcpConnectionDetails.Node(host, mappedPort.applyAsInt(NATIVE_PORT)));
    }

    /**
     * {@link ClickHouseTcpConnectionDetails} backed by a {@link ContainerConnectionSource}. The container
     * is started (if it is not yet) when a value is first read.
     */
    static final class ClickHouseTcpContainerConnectionDetails extends ContainerConnectionDetails<ClickHouseContainer>
            implements ClickHouseTcpConnectionDetails {

        ClickHouseTcpContainerConnectionDetails(ContainerConnectionSource<ClickHouseContainer> source) {
            super(source);
        }

        @Override
        public List<Node> getNodes() {
            ClickHouseContainer container = getContainer();
            return nodes(container.getHost(), container::getMappedPort);
        }

        @Override
        public String getUsername() {
            return getContainer().getUsername();
        }

        @Override
        public String getPassword() {
            return getContainer().getPassword();
        }

        @Override
        public String getDatabase() {
            return getContainer().getDatabaseName();
        }

        @Override
        public @Nullable SslBundle getSslBundle() {
            return super.getSslBundle();
        }

        @Override
        public String toString() {
            return "ClickHouseTcpContainerConnectionDetails[" + getOrigin() + "]";
        }

    }

}
