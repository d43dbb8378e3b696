package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.data.FlatArray;

import java.util.Map;

/**
 * Columnar insert: {@code insertColumns(table, Map<column, values>)} sends one block. A {@code long[]},
 * {@code double[]} of the column's width is written straight from the array; {@code String[]} is
 * encoded into the column buffer; {@code FlatArray.of(values, ends)} is an Array column in ClickHouse's
 * own layout (all elements flat, plus one cumulative end offset per row).
 */
public final class ColumnarInsert {

    private ColumnarInsert() {
    }

    public static void main(String[] args) {
        String table = System.getProperty("example.table", "example_columnar");
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            try {
                System.out.println(run(client, table) + " rows");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + table);   // also after a failure: the next run starts clean
            }
        }
    }

    /** Creates {@code table} if missing, inserts 10 000 rows and returns the rows the server confirmed. */
    public static long run(ClickHouseTcpClient client, String table) {
        client.execute("CREATE TABLE IF NOT EXISTS " + table
                + " (id Int64, value Float64, name String, tags Array(Int32)) ENGINE = MergeTree ORDER BY id");
        int n = 10_000;
        long[] ids = new long[n];
        double[] values = new double[n];
        String[] names = new String[n];
        int[] tagValues = new int[n * 2];      // two tags per row
        int[] tagEnds = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = i;
            values[i] = i * 0.5;
            names[i] = "row-" + i;
            tagValues[2 * i] = i;
            tagValues[2 * i + 1] = -i;
            tagEnds[i] = 2 * i + 2;
        }
        return client.insertColumns(table, Map.of("id", ids, "value", values, "name", names,
                "tags", FlatArray.of(tagValues, tagEnds)));
    }
}
