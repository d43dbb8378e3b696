package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;

import java.time.Duration;

/**
 * Connect and ping: build a client, make sure the server answers, and read what it said about itself in
 * its Hello packet. The lines that matter: {@code ClickHouseTcpClient.builder().host(..).port(..).build()}
 * and {@code client.ping()}.
 *
 * <p>Run with {@code -Dclickhouse.host=... -Dclickhouse.port=...} (default 127.0.0.1:19000), as every
 * example here.
 */
public final class ConnectAndPing {

    private ConnectAndPing() {
    }

    public static void main(String[] args) {
        String host = System.getProperty("clickhouse.host", "127.0.0.1");
        int port = Integer.getInteger("clickhouse.port", 19000);
        System.out.println(run(host, port));
    }

    /** Returns the server's name and version, e.g. "ClickHouse 26.7.2". */
    public static String run(String host, int port) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(host).port(port).user("default").password("")
                .connectTimeout(Duration.ofSeconds(5))
                .build()) {
            client.ping();                       // a Ping/Pong round trip on a pooled connection
            return client.serverInfo().name() + " " + client.serverInfo().version();
        }
    }
}
