package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.mapping.ClickHouseColumn;

import java.util.List;

/**
 * Beans: a class with a no-argument constructor is created once per row and filled through its public
 * setters (or fields). {@code @ClickHouseColumn("...")} binds a property to a column of another name.
 * Columns that match no property are ignored (here: {@code ignored}).
 */
public final class ReadBeans {

    public static final String SQL = "SELECT name, is_aggregate, length(name) AS name_length, 1 AS ignored"
            + " FROM system.functions WHERE name LIKE 'uniq%' ORDER BY name";

    private ReadBeans() {
    }

    public static class FunctionInfo {
        private String name;
        private boolean aggregate;
        private int length;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public boolean isAggregate() {
            return aggregate;
        }

        public void setIsAggregate(boolean aggregate) {   // is_aggregate -> isAggregate
            this.aggregate = aggregate;
        }

        public int getLength() {
            return length;
        }

        @ClickHouseColumn("name_length")
        public void setLength(int length) {
            this.length = length;
        }

        @Override
        public String toString() {
            return name + (aggregate ? " (aggregate, " : " (") + length + " chars)";
        }
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            run(client).forEach(System.out::println);
        }
    }

    public static List<FunctionInfo> run(ClickHouseTcpClient client) {
        return client.query(SQL, FunctionInfo.class);
    }
}
