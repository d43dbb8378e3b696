package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.LoadBalancing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

/**
 * Several endpoints with failover: {@code .endpoints(List.of("ch1:9000", "ch2:9000"))} (or a URL
 * {@code clickhouse://ch1:9000,ch2:9000/db}). Each new connection picks an endpoint per
 * {@code loadBalancing}; one that fails to connect is skipped for {@code failoverBackoff} and the next one
 * is tried, so the caller does not notice. Here the first endpoint is a local port nothing listens on.
 */
public final class Failover {

    private Failover() {
    }

    public record Answered(String deadEndpoint, int serverPort, List<String> connectedTo) {
    }

    public static void main(String[] args) {
        System.out.println(run(System.getProperty("clickhouse.host", "127.0.0.1"),
                Integer.getInteger("clickhouse.port", 19000)));
    }

    public static Answered run(String host, int port) {
        String dead = "127.0.0.1:" + closedPort();
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .endpoints(List.of(dead, host + ":" + port))     // the dead one first
                .loadBalancing(LoadBalancing.IN_ORDER)
                .connectTimeout(Duration.ofSeconds(2))
                .failoverBackoff(Duration.ofSeconds(30))
                .build()) {
            int servedBy = client.query("SELECT tcpPort()", Integer.class).get(0);
            List<String> connected = client.serverHellos().keySet().stream()   // endpoints that answered
                    .map(Object::toString).toList();
            return new Answered(dead, servedBy, connected);
        }
    }

    /** A local port that was free a moment ago, so connecting to it is refused. */
    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
