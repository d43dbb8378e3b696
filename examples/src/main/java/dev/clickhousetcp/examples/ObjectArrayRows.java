package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;

import java.util.List;

/**
 * {@code Object[]} rows: {@code client.queryRows(sql)} boxes every value in its natural Java type
 * (UInt8 as {@code Short}, UInt64 as {@code BigInteger}, DateTime as {@code ZonedDateTime}, Array as
 * {@code List}, ...; the table is in docs/types.md). Handy for tools and small results.
 */
public final class ObjectArrayRows {

    public static final String SQL = "SELECT toUInt8(number) AS small, toUInt64(number) * 1000000007 AS big,"
            + " toDateTime('2024-05-01 10:00:00', 'UTC') + number * 3600 AS at, range(number) AS items"
            + " FROM numbers(3)";

    private ObjectArrayRows() {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            for (Object[] row : run(client)) {
                for (Object value : row) {
                    System.out.print(value + " (" + value.getClass().getSimpleName() + ")  ");
                }
                System.out.println();
            }
        }
    }

    public static List<Object[]> run(ClickHouseTcpClient client) {
        return client.queryRows(SQL);
    }
}
