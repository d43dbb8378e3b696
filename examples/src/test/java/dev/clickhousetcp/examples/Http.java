package dev.clickhousetcp.examples;

import dev.clickhousetcp.testsupport.ClickHouseServer;

import java.util.Arrays;
import java.util.List;

/** The server's own answers over HTTP, to compare the examples' results with. */
final class Http {

    private Http() {
    }

    /** Rows of {@code sql} in TSVRaw (no escaping; the examples' values have no tabs or newlines). */
    static List<String[]> rows(ClickHouseServer server, String sql) {
        String body = server.httpQuery(sql + " FORMAT TSVRaw");
        return body.isEmpty() ? List.of()
                : Arrays.stream(body.split("\n")).map(line -> line.split("\t", -1)).toList();
    }

    /** The single value of {@code sql}. */
    static String value(ClickHouseServer server, String sql) {
        return server.httpQuery(sql + " FORMAT TSVRaw").strip();
    }

    static long longValue(ClickHouseServer server, String sql) {
        return Long.parseLong(value(server, sql));
    }
}
