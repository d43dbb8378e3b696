package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Regression tests for defects found by reviewing the client as a new user. */
@ClickHouseTest
class ReviewFindingsTest {

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
    void unknownSettingsAreRejectedByTheServer() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            assertThatThrownBy(() -> client.queryRows("SELECT 1", QueryOptions.builder().setting("no_such_setting_xyz", 1)
                    .build())).isInstanceOfSatisfying(ClickHouseServerException.class,
                        e -> assertThat(e.code()).isEqualTo(115));
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
    }

    @Test
    void aTimeoutReturnsPromptlyEvenWhenTheServerCannotStopAtOnce() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.queryRows("SELECT sleep(3)", QueryOptions.builder()
                    .timeout(Duration.ofMillis(300)).build())).isInstanceOf(ClickHouseTimeoutException.class)
                    .hasMessageContaining("timeout");
            // not a timing assertion on the server: the call must not wait for the 3 s sleep to finish
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2900));
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
    }

    @Test
    void parametersOnAServerWithoutThemFailBeforeSending() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.legacy())) {
            assertThatThrownBy(() -> client.queryRows("SELECT {x:UInt8}", QueryOptions.builder().parameter("x", 1).build()))
                    .isInstanceOf(ClickHouseException.class).hasMessageContaining("parameters need protocol revision");
            assertThat(client.poolStats().destroyed()).isZero();
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
    }

    @Test
    void concurrentUseOfASessionIsATypedError() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern());
             ClickHouseSession session = client.openSession();
             QueryResult open = session.query("SELECT 1")) {
            assertThatThrownBy(() -> session.queryRows("SELECT 2")).isInstanceOf(ClickHouseException.class)
                    .hasMessageContaining("one query at a time");
            open.drain();
        }
    }

    @Test
    void closingTheClientClosesConnectionsStillInUse() {
        ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern());
        QueryResult r = client.query("SELECT number FROM numbers(10000000) SETTINGS max_block_size = 8192");
        assertThat(r.next()).isNotNull();
        client.close();
        assertThatThrownBy(() -> {
            while (r.next() != null) {
                // the socket is gone
            }
        }).isInstanceOf(ClickHouseException.class);
        r.close();
        assertThat(client.poolStats().total()).isZero();
    }

    @Test
    void badArgumentsAreRejectedUpFront() {
        assertThatThrownBy(() -> QueryOptions.builder().timeout(Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClickHouseTcpClient.builder().endpoints(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClickHouseTcpClient.builder().endpoints(List.of("127.0.0.1:abc")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("port");
        assertThatThrownBy(() -> DataTypes.parse("Enum8('a' = 300)", ZoneOffset.UTC))
                .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("Enum8");
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            assertThatThrownBy(() -> client.queryRows(null)).isInstanceOf(IllegalArgumentException.class);
            assertThat(client.poolStats().destroyed()).isZero();
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
