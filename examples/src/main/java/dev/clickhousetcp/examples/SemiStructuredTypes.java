package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.data.TypedValue;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * JSON, Dynamic and Variant. A JSON value is inserted as JSON text or a {@code Map} tree and read as a
 * {@code Map<String, Object>}; a Dynamic value keeps the type of the Java value written (a {@code Long}
 * is Int64, a {@code String} is String) or the one a {@link TypedValue} names; a Variant takes the one
 * variant that fits. {@code getObject} reads the value back (in the Java type of the stored type: a UInt64
 * is a {@code BigInteger}); the server's own text is {@code getString}.
 */
public final class SemiStructuredTypes {

    private SemiStructuredTypes() {
    }

    public record Stored(long id, Object doc, Object dyn, Object var, String docText, String dynText) {
    }

    public static void main(String[] args) {
        String table = System.getProperty("example.table", "example_semi");
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            try {
                run(client, table).forEach(System.out::println);
            } finally {
                client.execute("DROP TABLE IF EXISTS " + table);   // also after a failure: the next run starts clean
            }
        }
    }

    /** Creates {@code table} if missing, inserts four rows and returns them as read back, ordered by id. */
    public static List<Stored> run(ClickHouseTcpClient client, String table) {
        client.execute("CREATE TABLE IF NOT EXISTS " + table
                + " (id UInt64, doc JSON, dyn Dynamic, var Variant(String, UInt64, Array(UInt64)))"
                + " ENGINE = MergeTree ORDER BY id");
        List<Object[]> rows = List.of(
                new Object[] {1L, "{\"user\": {\"name\": \"ann\", \"age\": 31}}", 42L, "text"},
                new Object[] {2L, Map.of("user", Map.of("name", "bob"), "tags", List.of("a", "b")), "hello", 7L},
                new Object[] {3L, "{}", new TypedValue("Date", LocalDate.of(2024, 2, 29)), List.of(1L, 2L)},
                new Object[] {4L, "{\"n\": null}", null, null});
        client.insert(table, List.of("id", "doc", "dyn", "var"), rows);
        return client.query("SELECT id, doc, dyn, var FROM " + table + " ORDER BY id", (row, n) -> new Stored(
                row.getLong(0), row.getObject(1), row.getObject(2), row.getObject(3), row.getString(1), row.getString(2)));
    }
}
