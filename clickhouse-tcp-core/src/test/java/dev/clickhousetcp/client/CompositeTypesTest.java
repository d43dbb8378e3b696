package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.ArrayColumn;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.NestedColumn;
import dev.clickhousetcp.data.QBitColumn;
import dev.clickhousetcp.data.TupleColumn;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Enum(...), Nested (flatten_nested = 0), QBit and the geo families against ClickHouse 26.7. */
@ClickHouseTest
class CompositeTypesTest {
    static final QueryOptions UNFLATTENED = QueryOptions.builder().setting("flatten_nested", 0).build();

    @Test
    void valuesPrintLikeTheServer() {
        List<String> exprs = List.of(
                "CAST('b' AS Enum('a', 'b'))", "CAST('a' AS Enum('a' = -129, 'b'))", "CAST('x' AS Enum('x' = 5, 'y'))",
                "CAST((1.5, 2) AS Point)", "CAST((1e300, -0.1) AS Point)", "CAST((nan, -inf) AS Point)", "CAST((0, -0.) AS Point)",
                "CAST([(1, 2), (3, 4)] AS Ring)", "CAST([] AS Ring)", "CAST([(1, 2)] AS LineString)",
                "CAST([[(1, 2)], []] AS MultiLineString)", "CAST([[(0, 0), (1, 0), (1, 1)], [(0.25, 0.25)]] AS Polygon)",
                "CAST([[[(1, 2)]], [], [[(3, 4), (5, 6)]]] AS MultiPolygon)", "[CAST((1, 2) AS Point)]",
                "tuple(CAST((1, 2) AS Point), CAST([(0, 0)] AS Ring))",
                "CAST([1.5, -2, 0] AS QBit(Float32, 3))", "CAST([1.5, -2, 0.1] AS QBit(Float64, 3))",
                "CAST([1.5, -2, 0.1] AS QBit(BFloat16, 3))", "CAST(range(20) AS QBit(Float32, 20))",
                "CAST(arrayMap(x -> x / 7 - 3, range(17)) AS QBit(Float64, 17))",
                "CAST([nan, inf, -inf, -0., 1e-45, 3.4028235e38, 1e-40, 0.5] AS QBit(Float32, 8))",
                "CAST([1] AS QBit(Float32, 1))", "[CAST([1, 2] AS QBit(BFloat16, 2))]",
                "CAST(NULL AS Nullable(QBit(Float32, 2)))", "CAST([3, 4] AS Nullable(QBit(Float64, 2)))");
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            assertThat(ServerTypeChecks.printMismatches(client, exprs)).isEmpty();
            assertThat(ServerTypeChecks.manyRowsMismatches(client, List.of(
                    "CAST(arrayMap(x -> (x * number) / 13 - 50, range(number % 40 + 1)) AS Array(Float64))",
                    "CAST(arrayMap(x -> toFloat32(x * number / 3), range(9)) AS QBit(Float32, 9))",
                    "CAST(arrayMap(x -> x * number / 11, range(65)) AS QBit(Float64, 65))",
                    "CAST(arrayMap(x -> x - number / 5, range(3)) AS QBit(BFloat16, 3))",
                    "CAST(arrayMap(x -> (x / 3, -x * number), range(number % 4)) AS Ring)"), 5000)).isEmpty();
        }
    }

    @Test
    void qbitGoldenBytesAndAccess() {
        ClickHouseServer server = ClickHouseServers.modern();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            try (QueryResult r = client.query("SELECT CAST([1.5, -2, 0] AS QBit(Float32, 3)), "
                    + "CAST(arrayMap(x -> x * 1.25, range(10)) AS QBit(Float64, 10)), CAST([0.1, -3] AS QBit(BFloat16, 2))")) {
                Block b = r.next();
                QBitColumn q = (QBitColumn) b.column(0);
                assertThat(q.dimension()).isEqualTo(3);
                assertThat(q.elementBits()).isEqualTo(32);
                assertThat(q.getObject(0)).isEqualTo(new float[] {1.5f, -2f, 0f});
                assertThat(q.getFloat(0, 1)).isEqualTo(-2f);
                assertThat(q.getBits(0, 0)).isEqualTo(Float.floatToRawIntBits(1.5f) & 0xFFFFFFFFL);
                QBitColumn q64 = (QBitColumn) b.column(1);
                double[] expected = new double[10];
                for (int i = 0; i < 10; i++) {
                    expected[i] = i * 1.25;
                }
                assertThat(q64.getObject(0)).isEqualTo(expected);
                assertThat(q64.getDouble(0, 9)).isEqualTo(11.25);
                QBitColumn bf = (QBitColumn) b.column(2);
                assertThat(bf.getObject(0)).isEqualTo(new float[] {0.099609375f, -3f});
                assertThat(bf.copy().getString(0)).isEqualTo("[0.099609375,-3]");
                r.drain(); // read to the end: the connection goes back to the pool clean
            }
        }
    }

    @Test
    void geoAndNestedObjects() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("nested");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            Object[] row = client.queryRows("SELECT CAST((1.5, 2) AS Point), CAST([(1, 2), (3, 4)] AS Ring), "
                    + "CAST([[[(1, 2)]]] AS MultiPolygon)").get(0);
            assertThat(row[0]).isEqualTo(List.of(1.5, 2.0));
            assertThat(row[1]).isEqualTo(List.of(List.of(1.0, 2.0), List.of(3.0, 4.0)));
            assertThat(row[2]).isEqualTo(List.of(List.of(List.of(List.of(1.0, 2.0)))));
            try (QueryResult r = client.query("SELECT CAST((1.5, 2) AS Point), CAST([(1, 2)] AS LineString)")) {
                Block b = r.next();
                assertThat(b.column(0)).isInstanceOf(TupleColumn.class);
                assertThat(b.column(0).type().name()).isEqualTo("Point");
                assertThat(((TupleColumn) b.column(0)).element(1).getDouble(0)).isEqualTo(2.0);
                assertThat(b.column(1)).isInstanceOf(ArrayColumn.class);
                assertThat(b.column(1).type().name()).isEqualTo("LineString");
                r.drain(); // read to the end: the connection goes back to the pool clean
            }
            client.execute("CREATE TABLE " + t + " (id UInt8, n Nested(a UInt8, b String)) ENGINE = Memory", UNFLATTENED);
            try {
                client.execute("INSERT INTO " + t + " VALUES (1, [(1, 'x'), (2, 'y')]), (2, [])");
                try (QueryResult r = client.query("SELECT n, toString(n), toTypeName(n) FROM " + t + " ORDER BY id")) {
                    Block b = r.next();
                    NestedColumn n = (NestedColumn) b.column(0);
                    assertThat(n.type().name()).isEqualTo(b.column(2).getString(0)).isEqualTo("Nested(a UInt8, b String)");
                    assertThat(n.getString(0)).isEqualTo(b.column(1).getString(0));
                    assertThat(n.getString(1)).isEqualTo("[]");
                    assertThat(n.fieldNames()).containsExactly("a", "b");
                    assertThat(n.getObject(0)).isEqualTo(List.of(Map.of("a", (short) 1, "b", "x"), Map.of("a", (short) 2, "b", "y")));
                    assertThat(n.field("b").getString(n.start(0) + 1)).isEqualTo("y");
                    assertThat(n.length(1)).isZero();
                    r.drain(); // read to the end: the connection goes back to the pool clean
                }
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void insertRoundTrips() {
        ClickHouseServer server = ClickHouseServers.modern();
        Map<String, List<String>> types = new LinkedHashMap<>();
        types.put("Enum('a', 'b', 'c')", List.of("'a'", "'c'"));
        types.put("Point", List.of("(1.5, 2)", "(nan, -inf)", "(-0., 1e-300)"));
        types.put("Ring", List.of("[(1, 2), (3, 4)]", "[]"));
        types.put("LineString", List.of("[(0, 0)]"));
        types.put("MultiLineString", List.of("[[(1, 2)], []]"));
        types.put("Polygon", List.of("[[(0, 0), (1, 0), (1, 1)], [(0.25, 0.25)]]"));
        types.put("MultiPolygon", List.of("[[[(1, 2)]], [], [[(3, 4), (5, 6)]]]", "[]"));
        types.put("Array(Point)", List.of("[(1, 2)]"));
        types.put("QBit(Float32, 3)", List.of("[1.5, -2, 0]", "[nan, inf, -0.]"));
        types.put("QBit(Float64, 17)", List.of("arrayMap(x -> x / 7 - 3, range(17))"));
        types.put("QBit(BFloat16, 9)", List.of("arrayMap(x -> x * 1.1, range(9))"));
        types.put("Nullable(QBit(Float32, 2))", List.of("NULL", "[1, 2]"));
        types.put("Array(QBit(Float64, 2))", List.of("[CAST([1, 2] AS QBit(Float64, 2)), CAST([3, 4] AS QBit(Float64, 2))]",
                "[]"));
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            assertThat(ServerTypeChecks.roundTripMismatches(client, server, types)).isEmpty();
            String src = TestClients.table("nsrc");
            String dst = TestClients.table("ndst");
            try {
                for (String tb : List.of(src, dst)) {
                    client.execute("CREATE TABLE " + tb + " (id UInt8, n Nested(a UInt8, b Nullable(String), c Array(Int32))) "
                            + "ENGINE = Memory", UNFLATTENED);
                }
                client.execute("INSERT INTO " + src + " VALUES (1, [(1, 'x', [1, 2]), (2, NULL, [])]), (2, []), "
                        + "(3, [(255, '', [-1])])");
                List<Object[]> rows = client.queryRows("SELECT id, n FROM " + src + " ORDER BY id");
                client.insert(dst, List.of("id", "n"), rows);
                String q = "SELECT groupArray(toString(n)) FROM (SELECT n FROM %s ORDER BY id)";
                assertThat(server.httpQuery(String.format(q, dst))).isEqualTo(server.httpQuery(String.format(q, src)));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + src);
                client.execute("DROP TABLE IF EXISTS " + dst);
            }
        }
    }

    @Test
    void javaValuesAndColumnarInsert() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("comp");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt32, e Enum('lo' = -1, 'hi'), p Point, r Ring, "
                    + "q QBit(Float32, 4), n Nested(k String, v Float64)) ENGINE = Memory", UNFLATTENED);
            try {
                record Xy(double x, double y) {
                }
                record Kv(String k, double v) {
                }
                client.insert(t, List.of(), List.of(
                        new Object[] {0, "hi", new double[] {1.5, -2}, List.of(new Xy(0, 0), List.of(1, 1)),
                            new float[] {1, 2, 3, 4}, List.of(Map.of("k", "a", "v", 1.5), List.of("b", 2))},
                        new Object[] {1, -1, new Xy(3, 4), new Object[] {}, List.of(0.5, -0.5, 1e-3, 7),
                            new Object[] {new Kv("c", -1)}}));
                assertThat(server.httpQuery("SELECT * FROM " + t + " ORDER BY id FORMAT TSV")).isEqualTo(
                        "0\thi\t(1.5,-2)\t[(0,0),(1,1)]\t[1,2,3,4]\t[('a',1.5),('b',2)]\n"
                                + "1\tlo\t(3,4)\t[]\t[0.5,-0.5,0.001,7]\t[('c',-1)]\n");
                int n = 2000;
                int[] ids = new int[n];
                List<String> es = new ArrayList<>();
                List<double[]> ps = new ArrayList<>();
                List<List<double[]>> rs = new ArrayList<>();
                List<float[]> qs = new ArrayList<>();
                List<List<Map<String, Object>>> ns = new ArrayList<>();
                double sumQ = 0;
                for (int i = 0; i < n; i++) {
                    ids[i] = 10 + i;
                    es.add(i % 2 == 0 ? "lo" : "hi");
                    ps.add(new double[] {i, -i / 2.0});
                    rs.add(List.of(new double[] {i, i}, new double[] {0, 1}));
                    float[] v = {i, i / 4f, -i, 0.125f};
                    qs.add(v);
                    for (float x : v) {
                        sumQ += x;
                    }
                    ns.add(List.of(Map.of("k", "k" + i, "v", i * 0.5)));
                }
                Map<String, Object> cols = new LinkedHashMap<>();
                cols.put("id", ids);
                cols.put("e", es);
                cols.put("p", ps);
                cols.put("r", rs);
                cols.put("q", qs);
                cols.put("n", ns);
                assertThat(client.insertColumns(t, cols)).isEqualTo(n);
                assertThat(server.httpQuery("SELECT count(), countIf(e = 'hi'), sum(p.1), sum(p.2), sum(length(r)), "
                        + "sum(arraySum(CAST(q AS Array(Float64)))), sum(arraySum(n.v)), countIf(n.k[1] = concat('k', toString(id - 10))) "
                        + "FROM " + t + " WHERE id >= 10").trim())
                        .isEqualTo(n + "\t" + n / 2 + "\t" + (long) n * (n - 1) / 2 + "\t" + -((long) n * (n - 1) / 4) + "\t"
                                + 2 * n + "\t" + (long) sumQ + "\t" + (long) n * (n - 1) / 4 + "\t" + n);
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(
                        new Object[] {5, "hi", new double[] {0, 0}, List.of(), new float[] {1, 2, 3}, List.of()})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("QBit(Float32, 4)");
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(
                        new Object[] {5, "mid", new double[] {0, 0}, List.of(), new float[4], List.of()})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("Enum8");
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(
                        new Object[] {5, "hi", new double[] {0, 0}, List.of(), new float[4], List.of(Map.of("k", "x"))})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("no key for element 'v'");
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo(Integer.toString(n + 2));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }
}
