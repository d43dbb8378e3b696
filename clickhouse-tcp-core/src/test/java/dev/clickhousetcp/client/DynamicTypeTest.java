package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.data.DynamicColumn;
import dev.clickhousetcp.data.TypedValue;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Dynamic columns read from and written to the modern server: every value's text and type must be
 * what the server's {@code toString} and {@code dynamicType} say, in the default (V2) serialization
 * with values overflowing into the shared variant, and in the FLATTENED one.
 */
@ClickHouseTest
public class DynamicTypeTest {

    /** A record written as a named Tuple. */
    public record Pair(long x, String y) {
    }

    /** One expression per type, each a value of row {@code number}; most overflow into the shared variant. */
    static final List<String> BRANCHES = List.of(
            "toUInt64(number)", "toString(number)", "toFloat64(number) / 3", "[toUInt32(number), 7]",
            "map('k', number, 'z', 1)", "CAST((number, toString(number)) AS Tuple(a UInt64, b String))",
            "toDecimal64(number, 3) / 7", "toDateTime64(number * 1000, 3, 'Asia/Tokyo')",
            "CAST(if(number % 2 = 0, 'a', 'b''q') AS Enum8('a' = 1, 'b''q' = 2))",
            "toUUID(concat('00000000-0000-0000-0000-', leftPad(toString(number), 12, '0')))", "toIPv4(number)",
            "toIPv6('2001:db8::1')", "-toInt128(number) * 1000000000000", "number % 2 = 0", "toDate32('1900-01-01') + number",
            "toFixedString(toString(number % 100), 3)", "[NULL, toString(number)]", "toLowCardinality(toString(number % 5))",
            "CAST(concat('{\"a\":', toString(number), ',\"b\":{\"c\":\"x\"}}') AS JSON)",
            "[CAST('{\"q\":[1,2]}' AS JSON)]", "CAST((1.5, toFloat64(number)) AS Point)", "[[number], []]",
            "toIntervalDay(number)", "toBFloat16(1.5)", "toDate('2020-01-01') + number % 1000",
            "toDateTime(number, 'UTC')", "[map('x', [toNullable(number), NULL])]", "toInt8(-3)", "toFloat32(0.5)",
            "'it''s \\\\ \"q\" \\n'", "CAST(NULL AS Nullable(String))",
            "[CAST(number AS Variant(UInt64, String)), CAST('s' AS Variant(UInt64, String))]",
            "CAST([(toUInt8(number % 200), 'a')] AS Nested(x UInt8, y String))", "toDecimal128(number, 10) / 3",
            "toUInt256(number) * toUInt256('1000000000000000000000')", "map(toUInt8(number % 200), toLowCardinality('a'))",
            "CAST(concat('{\"a\":', toString(number % 100), ',\"z\":[1]}') AS JSON(max_dynamic_paths=0, a UInt8))",
            "[CAST(number AS Dynamic), CAST('x' AS Dynamic)]", "toLowCardinality(toNullable(toString(number)))");

    static String source(int maxTypes, int rows) {
        StringBuilder sb = new StringBuilder("CAST(multiIf(");
        for (int i = 0; i < BRANCHES.size(); i++) {
            sb.append("number % ").append(BRANCHES.size()).append(" = ").append(i).append(", CAST(")
                    .append(BRANCHES.get(i)).append(" AS Dynamic), ");
        }
        sb.append("NULL) AS Dynamic").append(maxTypes < 0 ? "" : "(max_types=" + maxTypes + ")").append(") AS d");
        return "SELECT " + sb + " FROM numbers(" + rows + ")";
    }

    /** Compares every row of column {@code d} of {@code sql} with the server's toString and dynamicType. */
    static int compareWithServer(ClickHouseTcpClient client, String sql, QueryOptions options) {
        int rows = 0;
        List<String> failures = new ArrayList<>();
        try (QueryResult r = client.query("SELECT d, toString(d) AS s, dynamicType(d) AS t FROM (" + sql + ")", options)) {
            for (Block b : r) {
                DynamicColumn d = (DynamicColumn) b.column(0);
                Column s = b.column(1);
                Column t = b.column(2);
                for (int i = 0; i < b.rowCount(); i++, rows++) {
                    String text = d.isNull(i) ? "" : d.getString(i);
                    String type = d.isNull(i) ? "None" : d.typeName(i);
                    if (!text.equals(s.getString(i)) || !type.equals(t.getString(i))) {
                        failures.add("row " + rows + ": client " + type + " '" + text + "' vs server " + t.getString(i)
                                + " '" + s.getString(i) + "'");
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
        return rows;
    }

    @Test
    void valuesAndTypesMatchTheServerIncludingTheSharedVariant() {
        ClickHouseServer server = ClickHouseServers.modern();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            QueryOptions blocks = QueryOptions.builder().setting("max_block_size", 997).build();
            int n = BRANCHES.size() * 60 + 5;
            assertThat(compareWithServer(client, source(-1, n), blocks)).isEqualTo(n);
            assertThat(compareWithServer(client, source(3, n), blocks)).isEqualTo(n);
            assertThat(compareWithServer(client, source(0, n), blocks)).isEqualTo(n);
            // the server did keep values in the shared variant
            assertThat(server.httpQuery("SELECT countIf(isDynamicElementInSharedData(d)) > 0 FROM (" + source(3, n) + ")")
                    .trim()).isEqualTo("1");
        }
    }

    @Test
    void flattenedSerializationReadsTheSame() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            QueryOptions flat = QueryOptions.builder().setting("max_block_size", 500)
                    .setting("output_format_native_use_flattened_dynamic_and_json_serialization", 1).build();
            int n = BRANCHES.size() * 40;
            assertThat(compareWithServer(client, source(3, n), flat)).isEqualTo(n);
            assertThat(compareWithServer(client, source(-1, n), flat)).isEqualTo(n);
        }
    }

    @Test
    void nestedInArraysTuplesAndMapsPrintLikeTheServer() {
        List<String> exprs = List.of(
                "[CAST(1 AS Dynamic), CAST('a' AS Dynamic), NULL, CAST([1, 2] AS Dynamic)]",
                "tuple(CAST('x' AS Dynamic), CAST(NULL AS Dynamic), CAST(toDate('2020-01-02') AS Dynamic))",
                "map('k', CAST('v' AS Dynamic), 'n', CAST(3.5 AS Dynamic))",
                "[CAST(CAST('{\"a\":\"it''s\"}' AS JSON) AS Dynamic)]",
                "CAST([1, 2] AS Array(Dynamic(max_types=1)))",
                "CAST(map('a', [CAST(1 AS Dynamic), CAST('s' AS Dynamic)]) AS Map(String, Array(Dynamic)))");
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            for (String e : exprs) {
                List<String[]> got = client.query("SELECT " + e + " AS v, toString(v), toTypeName(v)",
                        (row, i) -> new String[] {row.getString(0), row.getString(1), row.getString(2),
                            row.column(0).type().name()});
                assertThat(got.get(0)[0]).as(e).isEqualTo(got.get(0)[1]);
                assertThat(got.get(0)[3]).as(e).isEqualTo(got.get(0)[2]);
            }
        }
    }

    @Test
    void perRowTypesAndValuesWithoutBoxing() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            try (QueryResult r = client.query("SELECT CAST(multiIf(number = 0, CAST(toInt64(-5) AS Dynamic), number = 1, "
                    + "CAST('s' AS Dynamic), NULL) AS Dynamic) FROM numbers(3)")) {
                Block b = r.iterator().next();
                DynamicColumn d = (DynamicColumn) b.column(0);
                assertThat(d.typeName(0)).isEqualTo("Int64");
                assertThat(d.getLong(0)).isEqualTo(-5);
                assertThat(d.typeColumn(d.typeIndex(0)).getLong(d.offset(0))).isEqualTo(-5);
                assertThat(d.getObject(1)).isEqualTo("s");
                assertThat(d.isNull(2)).isTrue();
                assertThat(d.typeName(2)).isNull();
                assertThat(d.getObject(2)).isNull();
                assertThat(d.getTypedValue(0)).isEqualTo(TypedValue.of("Int64", -5L));
                Column copy = d.copy();
                assertThat(copy.getString(1)).isEqualTo("s");
                Column gathered = d.gather(new int[] {1, -1, 0});
                assertThat(gathered.getString(0)).isEqualTo("s");
                assertThat(gathered.isNull(1)).isTrue();
                assertThat(gathered.getString(2)).isEqualTo("-5");
            }
        }
    }

    @Test
    void insertRoundTripKeepsValuesAndTypes() {
        ClickHouseServer server = ClickHouseServers.modern();
        String src = TestClients.table("dyn_src");
        String dst = TestClients.table("dyn_dst");
        String dst2 = TestClients.table("dyn_dst2");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + src + " (id UInt64, d Dynamic(max_types=4)) ENGINE = Memory");
            client.execute("CREATE TABLE " + dst + " (id UInt64, d Dynamic(max_types=4)) ENGINE = MergeTree ORDER BY id");
            client.execute("CREATE TABLE " + dst2 + " (id UInt64, d Dynamic) ENGINE = Memory");
            try {
                int n = BRANCHES.size() * 3;
                client.execute("INSERT INTO " + src + " SELECT number, " + source(-1, n).substring("SELECT ".length()));
                // exact types: TypedValue from getTypedValue
                List<Object[]> typed = new ArrayList<>();
                List<Object[]> plain = new ArrayList<>();
                try (QueryResult r = client.query("SELECT id, d FROM " + src + " ORDER BY id")) {
                    for (Block b : r) {
                        DynamicColumn d = (DynamicColumn) b.column(1);
                        for (int i = 0; i < b.rowCount(); i++) {
                            typed.add(new Object[] {b.column(0).getObject(i), d.getTypedValue(i)});
                            plain.add(new Object[] {b.column(0).getObject(i), d.getObject(i)});
                        }
                    }
                }
                assertThat(client.insert(dst, List.of("id", "d"), typed)).isEqualTo(n);
                String q = "SELECT count(), arrayStringConcat(groupArray(concat(dynamicType(d), ':', toString(d))), '|') "
                        + "FROM (SELECT d FROM %s ORDER BY id)";
                assertThat(server.httpQuery(String.format(q, dst))).isEqualTo(server.httpQuery(String.format(q, src)));
                // getObject: a plain Java value where the writer infers the value's own type, a TypedValue
                // elsewhere, so the values insert back with their types (dst2 has another max_types)
                assertThat(client.insert(dst2, List.of("id", "d"), plain)).isEqualTo(n);
                assertThat(server.httpQuery(String.format(q, dst2))).isEqualTo(server.httpQuery(String.format(q, src)));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + src);
                client.execute("DROP TABLE IF EXISTS " + dst);
                client.execute("DROP TABLE IF EXISTS " + dst2);
            }
        }
    }

    @Test
    void javaValuesGetTheirNaturalTypes() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("dyn_java");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt32, d Dynamic) ENGINE = Memory");
            try {
                Map<String, Object> map = new LinkedHashMap<>();
                map.put("a", 1L);
                map.put("b", null);
                List<Object> values = new ArrayList<>(List.of("text", 42, 42L, (short) 7, (byte) -1, 1.5, 2.5f, true,
                        new BigInteger("18446744073709551615"), new BigDecimal("12.345"), LocalDate.of(2024, 2, 29),
                        LocalDate.of(1900, 1, 1), LocalDateTime.of(2024, 1, 2, 3, 4, 5),
                        LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000),
                        ZonedDateTime.of(2024, 1, 2, 3, 4, 5, 0, ZoneId.of("Europe/Berlin")),
                        UUID.fromString("123e4567-e89b-12d3-a456-426614174000"), List.of(1L, 2L), new long[] {3, 4},
                        java.util.Arrays.asList("x", null), List.of(1L, "mixed"), List.of(), map, new Pair(1, "p"),
                        TypedValue.of("UInt8", 200), TypedValue.of("Array(Nullable(Int16))", java.util.Arrays.asList(1, null))));
                values.add(null);
                List<Object[]> rows = new ArrayList<>();
                for (int i = 0; i < values.size(); i++) {
                    rows.add(new Object[] {i, values.get(i)});
                }
                client.insert(t, List.of("id", "d"), rows);
                String got = server.httpQuery("SELECT arrayStringConcat(groupArray(concat(dynamicType(d), '=', toString(d))), '\\n') "
                        + "FROM (SELECT d FROM " + t + " ORDER BY id) FORMAT TSVRaw");
                assertThat(got).isEqualTo(String.join("\n", List.of("String=text", "Int32=42", "Int64=42", "Int16=7", "Int8=-1",
                        "Float64=1.5", "Float32=2.5", "Bool=true", "UInt64=18446744073709551615", "Decimal(5, 3)=12.345",
                        "Date=2024-02-29", "Date32=1900-01-01", "DateTime=2024-01-02 03:04:05",
                        "DateTime64(3)=2024-01-02 03:04:05.123", "DateTime('Europe/Berlin')=2024-01-02 03:04:05",
                        "UUID=123e4567-e89b-12d3-a456-426614174000", "Array(Int64)=[1,2]", "Array(Int64)=[3,4]",
                        "Array(Nullable(String))=['x',NULL]", "Array(Dynamic)=[1,'mixed']", "Array(Nothing)=[]",
                        "Map(String, Nullable(Int64))={'a':1,'b':NULL}", "Tuple(x Int64, y String)=(1,'p')", "UInt8=200",
                        "Array(Nullable(Int16))=[1,NULL]", "None=")) + "\n");
                // checked on the writer: no insert is abandoned
                assertThatThrownBy(() -> DataTypes.parse("Dynamic", ZoneId.of("UTC")).newWriter().append(new Object()))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("TypedValue");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }
}
