package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bad arguments are rejected where they are given, with a typed exception that names what is wrong,
 * before anything reaches a server or a pool (and a rejected call leaves the pool's connections alone).
 */
@ClickHouseTest
class ArgumentValidationTest {

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
    void endpointsWithTextAfterTheAddressAreRejected() {
        for (String bad : List.of("[::1]x", "[::1]:9000x", "[::1] 9000", "[::1]:", "host:", "[]:9000",
                "", "  ")) {
            assertThatThrownBy(() -> Endpoint.parse(bad, 9000)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(Endpoint.parse("[::1]", 9000)).isEqualTo(new Endpoint("::1", 9000));
        assertThat(Endpoint.parse("[::1]:9440", 9000)).isEqualTo(new Endpoint("::1", 9440));
        assertThat(Endpoint.parse(" host:9001 ", 9000)).isEqualTo(new Endpoint("host", 9001));
        assertThat(Endpoint.parse("::1", 9000)).isEqualTo(new Endpoint("::1", 9000));
    }

    @Test
    void aSettingNeedsANameAndAValue() {
        assertThatThrownBy(() -> QueryOptions.builder().setting("max_threads", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max_threads");
        assertThatThrownBy(() -> ConnectionConfig.builder().setting("max_threads", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max_threads");
        assertThatThrownBy(() -> QueryOptions.builder().setting(null, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ConnectionConfig.builder().setting(" ", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> QueryOptions.builder().settings(java.util.Collections.singletonMap("a", null)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(QueryOptions.builder().setting("max_threads", 2).build().settings()).containsEntry("max_threads", "2");
    }

    @Test
    void externalTableStructuresMustBeWellFormed() {
        for (String bad : List.of("id UInt64, x Array(String", "id UInt64, x Array(String))", "id UInt64,",
                "id UInt64, , y String", "e Enum8('a' = 1", "s String, t DateTime('UTC)")) {
            assertThatThrownBy(() -> ExternalTable.of("t", bad, List.of())).as(bad)
                    .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("structure");
        }
        ExternalTable ok = ExternalTable.of("t", "id UInt64, e Enum8('a,b' = 1, 'c)' = 2), m Map(String, Array(UInt8))",
                List.of());
        assertThat(ok.columnNames()).containsExactly("id", "e", "m");
        assertThat(ok.columnTypes()).containsExactly("UInt64", "Enum8('a,b' = 1, 'c)' = 2)", "Map(String, Array(UInt8))");
    }
}
