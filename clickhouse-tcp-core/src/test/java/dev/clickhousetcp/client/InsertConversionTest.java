package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Java values converted for an insert: a value the column's type cannot hold exactly is a
 * {@link ClickHouseTypeException} naming the column and the value, before anything is sent; values at
 * the types' limits arrive as they were given.
 */
@ClickHouseTest
class InsertConversionTest {

    @Test
    void integerInsertsNeverSaturateOrWrap() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("ints");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (i64 Int64, u64 UInt64) ENGINE = Memory");
            try {
                for (Object[] bad : List.of(new Object[] {1e30, 0}, new Object[] {-1e30, 0},
                        new Object[] {9.223372036854775807E18, 0}, new Object[] {new BigDecimal("12345678901234567891"), 0},
                        new Object[] {new BigDecimal("1.0000000000000000001"), 0}, new Object[] {0, -5.0},
                        new Object[] {0, 1e20}, new Object[] {Double.NaN, 0})) {
                    assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(bad)))
                            .as("%s", java.util.Arrays.toString(bad)).isInstanceOf(ClickHouseTypeException.class);
                }
                client.insert(t, List.of(), List.<Object[]>of(new Object[] {new BigDecimal("-9223372036854775808"),
                    1.8446744073709552E19 - 4096}, new Object[] {4.0e18, new BigDecimal("18446744073709551615")}));
                assertThat(server.httpQuery("SELECT i64, u64 FROM " + t + " ORDER BY i64").trim())
                        .isEqualTo("-9223372036854775808\t18446744073709547520\n4000000000000000000\t18446744073709551615");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void columnarInsertErrorsNameTheColumn() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("cols");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt64) ENGINE = Memory");
            try {
                assertThatThrownBy(() -> client.insertColumns(t, Map.of("id", new String[] {"1", "q"})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("column 'id', value 1");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }
}
