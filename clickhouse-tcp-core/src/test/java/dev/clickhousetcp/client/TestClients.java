package dev.clickhousetcp.client;

import dev.clickhousetcp.testsupport.ClickHouseServer;

import java.time.Duration;

/** Builds clients for the test servers. */
final class TestClients {
    private TestClients() {
    }

    static ClickHouseTcpClient.Builder builder(ClickHouseServer server) {
        return ClickHouseTcpClient.builder()
                .host(server.host())
                .port(server.tcpPort())
                .connectTimeout(Duration.ofSeconds(5))
                .socketTimeout(Duration.ofSeconds(60))
                .acquireTimeout(Duration.ofSeconds(10))
                .maxPoolSize(4);
    }

    static ClickHouseTcpClient client(ClickHouseServer server) {
        return builder(server).build();
    }

    /** A table name unique to this run. */
    static String table(String prefix) {
        return prefix + "_" + Long.toHexString(System.nanoTime());
    }
}
