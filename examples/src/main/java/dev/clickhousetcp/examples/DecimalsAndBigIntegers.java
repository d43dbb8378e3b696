package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * Decimal and big integers: {@code Decimal(P, S)} reads as an exact {@link BigDecimal} with scale S;
 * Int128, UInt128, Int256, UInt256 and UInt64 values above {@code Long.MAX_VALUE} read as
 * {@link BigInteger}. Inserts take the same types.
 */
public final class DecimalsAndBigIntegers {

    public static final String SQL = "SELECT id, amount, sum(amount) OVER () AS total, big, huge, max_u64 FROM (SELECT"
            + " number AS id, toDecimal128('12345678901234567890.0123456789', 10) / (number + 1) AS amount,"
            + " toInt128('-170141183460469231731687303715884105728') + number AS big,"
            + " toUInt256('115792089237316195423570985008687907853269984665640564039457584007913129639935') AS huge,"
            + " toUInt64('18446744073709551615') AS max_u64 FROM numbers(3)) ORDER BY id";

    private DecimalsAndBigIntegers() {
    }

    public record Amount(long id, BigDecimal amount, BigDecimal total, BigInteger big, BigInteger huge,
                         BigInteger maxU64) {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            run(client).forEach(System.out::println);
        }
    }

    public static List<Amount> run(ClickHouseTcpClient client) {
        return client.query(SQL, Amount.class);
    }
}
