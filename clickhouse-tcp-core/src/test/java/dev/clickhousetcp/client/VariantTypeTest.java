package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.data.TypedValue;
import dev.clickhousetcp.data.VariantColumn;
import dev.clickhousetcp.data.VariantType;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Variant and Geometry columns against the modern server: discriminator order, text equal to the
 * server's {@code toString}, variant names equal to {@code variantType}, and insert round trips.
 */
@ClickHouseTest
class VariantTypeTest {

    static final String V = "Variant(UInt64, String, Array(Int32), Date, Tuple(a Int8, b Nullable(String)))";

    @Test
    void discriminatorsFollowTheServersSortedOrder() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            try (QueryResult r = client.query("SELECT CAST(arrayJoin([CAST(toUInt64(42) AS Variant(UInt64, String)), "
                    + "CAST('hi' AS Variant(UInt64, String)), NULL]) AS Variant(UInt64, String)) AS v")) {
                Block b = r.iterator().next();
                VariantColumn v = (VariantColumn) b.column(0);
                assertThat(v.type().name()).isEqualTo("Variant(String, UInt64)");
                assertThat(((VariantType) v.type()).variants()).extracting(t -> t.name()).containsExactly("String", "UInt64");
                assertThat(v.discriminator(0)).isEqualTo(1);
                assertThat(v.discriminator(1)).isEqualTo(0);
                assertThat(v.discriminator(2)).isEqualTo(VariantColumn.NULL_DISCRIMINATOR);
                assertThat(v.variant(1).getLong(v.offset(0))).isEqualTo(42);
                assertThat(v.getLong(0)).isEqualTo(42);
                assertThat(v.getObject(1)).isEqualTo("hi");
                assertThat(v.typeName(1)).isEqualTo("String");
                assertThat(v.getTypedValue(0)).isEqualTo(TypedValue.of("UInt64", new java.math.BigInteger("42")));
                assertThat(v.isNull(2)).isTrue();
                assertThat(v.getObject(2)).isNull();
                assertThat(v.getString(2)).isNull();
                assertThatThrownBy(() -> v.getLong(2)).isInstanceOf(IllegalStateException.class);
                Column g = v.gather(new int[] {2, 1, -1, 0});
                assertThat(g.getString(1)).isEqualTo("hi");
                assertThat(g.isNull(2)).isTrue();
                assertThat(g.getString(3)).isEqualTo("42");
                assertThat(v.copy().getString(0)).isEqualTo("42");
            }
        }
    }

    /** Variant values, NULLs, nested in Array/Tuple/Map and Geometry, printed like the server prints them. */
    @Test
    void valuesPrintLikeTheServer() {
        List<String> exprs = List.of(
                "CAST('it''s' AS Variant(String, UInt64))", "CAST(toUInt64(7) AS Variant(String, UInt64))",
                "[CAST(toUInt64(42) AS Variant(String, UInt64)), 'x', NULL]",
                "tuple(CAST('x' AS Variant(String, UInt64)), CAST(NULL AS Variant(String, UInt64)))",
                "map('k', CAST([1, 2] AS Variant(Array(UInt8), String)))",
                "CAST([1, 2] AS Variant(Array(UInt8), String))",
                "CAST(toDate('2020-01-02') AS Variant(Date, String))", "[CAST(toDate('2020-01-02') AS Variant(Date, UInt8))]",
                "CAST(tuple(1.5, 2.5)::Point AS Geometry)", "CAST([[(0., 0.), (1., 0.), (1., 1.)]]::Polygon AS Geometry)",
                "[CAST([(1., 2.)]::Ring AS Geometry), NULL]", "CAST([[[(1., 2.)]]]::MultiPolygon AS Geometry)",
                "CAST(CAST('{\"a\":1}' AS JSON) AS Variant(JSON, String))",
                "[CAST(CAST('{\"a\":\"q\"}' AS JSON) AS Variant(JSON, UInt8))]",
                "CAST(CAST([1, 2] AS Array(Dynamic)) AS Variant(Array(Dynamic), String))",
                "CAST(toLowCardinality('lc') AS Variant(LowCardinality(String), UInt8))");
        List<String> failures = new ArrayList<>();
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            for (String e : exprs) {
                List<String[]> got = client.query("SELECT " + e + " AS v, toString(v), toTypeName(v)",
                        (row, i) -> new String[] {row.column(0).isNull(0) ? "" : row.getString(0), row.getString(1),
                            row.getString(2), row.column(0).type().name()});
                String[] r = got.get(0);
                if (!r[0].equals(r[1]) || !r[2].equals(r[3])) {
                    failures.add(e + ": client " + r[3] + " '" + r[0] + "' vs server " + r[2] + " '" + r[1] + "'");
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void manyRowsOfMixedVariantsOverSeveralBlocks() {
        String src = "SELECT CAST(multiIf(number % 6 = 0, CAST(number AS " + V + "), number % 6 = 1, CAST(toString(number) AS "
                + V + "), number % 6 = 2, CAST([toInt32(number), -1] AS " + V + "), number % 6 = 3, "
                + "CAST(toDate('2000-01-01') + number % 1000 AS " + V + "), number % 6 = 4, CAST(CAST((toInt8(number % 100), "
                + "if(number % 4 = 0, NULL, 's')) AS Tuple(a Int8, b Nullable(String))) AS " + V + "), NULL) AS " + V + ") AS v "
                + "FROM numbers(30000)";
        int rows = 0;
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern());
             QueryResult r = client.query("SELECT v, toString(v), variantType(v) FROM (" + src + ")",
                     QueryOptions.builder().setting("max_block_size", 4093).build())) {
            for (Block b : r) {
                VariantColumn v = (VariantColumn) b.column(0);
                for (int i = 0; i < b.rowCount(); i++, rows++) {
                    assertThat(v.isNull(i) ? "" : v.getString(i)).isEqualTo(b.column(1).getString(i));
                    assertThat(v.isNull(i) ? "None" : v.typeName(i)).isEqualTo(b.column(2).getString(i));
                }
            }
        }
        assertThat(rows).isEqualTo(30000);
    }

    @Test
    void insertRoundTripOfVariantsAndGeometry() {
        ClickHouseServer server = ClickHouseServers.modern();
        Map<String, List<String>> types = new LinkedHashMap<>();
        types.put(V, List.of("toUInt64(5)", "'text'", "CAST([1, 2, 3] AS Array(Int32))", "toDate('2024-02-29')",
                "CAST((1, NULL) AS Tuple(a Int8, b Nullable(String)))", "NULL"));
        types.put("Variant(String, Int64, Float64, Bool)", List.of("'a'", "toInt64(-1)", "toFloat64(1.5)", "true", "NULL"));
        types.put("Array(Variant(String, UInt8))", List.of(
                "[CAST('x' AS Variant(String, UInt8)), CAST(toUInt8(3) AS Variant(String, UInt8)), NULL]",
                "arrayFilter(x -> 0, [CAST('x' AS Variant(String, UInt8))])"));
        types.put("Geometry", List.of("tuple(1.5, 2.5)::Point", "[[(0., 0.), (1., 0.), (1., 1.)]]::Polygon",
                "[[[(1., 2.)]]]::MultiPolygon", "NULL"));
        List<String> failures = new ArrayList<>();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            int t = 0;
            for (Map.Entry<String, List<String>> e : types.entrySet()) {
                String src = TestClients.table("vsrc" + t);
                String dst = TestClients.table("vdst" + t++);
                client.execute("CREATE TABLE " + src + " (id UInt32, v " + e.getKey() + ") ENGINE = Memory");
                client.execute("CREATE TABLE " + dst + " (id UInt32, v " + e.getKey() + ") ENGINE = Memory");
                try {
                    StringBuilder select = new StringBuilder();
                    for (int i = 0; i < e.getValue().size(); i++) {
                        select.append(i == 0 ? "" : " UNION ALL ").append("SELECT toUInt32(").append(i).append("), CAST(")
                                .append(e.getValue().get(i)).append(" AS ").append(e.getKey()).append(')');
                    }
                    client.execute("INSERT INTO " + src + " " + select);
                    List<Object[]> rows = new ArrayList<>();
                    try (QueryResult r = client.query("SELECT id, v FROM " + src + " ORDER BY id")) {
                        for (Block b : r) {
                            for (int i = 0; i < b.rowCount(); i++) {
                                Column v = b.column(1);
                                // Geometry's Lists fit several geo variants: choose with the read type name
                                Object value = v instanceof VariantColumn vc && e.getKey().equals("Geometry")
                                        ? vc.getTypedValue(i) : v.getObject(i);
                                rows.add(new Object[] {b.column(0).getObject(i), value});
                            }
                        }
                    }
                    client.insert(dst, List.of("id", "v"), rows);
                    String q = "SELECT count(), arrayStringConcat(groupArray(concat(toString(v), '/', toString(variantType(v)))), '|') "
                            + "FROM (SELECT v FROM %s ORDER BY id)";
                    if (e.getKey().startsWith("Array")) {
                        q = "SELECT count(), arrayStringConcat(groupArray(toString(v)), '|') FROM (SELECT v FROM %s ORDER BY id)";
                    }
                    String expected = server.httpQuery(String.format(q, src));
                    String actual = server.httpQuery(String.format(q, dst));
                    if (!expected.equals(actual)) {
                        failures.add(e.getKey() + ": server has '" + expected.trim() + "', we inserted '" + actual.trim() + "'");
                    }
                } catch (RuntimeException ex) {
                    failures.add(e.getKey() + ": " + ex);
                } finally {
                    client.execute("DROP TABLE IF EXISTS " + src);
                    client.execute("DROP TABLE IF EXISTS " + dst);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void javaValuesPickTheirVariantOrFailClearly() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("vjava");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt32, v Variant(Int32, Int64, String, Array(UInt8), Float64, Date)) "
                    + "ENGINE = Memory", QueryOptions.builder().setting("allow_suspicious_variant_types", 1).build());
            try {
                List<Object[]> rows = List.of(new Object[] {1, 5}, new Object[] {2, 5L}, new Object[] {3, "s"},
                        new Object[] {4, List.of(1, 2)}, new Object[] {5, 2.5}, new Object[] {6, LocalDate.of(2024, 1, 2)},
                        new Object[] {7, null}, new Object[] {8, TypedValue.of("Int64", 9)},
                        new Object[] {9, new byte[] {104, 105}}, new Object[] {10, 3.0f});
                client.insert(t, List.of("id", "v"), rows);
                assertThat(server.httpQuery("SELECT arrayStringConcat(groupArray(concat(variantType(v), ':', toString(v))), ' ') "
                        + "FROM (SELECT v FROM " + t + " ORDER BY id) FORMAT TSVRaw").trim())
                        .isEqualTo("Int32:5 Int64:5 String:s Array(UInt8):[1,2] Float64:2.5 Date:2024-01-02 None: "
                                + "Int64:9 String:hi Float64:3");
                // the writer rejects values before anything is sent (checked on the writer: no insert is abandoned)
                VariantType type = (VariantType) DataTypes.parse("Variant(Int32, Int64, String, Array(UInt8), Float64, Date)",
                        ZoneId.of("UTC"));
                ColumnWriter w = type.newWriter();
                // Short fits both Int32 and Int64 and is neither's own type: ambiguous
                assertThatThrownBy(() -> w.append((short) 1)).isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("ambiguous").hasMessageContaining("Int32").hasMessageContaining("TypedValue");
                assertThatThrownBy(() -> w.append(true)).isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("no variant");
                assertThatThrownBy(() -> w.append(TypedValue.of("UInt16", 1))).isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("no variant UInt16");
                assertThat(w.size()).isZero();
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo("10");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void geometryVariantOrderIsFixed() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            try (QueryResult r = client.query("SELECT CAST(tuple(1., 2.)::Point AS Geometry), "
                    + "CAST([(1., 2.)]::Ring AS Geometry), CAST([(3., 4.)]::LineString AS Geometry)")) {
                Block b = r.iterator().next();
                assertThat(((VariantType) b.column(0).type()).variants()).extracting(x -> x.name())
                        .containsExactly("LineString", "MultiLineString", "MultiPolygon", "Point", "Polygon", "Ring");
                assertThat(((VariantColumn) b.column(0)).discriminator(0)).isEqualTo(3);
                assertThat(((VariantColumn) b.column(1)).discriminator(0)).isEqualTo(5);
                assertThat(((VariantColumn) b.column(2)).discriminator(0)).isEqualTo(0);
                assertThat(b.column(0).getObject(0)).isEqualTo(Arrays.asList(1.0, 2.0));
                assertThat(b.column(0).type().name()).isEqualTo("Geometry");
            }
        }
    }
}
