package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigInteger;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every supported type, selected from server SQL expressions, must print exactly as the server's own
 * {@code toString} of the same value.
 */
@ClickHouseTest
class TypesTest {

    /** Expressions valid on both servers. */
    static final List<String> COMMON = List.of(
            "toInt8(-128)", "toInt8(127)", "toUInt8(255)", "toInt16(-32768)", "toUInt16(65535)",
            "toInt32(-2147483648)", "toUInt32(4294967295)", "toInt64(-9223372036854775808)",
            "toInt64(9223372036854775807)", "toUInt64(18446744073709551615)", "toUInt64(0)",
            "toFloat32(0.5)", "toFloat32(-1.25)", "toFloat64(0.1)", "toFloat64(-2.5)", "toFloat64(1000000)",
            "'hello'", "''", "'üñí©ødé ✓'", "'tab\\there\\nnewline'",
            "toFixedString('ab', 4)", "toFixedString('abcd', 4)",
            "toDate('1970-01-02')", "toDate('2024-02-29')",
            "toDateTime('2024-01-02 03:04:05')", "toDateTime('2024-01-02 03:04:05', 'Asia/Kolkata')",
            "toDateTime('1970-01-01 00:00:01', 'UTC')", "toDateTime('2105-12-31 23:59:59', 'UTC')",
            "toUUID('123e4567-e89b-12d3-a456-426614174000')", "toUUID('00000000-0000-0000-0000-000000000000')",
            "CAST(NULL AS Nullable(Int32))", "CAST(5 AS Nullable(Int32))", "CAST('x' AS Nullable(String))",
            "CAST(NULL AS Nullable(String))", "CAST(NULL AS Nullable(DateTime))",
            "[1, 2, 3]", "CAST([] AS Array(Int32))", "[['a', 'b'], [], ['c']]", "[NULL, 1, NULL]",
            "['it\\'s', 'back\\\\slash']", "[toDate('2020-01-01')]", "[[1.5, -2.5], []]",
            "[toUUID('123e4567-e89b-12d3-a456-426614174000')]",
            "CAST('b' AS Enum8('a' = 1, 'b' = 2))", "CAST('x' AS Enum16('x' = -1000, 'y' = 1000))",
            "tuple(1, 'a', [2, 3])", "[CAST('a' AS Enum8('a' = 1))]");

    /** Expressions of types only the modern server has. */
    static final List<String> MODERN = List.of(
            "true", "false", "[true, false]", "toDate('1970-01-01')", "toDate('2149-06-06')",
            "toDateTime('1970-01-01 00:00:00', 'UTC')", "toFloat64(123456789.125)", "toFloat32(16777216)",
            "toFloat32(0.1)", "toFloat32(3.4028235e38)", "toFloat32(1e-7)", "toFloat32(nan)", "toFloat32(-inf)",
            "0.1 + 0.2", "1e21", "1e20", "1e-7", "0.000001", "-0.", "5e-324", "1.7976931348623157e308", "nan", "inf",
            "toDate32('1900-01-01')", "toDate32('2299-12-31')", "toDate32('2024-06-30')",
            "toDateTime64('2024-01-02 03:04:05.123456', 6)", "toDateTime64('1900-01-01 00:00:00.5', 1, 'UTC')",
            "toDateTime64('2024-01-02 03:04:05', 0, 'America/New_York')",
            "toDateTime64('2200-01-01 00:00:00.000000001', 9, 'UTC')", "toDateTime64('1969-12-31 23:59:59.999', 3, 'UTC')",
            "[toDateTime64('2024-01-02 03:04:05.123', 3, 'Asia/Tokyo')]",
            "CAST(NULL AS Nullable(DateTime64(3)))", "CAST(NULL AS Nullable(Bool))",
            "toLowCardinality('abc')", "CAST(NULL AS LowCardinality(Nullable(String)))",
            "CAST('q' AS LowCardinality(Nullable(String)))", "[toLowCardinality('x'), toLowCardinality('y')]",
            "map('a', 1, 'b', 2)", "map('k', [1, 2])", "CAST(map() AS Map(String, UInt8))",
            "tuple(1 AS x, 'a' AS y)", "NULL", "[NULL]", "CAST(1, 'Nullable(UInt64)')");

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void valuesPrintLikeTheServer(ClickHouseServer.Kind kind) {
        List<String> exprs = new ArrayList<>(COMMON);
        if (kind == ClickHouseServer.Kind.MODERN) {
            exprs.addAll(MODERN);
        }
        List<String> failures = new ArrayList<>();
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.get(kind))) {
            for (String e : exprs) {
                List<String[]> got = client.query("SELECT " + e + " AS v, toString(v) AS s, toTypeName(v) AS t",
                        (row, n) -> new String[] {row.getString(0), row.getString(1), row.getString(2),
                            row.column(0).type().name()});
                String[] r = got.get(0);
                if (!java.util.Objects.equals(r[0], r[1])) {
                    failures.add(e + " [" + r[2] + "]: client '" + r[0] + "' vs server '" + r[1] + "'");
                }
                if (!r[2].equals(r[3])) {
                    failures.add(e + ": type " + r[3] + " vs toTypeName " + r[2]);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void manyRowsPerTypeMatchTheServer(ClickHouseServer.Kind kind) {
        List<String> exprs = new ArrayList<>(List.of("number", "toInt32(number) - 5000", "toString(number)",
                "toDate('2020-01-01') + number", "toDateTime('2020-01-01 00:00:00', 'UTC') + number * 3601",
                "if(number % 3 = 0, NULL, number)", "range(number % 5)", "toFixedString(toString(number % 100), 3)",
                "toFloat64(number) / 7", "arrayMap(x -> toString(x), range(number % 4))",
                "if(number % 2 = 0, NULL, toString(number))"));
        if (kind == ClickHouseServer.Kind.MODERN) {
            exprs.addAll(List.of("toLowCardinality(toString(number % 7))", "toDateTime64(number, 3, 'UTC') + 0.001 * number",
                    "map(toString(number % 3), number)", "if(number % 5 = 0, NULL, toLowCardinality(toString(number % 3)))"));
        }
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.get(kind))) {
            for (String e : exprs) {
                int[] checked = {0};
                try (QueryResult r = client.query("SELECT " + e + " AS v, toString(v) AS s FROM system.numbers LIMIT 20000"
                        + " SETTINGS max_block_size = 3000")) {
                    for (Block b : r) {
                        Column v = b.column(0);
                        Column s = b.column(1);
                        for (int i = 0; i < b.rowCount(); i++) {
                            assertThat(v.getString(i)).as(e + " row " + i).isEqualTo(s.getString(i));
                            checked[0]++;
                        }
                    }
                }
                assertThat(checked[0]).as(e).isEqualTo(20000);
            }
        }
    }

    @Test
    void objectTierJavaTypes() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            Object[] r = client.queryRows("SELECT toUInt64(18446744073709551615), toInt64(-1), toUInt32(4294967295), "
                    + "toInt32(-7), toUInt16(65535), toInt16(-3), toUInt8(200), toInt8(-5), toFloat32(1.5), 2.25, true, "
                    + "'s', toDate('2024-02-29'), toDateTime('2024-01-02 03:04:05', 'Europe/Berlin'), "
                    + "toUUID('123e4567-e89b-12d3-a456-426614174000'), [1, 2], CAST(NULL AS Nullable(Int8)), "
                    + "map('a', 1), CAST('b' AS Enum8('a' = 1, 'b' = 2))").get(0);
            assertThat(r[0]).isEqualTo(new BigInteger("18446744073709551615"));
            assertThat(r[1]).isEqualTo(-1L);
            assertThat(r[2]).isEqualTo(4294967295L);
            assertThat(r[3]).isEqualTo(-7);
            assertThat(r[4]).isEqualTo(65535);
            assertThat(r[5]).isEqualTo((short) -3);
            assertThat(r[6]).isEqualTo((short) 200);
            assertThat(r[7]).isEqualTo((byte) -5);
            assertThat(r[8]).isEqualTo(1.5f);
            assertThat(r[9]).isEqualTo(2.25d);
            assertThat(r[10]).isEqualTo(true);
            assertThat(r[11]).isEqualTo("s");
            assertThat(r[12]).isEqualTo(LocalDate.of(2024, 2, 29));
            assertThat(r[13]).isEqualTo(ZonedDateTime.of(2024, 1, 2, 3, 4, 5, 0, ZoneId.of("Europe/Berlin")));
            assertThat(r[14]).isEqualTo(UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
            assertThat(r[15]).isEqualTo(List.of((short) 1, (short) 2));
            assertThat(r[16]).isNull();
            assertThat(r[17]).isEqualTo(Map.of("a", (short) 1));
            assertThat(r[18]).isEqualTo("b");
        }
    }
}
