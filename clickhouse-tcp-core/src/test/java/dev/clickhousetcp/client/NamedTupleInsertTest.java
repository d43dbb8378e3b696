package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.mapping.ClickHouseColumn;
import dev.clickhousetcp.mapping.MappingException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Named Tuple elements are filled by name from records, beans and maps, in every insert form (rows,
 * objects, columns) and nested in Array, Map, Nullable and Tuple; unnamed tuples, lists and arrays by
 * position. Every value is checked by the server itself, element by element.
 */
@ClickHouseTest
class NamedTupleInsertTest {

    public record Ns(String a, String b) {
    }

    public record Nt(String a, int b) {
    }

    /** Components in yet another order than the tuple's, of three types. */
    public record Three(long id, String name, double score) {
    }

    public record Mismatch(String a, String c) {
    }

    public record Extra(String a, String b, String c) {
    }

    public record Annotated(@ClickHouseColumn("b") String first, @ClickHouseColumn("a") String second) {
    }

    public record Holder(long id, Ns ns) {
    }

    public record LegacyRow(long id, Ns ns, Nt nt) {
    }

    public record BadHolder(long id, Mismatch ns) {
    }

    public record Outer(Ns inner, int n) {
    }

    public record Deep(int id, Outer o, Ns nn) {
    }

    public record WithList(long id, List<Ns> items, Map<String, Ns> byKey) {
    }

    /** A JavaBean: getters are its readable properties. */
    public static final class Bean {
        private final String a;
        private final String b;

        public Bean(String a, String b) {
            this.a = a;
            this.b = b;
        }

        public String getA() {
            return a;
        }

        public String getB() {
            return b;
        }
    }

    private static String tsv(ClickHouseServer server, String sql) {
        return server.httpQuery(sql).trim();
    }

    @Test
    void recordFillsNamedTupleByNameInRows() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("nt_rows");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt8, ns Tuple(b String, a String), nt Tuple(b UInt8, a String), "
                    + "th Tuple(score Float64, name String, id UInt64)) ENGINE = Memory");
            try {
                client.insert(t, List.of("id", "ns", "nt", "th"), List.<Object[]>of(
                        new Object[] {1, new Ns("A", "B"), new Nt("s", 7), new Three(5, "five", 2.5)},
                        new Object[] {2, new Ns("x", "y"), new Nt("t", 200), new Three(6, "six", -1.25)}));
                assertThat(tsv(server, "SELECT ns.a, ns.b, nt.a, nt.b, th.id, th.name, th.score FROM " + t + " ORDER BY id"))
                        .isEqualTo("A\tB\ts\t7\t5\tfive\t2.5\nx\ty\tt\t200\t6\tsix\t-1.25");
                assertThat(client.queryRows("SELECT ns.a, ns.b FROM " + t + " ORDER BY id").get(0))
                        .containsExactly("A", "B");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void beansMapsAndAnnotatedRecordsFillByName() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("nt_kinds");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt8, ns Tuple(b String, a String)) ENGINE = Memory");
            try {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("a", "mA");
                m.put("b", "mB");
                client.insert(t, List.of("id", "ns"), List.<Object[]>of(
                        new Object[] {1, new Bean("beanA", "beanB")},
                        new Object[] {2, m},
                        new Object[] {3, new Annotated("annB", "annA")},
                        // lists and arrays are positional: b first
                        new Object[] {4, List.of("listB", "listA")},
                        new Object[] {5, new Object[] {"arrB", "arrA"}}));
                assertThat(tsv(server, "SELECT ns.a, ns.b FROM " + t + " ORDER BY id")).isEqualTo(
                        "beanA\tbeanB\nmA\tmB\nannA\tannB\nlistA\tlistB\narrA\tarrB");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void unnamedTuplesStayPositional() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("nt_unnamed");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (ns Tuple(String, String)) ENGINE = Memory");
            try {
                client.insert(t, List.of("ns"), List.<Object[]>of(new Object[] {new Ns("A", "B")}));
                assertThat(tsv(server, "SELECT tupleElement(ns, 1), tupleElement(ns, 2) FROM " + t)).isEqualTo("A\tB");
                assertThatThrownBy(() -> client.insert(t, List.of("ns"), List.<Object[]>of(
                        new Object[] {Map.of("a", "x", "b", "y")})))
                        .isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("Tuple(String, String)");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void objectsAndColumnsFillNestedNamedTuplesByName() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("nt_nested");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt64, items Array(Tuple(b String, a String)), "
                    + "by_key Map(String, Tuple(b String, a String))) ENGINE = Memory");
            String h = TestClients.table("nt_holder");
            client.execute("CREATE TABLE " + h + " (id UInt64, ns Tuple(b String, a String)) ENGINE = Memory");
            try {
                client.insert(t, List.of(new WithList(1, List.of(new Ns("a1", "b1"), new Ns("a2", "b2")),
                        Map.of("k", new Ns("ka", "kb")))));
                Map<String, Object> cols = new LinkedHashMap<>();
                cols.put("id", new long[] {2});
                cols.put("items", List.of(List.of(new Ns("c1", "d1"))));
                cols.put("by_key", List.of(Map.of("j", new Ns("ja", "jb"))));
                client.insertColumns(t, cols);
                assertThat(tsv(server, "SELECT id, arrayMap(x -> x.a, items), arrayMap(x -> x.b, items), "
                        + "by_key['k'].a, by_key['k'].b, by_key['j'].a, by_key['j'].b FROM " + t + " ORDER BY id"))
                        .isEqualTo("1\t['a1','a2']\t['b1','b2']\tka\tkb\t\t\n2\t['c1']\t['d1']\t\t\tja\tjb");

                client.insert(h, List.of(new Holder(1, new Ns("hA", "hB"))));
                client.insertColumns(h, Map.of("id", new long[] {2}, "ns", List.of(new Ns("cA", "cB"))));
                assertThat(tsv(server, "SELECT ns.a, ns.b FROM " + h + " ORDER BY id")).isEqualTo("hA\thB\ncA\tcB");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
                client.execute("DROP TABLE IF EXISTS " + h);
            }
        }
    }

    @Test
    void tupleInTupleAndNullableTupleFillByName() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("nt_deep");
        QueryOptions nullableTuples = QueryOptions.builder().setting("enable_nullable_tuple_type", 1).build();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt8, o Tuple(n Int32, inner Tuple(b String, a String)), "
                    + "nn Nullable(Tuple(b String, a String))) ENGINE = Memory", nullableTuples);
            try {
                client.insert(t, List.of("id", "o", "nn"), List.<Object[]>of(
                        new Object[] {1, new Outer(new Ns("iA", "iB"), 9), new Ns("nA", "nB")},
                        new Object[] {2, Map.of("inner", Map.of("a", "mA", "b", "mB"), "n", -3), null}),
                        InsertOptions.builder().queryOptions(nullableTuples).build());
                assertThat(tsv(server, "SELECT o.n, o.inner.a, o.inner.b, isNull(nn), nn.a, nn.b FROM " + t + " ORDER BY id"))
                        .isEqualTo("9\tiA\tiB\t0\tnA\tnB\n-3\tmA\tmB\t1\t\\N\t\\N");
                List<Object[]> rows = client.queryRows("SELECT o, nn FROM " + t + " ORDER BY id");
                assertThat(rows.get(0)).containsExactly(List.of(9, List.of("iB", "iA")), List.of("nB", "nA"));
                assertThat(rows.get(1)).containsExactly(List.of(-3, List.of("mB", "mA")), null);
                assertThat(client.query("SELECT id, o, nn FROM " + t + " ORDER BY id", Deep.class)).containsExactly(
                        new Deep(1, new Outer(new Ns("iA", "iB"), 9), new Ns("nA", "nB")),
                        new Deep(2, new Outer(new Ns("mA", "mB"), -3), null));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    /** A Variant picks its tuple variant for a record by the tuple's element names, and fills it by name. */
    @Test
    void variantTupleOfARecordIsChosenAndFilledByName() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("nt_var");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt8, v Variant(String, Tuple(b UInt8, a String)), "
                    + "w Variant(UInt64, Tuple(b String, a String))) ENGINE = Memory");
            try {
                client.insert(t, List.of("id", "v", "w"), List.<Object[]>of(
                        new Object[] {1, new Nt("s", 7), new Ns("A", "B")},
                        new Object[] {2, "text", 5L}));
                assertThat(tsv(server, "SELECT variantType(v), v.`Tuple(b UInt8, a String)`.a, "
                        + "v.`Tuple(b UInt8, a String)`.b, variantType(w), w.`Tuple(b String, a String)`.a FROM " + t
                        + " ORDER BY id")).isEqualTo("Tuple(b UInt8, a String)\ts\t7\tTuple(b String, a String)\tA\n"
                        + "String\t\t0\tUInt64"); // the last, empty, value is trimmed
                String d = TestClients.table("nt_dyn");
                client.execute("CREATE TABLE " + d + " (id UInt8, d Dynamic) ENGINE = Memory");
                try {
                    client.insert(d, List.of("id", "d"), List.<Object[]>of(new Object[] {1, new Annotated("annB", "annA")},
                            new Object[] {2, new Ns("A", "B")}));
                    assertThat(tsv(server, "SELECT dynamicType(d), d FROM " + d + " ORDER BY id"))
                            .isEqualTo("Tuple(b String, a String)\t('annB','annA')\nTuple(a String, b String)\t('A','B')");
                } finally {
                    client.execute("DROP TABLE IF EXISTS " + d);
                }
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    /**
     * A bean or a map fills a named tuple variant by name as a record does; a map whose keys are not the
     * tuple's names goes to a Map variant, and one that fits neither is refused.
     */
    @Test
    void variantTupleOfABeanOrAMapIsChosenAndFilledByName() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("nt_var_props");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt8, v Variant(UInt64, Tuple(b String, a String)), "
                    + "w Variant(Map(String, UInt64), Tuple(b UInt8, a String))) ENGINE = Memory");
            try {
                Map<String, Object> byName = new LinkedHashMap<>();
                byName.put("a", "mA");
                byName.put("b", 9);
                client.insert(t, List.of("id", "v", "w"), List.<Object[]>of(
                        new Object[] {1, new Bean("bA", "bB"), byName},
                        new Object[] {2, Map.of("b", "mB", "a", "mA"), Map.of("x", 5L)}));
                assertThat(tsv(server, "SELECT variantType(v), v.`Tuple(b String, a String)`.a, "
                        + "v.`Tuple(b String, a String)`.b, variantType(w), w.`Tuple(b UInt8, a String)`.a, "
                        + "w.`Tuple(b UInt8, a String)`.b, w.`Map(String, UInt64)`['x'] FROM " + t + " ORDER BY id"))
                        .isEqualTo("Tuple(b String, a String)\tbA\tbB\tTuple(b UInt8, a String)\tmA\t9\t0\n"
                                + "Tuple(b String, a String)\tmA\tmB\tMap(String, UInt64)\t\t0\t5");
                assertThatThrownBy(() -> client.insert(t, List.of("id", "v", "w"), List.<Object[]>of(
                        new Object[] {3, Map.of("a", "x", "c", "y"), 1L})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("no variant");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    public record BeanHolder(long id, Bean ns) {
    }

    public record MapHolder(long id, Map<String, String> ns) {
    }

    @Test
    void objectPropertiesOfBeansAndMapsFillByName() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("nt_props");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt64, ns Tuple(b String, a String)) ENGINE = Memory");
            try {
                client.insert(t, List.of(new BeanHolder(1, new Bean("bA", "bB"))));
                client.insert(t, List.of(new MapHolder(2, Map.of("a", "mA", "b", "mB"))));
                assertThat(tsv(server, "SELECT ns.a, ns.b FROM " + t + " ORDER BY id")).isEqualTo("bA\tbB\nmA\tmB");
                assertThatThrownBy(() -> client.insert(t, List.of(new MapHolder(3, Map.of("a", "x", "c", "y")))))
                        .isInstanceOf(MappingException.class)
                        .hasMessageContaining("column 'ns'").hasMessageContaining("'b'").hasMessageContaining("'c'");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void nestedElementsFillByName() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("nt_nst");
        QueryOptions unflattened = QueryOptions.builder().setting("flatten_nested", 0).build();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt8, n Nested(b String, a String)) ENGINE = Memory", unflattened);
            try {
                client.insert(t, List.of("id", "n"), List.<Object[]>of(
                        new Object[] {1, List.of(new Ns("a1", "b1"), Map.of("a", "ma", "b", "mb"), new Bean("ba", "bb"))},
                        new Object[] {2, new Object[] {List.of("lb", "la")}}));
                assertThat(tsv(server, "SELECT n.a, n.b FROM " + t + " ORDER BY id"))
                        .isEqualTo("['a1','ma','ba']\t['b1','mb','bb']\n['la']\t['lb']");
                assertThatThrownBy(() -> client.insert(t, List.of("id", "n"), List.<Object[]>of(
                        new Object[] {3, List.of(Map.of("a", "x", "b", "y", "z", "extra"))})))
                        .isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("'z'");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void mismatchedComponentsAreRefusedNamingTheElements() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("nt_bad");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt64, ns Tuple(b String, a String)) ENGINE = Memory");
            try {
                assertThatThrownBy(() -> client.insert(t, List.of("ns"),
                        List.<Object[]>of(new Object[] {new Mismatch("x", "y")})))
                        .isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("Tuple(b String, a String)")
                        .hasMessageContaining("'b'").hasMessageContaining("'c'")
                        .hasMessageContaining("ns");
                assertThatThrownBy(() -> client.insert(t, List.of("ns"),
                        List.<Object[]>of(new Object[] {new Extra("x", "y", "z")})))
                        .isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("'c'");
                assertThatThrownBy(() -> client.insert(t, List.of("ns"),
                        List.<Object[]>of(new Object[] {Map.of("a", "x")})))
                        .isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("'b'");
                assertThatThrownBy(() -> client.insert(t, List.of(new BadHolder(1, new Mismatch("x", "y")))))
                        .isInstanceOf(MappingException.class)
                        .hasMessageContaining("column 'ns'")
                        .hasMessageContaining("'b'").hasMessageContaining("'c'");
                assertThatThrownBy(() -> client.insertColumns(t, Map.of("id", new long[] {1},
                        "ns", List.of(new Bean("x", "y"), new Extra("x", "y", "z")))))
                        .isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("column 'ns'")
                        .hasMessageContaining("'c'");
                assertThat(tsv(server, "SELECT count() FROM " + t)).isEqualTo("0");
                // reading: a record sharing some names with the tuple is refused too (no partial positional fill)
                client.execute("INSERT INTO " + t + " VALUES (1, ('B', 'A'))");
                assertThatThrownBy(() -> client.query("SELECT id, ns FROM " + t, BadHolder.class))
                        .isInstanceOf(MappingException.class)
                        .hasMessageContaining("[c]");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    /** Reading a row as records (by element name) and writing it back stores the same row. */
    @Test
    void readWriteReadIsIdentity() {
        ClickHouseServer server = ClickHouseServers.modern();
        String src = TestClients.table("nt_src");
        String dst = TestClients.table("nt_dst");
        String schema = " (id UInt64, items Array(Tuple(b String, a String)), "
                + "by_key Map(String, Tuple(b String, a String))) ENGINE = Memory";
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + src + schema);
            client.execute("CREATE TABLE " + dst + schema);
            try {
                client.execute("INSERT INTO " + src + " SELECT number, [(concat('b', toString(number)), "
                        + "concat('a', toString(number)))], map('k', ('kb', toString(number))) FROM numbers(50)");
                List<WithList> read = client.query("SELECT * FROM " + src + " ORDER BY id", WithList.class);
                assertThat(read.get(3).items()).containsExactly(new Ns("a3", "b3"));
                assertThat(read.get(3).byKey()).containsEntry("k", new Ns("3", "kb"));
                client.insert(dst, read);
                String check = "SELECT count(), sum(cityHash64(id, items, by_key)) FROM ";
                assertThat(tsv(server, check + dst)).isEqualTo(tsv(server, check + src));
                assertThat(client.query("SELECT * FROM " + dst + " ORDER BY id", WithList.class)).isEqualTo(read);

                List<Object[]> rows = client.queryRows("SELECT * FROM " + src + " ORDER BY id");
                client.execute("TRUNCATE TABLE " + dst);
                client.insert(dst, List.of("id", "items", "by_key"), rows);
                assertThat(tsv(server, check + dst)).isEqualTo(tsv(server, check + src));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + src);
                client.execute("DROP TABLE IF EXISTS " + dst);
            }
        }
    }

    /** 18.16 declares named tuples (it has no {@code t.name} access: elements are checked by position). */
    @Test
    void legacyServerFillsNamedTuplesByName() {
        ClickHouseServer server = ClickHouseServers.legacy();
        String t = TestClients.table("nt_legacy");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            // 18.16 parses named tuples only at the top level of a column's type
            client.execute("CREATE TABLE " + t + " (id UInt64, ns Tuple(b String, a String), "
                    + "nt Tuple(b UInt8, a String)) ENGINE = Memory");
            try {
                client.insert(t, List.of("id", "ns", "nt"), List.<Object[]>of(
                        new Object[] {1, new Ns("A", "B"), new Nt("s", 7)},
                        new Object[] {2, new Bean("x", "y"), Map.of("a", "m", "b", 8)}));
                client.insert(t, List.of(new LegacyRow(3, new Ns("hA", "hB"), new Nt("n", 9))));
                assertThat(tsv(server, "SELECT id, tupleElement(ns, 1), tupleElement(ns, 2), nt FROM " + t + " ORDER BY id"))
                        .isEqualTo("1\tB\tA\t(7,'s')\n2\ty\tx\t(8,'m')\n3\thB\thA\t(9,'n')");
                assertThat(client.query("SELECT id, ns FROM " + t + " ORDER BY id", Holder.class))
                        .containsExactly(new Holder(1, new Ns("A", "B")), new Holder(2, new Ns("x", "y")),
                                new Holder(3, new Ns("hA", "hB")));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }
}
