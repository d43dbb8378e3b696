package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.mapping.ClickHouseColumn;
import dev.clickhousetcp.mapping.ClickHouseConstructor;

import java.math.BigDecimal;
import java.util.List;

/**
 * Constructor binding: an immutable class with final fields. The constructor marked
 * {@code @ClickHouseConstructor} is called once per row; its parameters bind to columns by parameter
 * name (the build compiles with {@code -parameters}) or by {@code @ClickHouseColumn}.
 */
public final class ConstructorBinding {

    public static final String SQL = "SELECT number AS id, concat('user-', toString(number)) AS user_name,"
            + " toDecimal64(number * 1.25, 2) AS balance FROM numbers(5)";

    private ConstructorBinding() {
    }

    public static final class Account {
        private final long id;
        private final String owner;
        private final BigDecimal balance;

        @ClickHouseConstructor
        public Account(long id, @ClickHouseColumn("user_name") String owner, BigDecimal balance) {
            this.id = id;
            this.owner = owner;
            this.balance = balance;
        }

        public long id() {
            return id;
        }

        public String owner() {
            return owner;
        }

        public BigDecimal balance() {
            return balance;
        }

        @Override
        public String toString() {
            return id + " " + owner + " " + balance;
        }
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            run(client).forEach(System.out::println);
        }
    }

    public static List<Account> run(ClickHouseTcpClient client) {
        return client.query(SQL, Account.class);
    }
}
