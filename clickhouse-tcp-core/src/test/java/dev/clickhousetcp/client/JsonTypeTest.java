package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.data.DynamicColumn;
import dev.clickhousetcp.data.JsonColumn;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * JSON columns against the modern server: the object text must equal the server's {@code toString} in
 * the default object serialization (typed paths, dynamic paths, shared data), the FLATTENED one and
 * the text one; path access must match the server's subcolumns; inserts must round-trip.
 */
@ClickHouseTest
class JsonTypeTest {

    /** Row {@code number}'s JSON text: nested objects, arrays, arrays of objects, many paths, nulls, escapes. */
    static final String DOC = "concat('{\"id\":', toString(number), ',\"name\":\"n', toString(number % 7), '\",'"
            + ", '\"nested\":{\"a\":{\"b\":', toString(number % 3), ',\"c\":\"x/y', char(92), char(92), 'q', char(92), '\"z\"},\"arr\":[1,2,', toString(number), ']},'"
            + ", '\"objs\":[{\"k\":1},{\"k\":\"s\",\"m\":[true,null]}],\"f\":', toString(number / 4), ','"
            + ", '\"p', toString(number % 40), '\":', toString(number), ',\"q', toString(number % 9), '\":{\"deep\":[\"', toString(number), '\"]},'"
            + ", '\"maybe\":', if(number % 5 = 0, 'null', '\"v\"'), ',\"d\":\"2024-01-', leftPad(toString(number % 28 + 1), 2, '0'), '\",'"
            + ", '\"big\":18446744073709551615,\"neg\":-', toString(number), ',\"e\":[]}')";

    static String source(String type, int rows) {
        return "SELECT CAST(" + DOC + " AS " + type + ") AS j FROM numbers(" + rows + ")";
    }

    static int compareWithServer(ClickHouseTcpClient client, String sql, QueryOptions options, boolean text) {
        int rows = 0;
        List<String> failures = new ArrayList<>();
        try (QueryResult r = client.query("SELECT j, toString(j) FROM (" + sql + ")", options)) {
            for (Block b : r) {
                JsonColumn j = (JsonColumn) b.column(0);
                assertThat(j.isText()).isEqualTo(text);
                for (int i = 0; i < b.rowCount(); i++, rows++) {
                    if (!j.getString(i).equals(b.column(1).getString(i))) {
                        failures.add("row " + rows + ": client " + j.getString(i) + " vs server " + b.column(1).getString(i));
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
        return rows;
    }

    @Test
    void objectTextMatchesTheServer() {
        ClickHouseServer server = ClickHouseServers.modern();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            QueryOptions blocks = QueryOptions.builder().setting("max_block_size", 700).build();
            assertThat(compareWithServer(client, source("JSON", 3000), blocks, false)).isEqualTo(3000);
            // few dynamic paths and types: the rest goes to the shared data and the shared variant
            String small = "JSON(max_dynamic_paths=3, max_dynamic_types=1)";
            assertThat(compareWithServer(client, source(small, 3000), blocks, false)).isEqualTo(3000);
            assertThat(server.httpQuery("SELECT length(JSONSharedDataPaths(j)) > 0 FROM (" + source(small, 10)
                    + ") LIMIT 1").trim()).isEqualTo("1");
            // typed paths (present or not), SKIP rules
            String typed = "JSON(id UInt32, `nested.a.b` Int8, maybe Nullable(String), d Date, missing Array(String), "
                    + "SKIP name, SKIP REGEXP '^p1.*')";
            assertThat(compareWithServer(client, source(typed, 2000), blocks, false)).isEqualTo(2000);
        }
    }

    @Test
    void flattenedAndTextSerializationsReadTheSame() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            QueryOptions flat = QueryOptions.builder().setting("max_block_size", 500)
                    .setting("output_format_native_use_flattened_dynamic_and_json_serialization", 1).build();
            assertThat(compareWithServer(client, source("JSON(max_dynamic_paths=3, id UInt64)", 1500), flat, false))
                    .isEqualTo(1500);
            QueryOptions text = QueryOptions.builder().setting("max_block_size", 500)
                    .setting("output_format_native_write_json_as_string", 1).build();
            assertThat(compareWithServer(client, source("JSON", 1500), text, true)).isEqualTo(1500);
            List<Object> obj = client.query("SELECT '{\"a\":{\"b\":[1,2]},\"c\":\"x\"}'::JSON", text, (row, i) -> row.getObject(0));
            assertThat(obj.get(0)).isEqualTo(Map.of("a", Map.of("b", List.of(1L, 2L)), "c", "x"));
        }
    }

    @Test
    void nestedInArraysAndTuplesPrintLikeTheServer() {
        List<String> exprs = List.of("['{\"a\":1}'::JSON, '{\"b\":\"it''s\"}'::JSON]", "tuple('{\"a\":{\"b\":[]}}'::JSON, 1)",
                "map('k', '{\"x\":[{\"y\":1}]}'::JSON)", "'{}'::JSON", "'{\"a\":{}}'::JSON",
                "CAST('{\"a\":1}' AS JSON(a Nullable(Int8), b Nullable(Int8)))",
                "CAST('{\"t\":{\"x\":1,\"y\":\"s\"},\"m\":{\"k\":1.5}}' AS JSON(t Tuple(x Int8, y String), m Map(String, Float64)))",
                "CAST('{\"f\":\"ab\",\"u\":\"123e4567-e89b-12d3-a456-426614174000\",\"ip\":\"1.2.3.4\",\"dec\":1.25}' AS "
                        + "JSON(f FixedString(3), u UUID, ip IPv4, dec Decimal(10, 2)))",
                "CAST('{\"x\":\"nan\",\"y\":1e300,\"z\":-0.0}' AS JSON(x Float64, y Float64, z Float64))",
                "CAST('{\"b\":-5,\"u\":7,\"e\":\"a\",\"ip\":\"1.2.3.4\",\"d\":\"2020-01-01 00:00:00\",\"lc\":null}' AS "
                        + "JSON(b Int128, u UInt256, e Enum8('a' = 1), ip IPv4, d DateTime64(3, 'UTC'), lc LowCardinality(Nullable(String))))");
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
    void pathAccessMatchesTheServersSubcolumns() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            String sql = "SELECT j, toString(j.nested.a.b), toString(j.name), toString(j.big), JSONAllPaths(j) FROM ("
                    + source("JSON(max_dynamic_paths=4, id UInt32)", 50) + ")";
            try (QueryResult r = client.query(sql)) {
                for (Block b : r) {
                    JsonColumn j = (JsonColumn) b.column(0);
                    for (int i = 0; i < b.rowCount(); i++) {
                        assertThat(nullToEmpty(j.getPathString(i, "nested.a.b"))).isEqualTo(b.column(1).getString(i));
                        assertThat(nullToEmpty(j.getPathString(i, "name"))).isEqualTo(b.column(2).getString(i));
                        assertThat(j.getPathObject(i, "big")).isEqualTo(new BigInteger("18446744073709551615"));
                        assertThat(j.getPathObject(i, "id")).isEqualTo((long) i);
                        assertThat(String.join(",", j.paths(i))).isEqualTo(
                                b.column(4).getString(i).replace("'", "").replace("[", "").replace("]", ""));
                    }
                    assertThat(j.typedPaths()).containsExactly("id");
                    assertThat(j.dynamicPaths()).hasSize(4);
                    DynamicColumn d = j.dynamicPath(j.dynamicPaths().get(0));
                    assertThat(d).isNotNull();
                    Column id = j.typedPath("id");
                    assertThat(id.getLong(3)).isEqualTo(3);
                    @SuppressWarnings("unchecked")
                    Map<String, Object> tree = (Map<String, Object>) j.getObject(1);
                    assertThat(tree.get("name")).isEqualTo("n1");
                    assertThat(((Map<?, ?>) ((Map<?, ?>) tree.get("nested")).get("a")).get("b")).isEqualTo(1L);
                    assertThat(tree.get("d")).isEqualTo(LocalDate.of(2024, 1, 2));
                    assertThat(tree.get("objs")).isEqualTo(List.of(Map.of("k", 1L),
                            Map.of("k", "s", "m", java.util.Arrays.asList(true, null))));
                    assertThat(j.copy().getString(2)).isEqualTo(j.getString(2));
                    assertThat(j.gather(new int[] {2, -1}).getString(0)).isEqualTo(j.getString(2));
                }
            }
        }
    }

    /**
     * Stateful types nested in arrays that are empty for whole blocks (prefix without data), several
     * columns and paths of the same type in one block, and two paths of type Array(JSON) in one object.
     */
    @Test
    void emptyNestedValuesAndRepeatedTypesInOneBlock() {
        String sql = "SELECT arrayFilter(x -> number % 5 >= 2, [CAST(number AS Dynamic), CAST('x' AS Dynamic)]) AS a, "
                + "arrayFilter(x -> number >= 1000, [CAST(toString(number) AS Variant(String, UInt64))]) AS b, "
                + "arrayFilter(x -> number % 2 = 1, [CAST(concat('{\"n\":', toString(number), '}') AS JSON)]) AS c, "
                + "CAST(toString(number) AS Dynamic) AS d1, CAST(number AS Dynamic) AS d2, "
                + "CAST(concat('{\"x\":[{\"p\":', toString(number), '}],\"y\":[{\"q\":\"s\"}]}') AS JSON) AS j "
                + "FROM numbers(3000)";
        int rows = 0;
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern());
             QueryResult r = client.query("SELECT *, toString(a), toString(b), toString(c), toString(d1), toString(d2), "
                     + "toString(j) FROM (" + sql + ")", QueryOptions.builder().setting("max_block_size", 400).build())) {
            for (Block b : r) {
                for (int i = 0; i < b.rowCount(); i++, rows++) {
                    for (int c = 0; c < 6; c++) {
                        assertThat(b.column(c).getString(i)).as("column " + c + " row " + rows)
                                .isEqualTo(b.column(c + 6).getString(i));
                    }
                }
            }
        }
        assertThat(rows).isEqualTo(3000);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    @Test
    void insertRoundTripFromTextAndFromObjects() {
        ClickHouseServer server = ClickHouseServers.modern();
        List<String> types = List.of("JSON", "JSON(max_dynamic_paths=2)", "JSON(id UInt32, `nested.a.b` Int8, SKIP name)");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            int n = 0;
            for (String type : types) {
                String src = TestClients.table("jsrc" + n);
                String fromText = TestClients.table("jtext" + n);
                String fromObject = TestClients.table("jobj" + n++);
                for (String t : List.of(src, fromText, fromObject)) {
                    client.execute("CREATE TABLE " + t + " (id UInt64, j " + type + ") ENGINE = MergeTree ORDER BY id");
                }
                try {
                    client.execute("INSERT INTO " + src + " SELECT number, CAST(" + DOC + " AS " + type + ") FROM numbers(500)");
                    List<Object[]> texts = new ArrayList<>();
                    List<Object[]> objects = new ArrayList<>();
                    try (QueryResult r = client.query("SELECT id, j FROM " + src + " ORDER BY id")) {
                        for (Block b : r) {
                            for (int i = 0; i < b.rowCount(); i++) {
                                texts.add(new Object[] {b.column(0).getObject(i), b.column(1).getString(i)});
                                objects.add(new Object[] {b.column(0).getObject(i), b.column(1).getObject(i)});
                            }
                        }
                    }
                    assertThat(client.insert(fromText, List.of("id", "j"), texts)).isEqualTo(500);
                    assertThat(client.insert(fromObject, List.of("id", "j"), objects)).isEqualTo(500);
                    String q = "SELECT count(), arrayStringConcat(groupArray(toString(j)), '|'), "
                            + "arrayStringConcat(groupArray(toString(JSONAllPathsWithTypes(j))), '|') FROM (SELECT j FROM %s ORDER BY id)";
                    String expected = server.httpQuery(String.format(q, src));
                    assertThat(server.httpQuery(String.format(q, fromText))).as(type).isEqualTo(expected);
                    assertThat(server.httpQuery(String.format(q, fromObject))).as(type).isEqualTo(expected);
                } finally {
                    for (String t : List.of(src, fromText, fromObject)) {
                        client.execute("DROP TABLE IF EXISTS " + t);
                    }
                }
            }
        }
    }

    @Test
    void invalidJsonIsRejectedByTheWriterAndJavaTreesInsert() {
        // checked on the writer, before anything is sent (no insert is abandoned)
        ColumnWriter w = DataTypes.parse("JSON", ZoneId.of("UTC")).newWriter();
        assertThatThrownBy(() -> w.append("{\"a\":")).isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("JSON");
        assertThatThrownBy(() -> w.append("[1,2]")).isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("object");
        assertThatThrownBy(() -> w.append(null)).isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("NULL");
        assertThat(w.size()).isZero();
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("jjava");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt32, j JSON) ENGINE = Memory");
            try {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("x", List.of(1.0, 2.5));
                m.put("when", LocalDate.of(2024, 5, 6));
                m.put("n", null);
                client.insert(t, List.of("id", "j"), List.<Object[]>of(new Object[] {1, m}, new Object[] {2, "{\"s\":\"v\"}"}));
                assertThat(server.httpQuery("SELECT toString(j), toString(JSONAllPathsWithTypes(j)) FROM " + t
                        + " ORDER BY id FORMAT TSVRaw")).isEqualTo(
                        "{\"when\":\"2024-05-06\",\"x\":[1,2.5]}\t{'when':'Date','x':'Array(Nullable(Float64))'}\n"
                                + "{\"s\":\"v\"}\t{'s':'String'}\n");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }
}
