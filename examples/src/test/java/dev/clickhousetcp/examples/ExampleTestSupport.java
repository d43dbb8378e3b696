package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What the example tests share: the modern test server, one client for the test class, and tables unique to the
 * run that are dropped after the class.
 */
abstract class ExampleTestSupport {
    static ClickHouseServer server;
    static ClickHouseTcpClient client;
    private static final List<String> TABLES = new ArrayList<>();

    @BeforeAll
    static void connect() {
        server = ClickHouseServers.modern();
        client = ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort()).build();
    }

    @AfterAll
    static void dropTablesAndClose() {
        for (String table : TABLES) {
            server.httpQuery("DROP TABLE IF EXISTS " + table);
        }
        TABLES.clear();
        client.close();
    }

    /** A table name unique to this run ({@code example_<what>_<uuid>}), dropped after the test class. */
    static String table(String what) {
        String name = "example_" + what + "_" + UUID.randomUUID().toString().replace("-", "");
        TABLES.add(name);
        return name;
    }
}
