package dev.clickhousetcp.spring.testcontainers;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import org.testcontainers.clickhouse.ClickHouseContainer;

/**
 * A real {@link ClickHouseContainer}, never started (this machine has no Docker engine), whose host and
 * mapped native port are those of a test server: so everything {@code @ServiceConnection} does with a
 * container, from the factory lookup to queries over the connection details, runs for real without
 * Docker. Only {@code start()}, {@code getDockerImageName()} (which would pull the image), {@code getHost()}
 * and {@code getMappedPort(int)} (native and HTTP ports), the parts that need Docker, answer for the test server.
 */
class ServerBackedClickHouseContainer extends ClickHouseContainer {

    static final String IMAGE = "clickhouse/clickhouse-server:25.8";

    /** ClickHouse's HTTP port inside the container, the one of {@link #getJdbcUrl()}. */
    static final int HTTP_PORT = 8123;

    private final ClickHouseServer server;

    ServerBackedClickHouseContainer(ClickHouseServer server) {
        super(IMAGE);
        this.server = server;
    }

    /**
     * The container the service connection tests use: the server's password-protected user, database
     * {@code system}.
     * @param server the test server
     * @return the container, never started
     */
    static ClickHouseContainer ofSecretUser(ClickHouseServer server) {
        return new ServerBackedClickHouseContainer(server).withUsername(ClickHouseServer.SECRET_USER)
            .withPassword(ClickHouseServer.SECRET_PASSWORD)
            .withDatabaseName("system");
    }

    @Override
    public String getDockerImageName() {
        return IMAGE; // the image is never pulled
    }

    @Override
    public void start() {
        // the test server is already running
    }

    @Override
    public String getHost() {
        return this.server.host();
    }

    @Override
    public Integer getMappedPort(int originalPort) {
        if (originalPort == HTTP_PORT) {
            return this.server.httpPort(); // the port of Spring Boot's JDBC URL for the container
        }
        if (originalPort != ClickHouseTcpContainerConnectionDetailsFactory.NATIVE_PORT) {
            throw new IllegalArgumentException("only the native and HTTP ports are mapped here, not " + originalPort);
        }
        return this.server.tcpPort();
    }

}
