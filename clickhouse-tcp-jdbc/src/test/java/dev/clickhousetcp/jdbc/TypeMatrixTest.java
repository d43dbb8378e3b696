package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.TypeFamilies;
import dev.clickhousetcp.testsupport.TypeFamilies.Family;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import static dev.clickhousetcp.testsupport.TypeFamilies.f;
import static dev.clickhousetcp.testsupport.TypeFamilies.scalar;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JDBC type matrix over every type family the server lists in {@code system.data_type_families} (the
 * families and values of the core's TypeFamilyConformanceTest), each also inside Nullable, Array,
 * Array(Nullable), a named Tuple, a Map and LowCardinality where ClickHouse allows it. Per family one source
 * table is filled by the server, its rows are read through the driver ({@code getObject}) and inserted into a
 * second table through a PreparedStatement, once with {@code setObject} and once with the typed setter of the
 * value's class; then the server's {@code toString} of each inserted value must equal that of the source,
 * {@code getString} must equal the server's {@code toString}, and {@code getObject} must equal the value
 * written. Prints {@code jdbc type matrix: N/M families passing}.
 */
@ClickHouseTest
class TypeMatrixTest {

    /** The families and values of the client's conformance test (checked against the server below). */
    static Map<String, Family> families() {
        return TypeFamilies.all();
    }

    /** The families the 18.16 server knows but stores or prints differently from the values above. */
    private static final Map<String, Family> LEGACY = Map.ofEntries(
            // 18.16 prints day 0 as 0000-00-00 (before 20.7; docs/jdbc.md) and wraps dates past 2105 to it
            Map.entry("Date", scalar("Date", true, "'1970-01-02'", "'2105-12-31'", "'2024-02-29'")),
            Map.entry("Float64", scalar("Float64", true, "0", "-0.", "1.7976931348623157e308", "nan", "-inf", "0.1")),
            Map.entry("UUID", f("UUID", "'00000000-0000-0000-0000-000000000000'",
                    "'123e4567-e89b-12d3-a456-426614174000'")), // no Nullable(UUID) CAST on 18.16
            Map.entry("Decimal", scalar("Decimal(10, 2)", false, "toDecimal64(0, 2)",
                    "toDecimal64('-12345678.91', 2)")),
            Map.entry("Decimal32", scalar("Decimal32(4)", false, "toDecimal32(0, 4)",
                    "toDecimal32('-99999.9999', 4)")),
            Map.entry("Decimal64", scalar("Decimal64(9)", false, "toDecimal64(0, 9)",
                    "toDecimal64('-999999999.999999999', 9)")),
            Map.entry("Decimal128", scalar("Decimal128(20)", false, "toDecimal128(0, 20)",
                    "toDecimal128('0.00000000000000000001', 20)")),
            Map.entry("DateTime", scalar("DateTime('UTC')", false, "'1970-01-01 00:00:01'", "'2106-02-07 06:28:15'")),
            Map.entry("LowCardinality", f("LowCardinality(String)", "'x'", "''")),
            Map.entry("Array", f("Array(Array(Nullable(String)))", "[[], [NULL, 'a']]")),
            Map.entry("Tuple", f("Tuple(UInt8, Nullable(String), Array(Int32))", "(1, NULL, [2])",
                    "(2, 'x', [1, 2])")));

    /**
     * Families 18.16 lists but the matrix cannot cover there: it has no CAST to Interval types and cannot
     * store them, and it stores Nested and Array(Tuple) only as flattened columns.
     */
    private static boolean legacySkipped(String family) {
        return family.startsWith("Interval") || family.equals("Nested");
    }

    /** Families the server cannot store in a table (no insert; read checks only). */
    private static final Set<String> READ_ONLY = Set.of("Nothing");

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void everyFamilyRoundTripsThroughPreparedStatement(String kind) throws SQLException {
        ClickHouseServer server = JdbcTests.server(kind);
        boolean modern = kind.equals("modern");
        Map<String, Family> all = families();
        Set<String> serverFamilies = new LinkedHashSet<>(List.of(server.httpQuery(
                "SELECT name FROM system.data_type_families WHERE alias_to = '' ORDER BY name").trim().split("\n")));
        if (modern) {
            assertThat(all.keySet()).containsExactlyInAnyOrderElementsOf(serverFamilies);
            assertThat(all).hasSize(67);
        }
        Map<String, Family> families = new LinkedHashMap<>();
        for (Map.Entry<String, Family> e : all.entrySet()) {
            if (serverFamilies.contains(e.getKey()) && (modern || !legacySkipped(e.getKey()))) {
                families.put(e.getKey(), modern ? e.getValue() : LEGACY.getOrDefault(e.getKey(), e.getValue()));
            }
        }
        Map<String, String> failures = new LinkedHashMap<>();
        try (Connection c = JdbcTests.connect(kind); Statement s = c.createStatement()) {
            if (modern) {
                s.execute("SET flatten_nested = 0");
                s.execute("SET allow_suspicious_low_cardinality_types = 1");
            } else {
                s.execute("SET allow_experimental_low_cardinality_type = 1");
            }
            int n = 0;
            for (Map.Entry<String, Family> e : families.entrySet()) {
                List<String> problems = new ArrayList<>();
                try {
                    check(c, e.getValue(), n++, modern, READ_ONLY.contains(e.getKey()), problems);
                } catch (SQLException | RuntimeException ex) {
                    problems.add(ex.toString());
                }
                if (!problems.isEmpty()) {
                    failures.put(e.getKey(), String.join("; ", problems));
                }
            }
        }
        System.out.println("jdbc type matrix (" + kind + "): " + (families.size() - failures.size()) + "/"
                + families.size() + " families passing" + (failures.isEmpty() ? "" : "; failing:"));
        failures.forEach((k, v) -> System.out.println("  " + k + ": " + v));
        assertThat(failures).isEmpty();
    }

    /**
     * JDBC objects nested inside Lists and Maps bind as they do at the top level: a java.sql.Array as a Map
     * value, a Timestamp in a List, a Struct as a Map value; and JSON, Variant and Dynamic from their natural
     * Java values. Each read back: getString is the server's toString, getObject the value written.
     */
    @org.junit.jupiter.api.Test
    void jdbcObjectsNestedInListsAndMapsBindAsAtTheTopLevel() throws SQLException {
        String t = JdbcTests.table("matrix_nested");
        Map<String, String> cols = new LinkedHashMap<>();
        cols.put("ma", "Map(String, Array(Int32))");
        cols.put("lt", "Array(DateTime64(3, 'UTC'))");
        cols.put("ms", "Map(String, Tuple(a UInt8, b String))");
        cols.put("j", "JSON");
        cols.put("va", "Variant(String, UInt64)");
        cols.put("dy", "Dynamic");
        cols.put("tl", "Tuple(a UInt8, b String)");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            StringBuilder ddl = new StringBuilder("CREATE TABLE " + t + " (k UInt8");
            cols.forEach((n, type) -> ddl.append(", ").append(n).append(' ').append(type));
            s.execute(ddl.append(") ENGINE = Memory").toString());
            try {
                Timestamp ts = Timestamp.from(java.time.Instant.parse("2024-02-29T12:34:56.789Z"));
                Map<String, Object> ma = new LinkedHashMap<>();
                ma.put("x", c.createArrayOf("Int32", new Object[] {1, -2}));
                Map<String, Object> ms = new LinkedHashMap<>();
                ms.put("s", c.createStruct("Tuple(a UInt8, b String)", new Object[] {7, "q"}));
                Object[][] rows = {
                    {ma, List.of(ts), ms, "{\"a\":1,\"b\":[\"x\"]}", "s", 42L, List.of(3, "z")},
                    {Map.of("y", c.createArrayOf("Int32", new Object[] {5})), List.of(Timestamp.from(java.time.Instant.EPOCH)),
                        Map.of("t", c.createStruct("Tuple", new Object[] {0, ""})), "{}",
                        new BigInteger("18446744073709551615"), "text", new Object[] {255, "ü"}},
                    {Map.of("z", c.createArrayOf("Int32", new Object[0])), List.of(ts, ts),
                        Map.of("u", c.createStruct("Tuple", new Object[] {1, "x"})), "{\"n\":null}", null, null,
                        c.createStruct("Tuple(a UInt8, b String)", new Object[] {2, "y"})}};
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                    for (int r = 0; r < rows.length; r++) {
                        ps.setInt(1, r);
                        for (int i = 0; i < rows[r].length; i++) {
                            ps.setObject(i + 2, rows[r][i]);
                        }
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
                List<String> names = new ArrayList<>(cols.keySet());
                try (ResultSet rs = s.executeQuery("SELECT " + selectList(names) + " FROM " + t + " ORDER BY k")) {
                    List<String> problems = new ArrayList<>();
                    while (rs.next()) {
                        for (int j = 0; j < names.size(); j++) {
                            compareText(problems, rs.getRow() + " " + names.get(j), rs.getString(j + 1),
                                    rs.getString(names.size() + j + 1), cols.get(names.get(j)));
                        }
                    }
                    assertThat(problems).isEmpty();
                }
                try (ResultSet rs = s.executeQuery("SELECT ma, lt, ms, va, dy, tl, j FROM " + t + " ORDER BY k")) {
                    assertThat(rs.next()).isTrue();
                    // JSON: getObject is the JSON text written (the class getColumnClassName names)
                    assertThat(rs.getObject("j")).isEqualTo("{\"a\":1,\"b\":[\"x\"]}");
                    assertThat(rs.getObject("j").getClass().getName()).isEqualTo(rs.getMetaData().getColumnClassName(7));
                    assertThat(rs.getObject("j", Map.class)).containsKey("a");
                    assertThat(detach(rs.getObject("ma"))).isEqualTo(detach(Map.of("x", new Object[] {1, -2})));
                    assertThat(detach(rs.getObject("lt"))).isEqualTo(new Object[] {ts});
                    // a tuple inside a Map or an Array reads as the List of its attributes
                    assertThat(detach(rs.getObject("ms"))).isEqualTo(detach(Map.of("s", List.of((short) 7, "q"))));
                    assertThat(rs.getObject("va")).isEqualTo("s");
                    assertThat(rs.getObject("dy")).isEqualTo(42L);
                    assertThat(detach(rs.getObject("tl"))).isEqualTo(Deep.tuple(new Object[] {(short) 3, "z"}));
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getObject("va")).isEqualTo(new BigInteger("18446744073709551615"));
                    assertThat(rs.getObject("dy")).isEqualTo("text");
                    assertThat(rs.getObject("j")).isEqualTo("{}");
                    assertThat(detach(rs.getObject("tl"))).isEqualTo(Deep.tuple(new Object[] {(short) 255, "ü"}));
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getObject("va")).isNull();
                    assertThat(rs.getObject("dy")).isNull();
                    assertThat(rs.getObject("j")).isEqualTo("{}"); // the server drops null paths
                    assertThat(detach(rs.getObject("tl"))).isEqualTo(Deep.tuple(new Object[] {(short) 2, "y"}));
                }
            } finally {
                s.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    /** The column types of one family's tables: the family itself and the wrappers ClickHouse allows. */
    static Map<String, String> columnTypes(Family fam, boolean modern) {
        String t = fam.type();
        Map<String, String> cols = new LinkedHashMap<>();
        cols.put("v", t);
        if (t.startsWith("AggregateFunction")) {
            return cols;
        }
        if (fam.nullable()) {
            cols.put("n", "Nullable(" + t + ")");
        }
        if (!modern && t.startsWith("Tuple")) {
            cols.put("t", "Tuple(" + t + ", UInt8)"); // 18.16 cannot store Array(Tuple)
            return cols;
        }
        cols.put("a", "Array(" + t + ")");
        if (fam.nullable()) {
            cols.put("an", "Array(Nullable(" + t + "))");
        }
        cols.put("t", modern ? "Tuple(x " + t + ", y UInt8)" : "Tuple(" + t + ", UInt8)");
        if (fam.lowCardinality()) {
            cols.put("lc", "LowCardinality(" + t + ")");
        }
        if (modern && !t.startsWith("Nested")) {
            cols.put("m", "Map(String, " + t + ")");
        }
        return cols;
    }

    /** The server-side expression of column {@code col} for the value {@code v}. */
    private static String expression(String col, String t, String v) {
        String cast = "CAST(" + v + " AS " + t + ")";
        return switch (col) {
            case "v" -> t.startsWith("AggregateFunction") ? v : cast;
            case "n" -> "CAST(" + v + " AS Nullable(" + t + "))";
            case "a" -> "[" + cast + "]";
            case "an" -> "[CAST(" + v + " AS Nullable(" + t + ")), NULL]";
            case "t" -> "tuple(" + cast + ", toUInt8(1))";
            case "lc" -> cast;
            case "m" -> "map('k', " + cast + ")";
            default -> throw new IllegalArgumentException(col);
        };
    }

    private static void check(Connection c, Family fam, int n, boolean modern, boolean readOnly, List<String> problems)
            throws SQLException {
        String t = fam.type();
        Map<String, String> cols = columnTypes(fam, modern);
        List<String> names = new ArrayList<>(cols.keySet());
        if (readOnly) {
            for (String v : fam.values()) {
                StringBuilder q = new StringBuilder("SELECT ");
                for (String col : names) {
                    q.append(expression(col, t, v)).append(" AS ").append(col).append(", toString(").append(col)
                            .append(") AS s_").append(col).append(", ");
                }
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(q.append("1").toString())) {
                    rs.next();
                    for (String col : names) {
                        compareText(problems, "read " + col + " " + v, rs.getString(col), rs.getString("s_" + col), t);
                    }
                }
            }
            return;
        }
        String src = JdbcTests.table("matrix_src" + n);
        String dst = JdbcTests.table("matrix_dst" + n);
        StringBuilder ddl = new StringBuilder("(k UInt32");
        cols.forEach((col, type) -> ddl.append(", ").append(col).append(' ').append(type));
        ddl.append(") ENGINE = ").append(modern ? "Memory" : "Log");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + src + " " + ddl);
            s.execute("CREATE TABLE " + dst + " " + ddl);
            try {
                for (int i = 0; i < fam.values().size(); i++) {
                    StringBuilder ins = new StringBuilder("INSERT INTO " + src + " SELECT toUInt32(" + i + ")");
                    for (String col : names) {
                        ins.append(", ").append(expression(col, t, fam.values().get(i)));
                    }
                    s.execute(ins.toString());
                }
                // the source values as the driver reads them, and as the server prints them
                List<Object[]> values = new ArrayList<>();
                List<String[]> texts = new ArrayList<>();
                int[] sqlTypes = new int[names.size()];
                try (ResultSet rs = s.executeQuery("SELECT " + selectList(names) + " FROM " + src + " ORDER BY k")) {
                    ResultSetMetaData md = rs.getMetaData();
                    for (int j = 0; j < names.size(); j++) {
                        sqlTypes[j] = md.getColumnType(j + 1);
                    }
                    while (rs.next()) {
                        Object[] row = new Object[names.size()];
                        String[] text = new String[names.size()];
                        for (int j = 0; j < names.size(); j++) {
                            row[j] = detach(rs.getObject(j + 1));
                            text[j] = rs.getString(names.size() + j + 1);
                            compareText(problems, "read " + names.get(j) + " " + fam.values().get(values.size()),
                                    rs.getString(j + 1), text[j], t);
                        }
                        values.add(row);
                        texts.add(text);
                    }
                }
                StringBuilder marks = new StringBuilder("?");
                names.forEach(x -> marks.append(", ?"));
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + dst + " (k, " + String.join(", ", names)
                        + ") VALUES (" + marks + ")")) {
                    for (int i = 0; i < values.size(); i++) {
                        for (int typed = 0; typed < 2; typed++) {
                            ps.setInt(1, 2 * i + typed);
                            for (int j = 0; j < names.size(); j++) {
                                bind(ps, j + 2, values.get(i)[j], typed == 1, sqlTypes[j]);
                            }
                            ps.addBatch();
                        }
                    }
                    ps.executeBatch();
                }
                try (ResultSet rs = s.executeQuery("SELECT " + selectList(names) + " FROM " + dst + " ORDER BY k")) {
                    int r = 0;
                    while (rs.next()) {
                        int i = r / 2;
                        String how = (r % 2 == 0 ? "setObject " : "typed setter ") + fam.values().get(i) + " ";
                        for (int j = 0; j < names.size(); j++) {
                            String col = names.get(j);
                            String serverText = rs.getString(names.size() + j + 1);
                            if (!Objects.equals(serverText, texts.get(i)[j])) {
                                problems.add(how + col + ": server has '" + serverText + "', source was '"
                                        + texts.get(i)[j] + "'");
                            }
                            compareText(problems, how + col, rs.getString(j + 1), serverText, t);
                            Object read = detach(rs.getObject(j + 1));
                            if (!Objects.deepEquals(read, values.get(i)[j])) {
                                problems.add(how + col + ": getObject " + show(read) + ", written "
                                        + show(values.get(i)[j]));
                            }
                        }
                        r++;
                    }
                    if (r != 2 * values.size()) {
                        problems.add("rows: " + r + " of " + 2 * values.size());
                    }
                }
            } finally {
                s.execute("DROP TABLE IF EXISTS " + src);
                s.execute("DROP TABLE IF EXISTS " + dst);
            }
        }
    }

    private static String selectList(List<String> names) {
        StringBuilder sb = new StringBuilder();
        for (String col : names) {
            sb.append(col).append(", ");
        }
        for (int j = 0; j < names.size(); j++) {
            sb.append(j == 0 ? "" : ", ").append("toString(").append(names.get(j)).append(")");
        }
        return sb.toString();
    }

    /**
     * getString of NULL is null; the server's toString of NULL is NULL too, except for Variant, Dynamic and
     * Geometry, whose toString is the String '' for NULL.
     */
    private static void compareText(List<String> problems, String what, String driver, String server, String type) {
        boolean nullPrintsEmpty = type.startsWith("Variant") || type.equals("Dynamic") || type.equals("Geometry");
        if (!Objects.equals(driver, server) && !(nullPrintsEmpty && driver == null && "".equals(server))) {
            problems.add(what + ": getString '" + driver + "', server '" + server + "'");
        }
    }

    /**
     * A JDBC value with its contents copied out so that it compares by value after the result closes:
     * java.sql.Array, arrays and Lists become Object[], Struct and Map a {@link Deep}.
     */
    static Object detach(Object v) throws SQLException {
        if (v instanceof Array a) {
            return detach(a.getArray());
        }
        if (v instanceof Struct st) {
            return new Deep(false, (Object[]) detach(st.getAttributes()));
        }
        if (v instanceof Object[] arr) {
            Object[] out = new Object[arr.length];
            for (int i = 0; i < arr.length; i++) {
                out[i] = detach(arr[i]);
            }
            return out;
        }
        if (v instanceof List<?> list) {
            return detach(list.toArray());
        }
        if (v instanceof Map<?, ?> map) {
            List<Object> pairs = new ArrayList<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                pairs.add(detach(e.getKey()));
                pairs.add(detach(e.getValue()));
            }
            return new Deep(true, pairs.toArray());
        }
        return v;
    }

    /** A tuple's attributes, or a map's keys and values in order ({@code map}), compared deeply. */
    record Deep(boolean map, Object[] items) {
        static Deep tuple(Object... attrs) {
            return new Deep(false, attrs);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Deep d && d.map == map && Arrays.deepEquals(items, d.items);
        }

        @Override
        public int hashCode() {
            return Arrays.deepHashCode(items);
        }

        @Override
        public String toString() {
            return (map ? "Map" : "Tuple") + Arrays.deepToString(items);
        }
    }

    /**
     * The bound form of a detached value: {@code typed} binds arrays as java.sql.Array and tuples as Object[]
     * and List; otherwise arrays as Object[] and tuples as java.sql.Struct; maps as LinkedHashMap.
     */
    private static Object attach(Connection c, Object v, boolean typed) throws SQLException {
        if (v instanceof Deep p && p.map()) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (int i = 0; i < p.items().length; i += 2) {
                out.put(attach(c, p.items()[i], typed), attach(c, p.items()[i + 1], typed));
            }
            return out;
        }
        if (v instanceof Deep t) {
            Object[] attrs = attachAll(c, t.items(), typed);
            return typed ? Arrays.asList(attrs) : c.createStruct("Tuple", attrs);
        }
        if (v instanceof Object[] arr) {
            Object[] out = attachAll(c, arr, typed);
            return typed ? c.createArrayOf("String", out) : out;
        }
        return v;
    }

    private static Object[] attachAll(Connection c, Object[] arr, boolean typed) throws SQLException {
        Object[] out = new Object[arr.length];
        for (int i = 0; i < arr.length; i++) {
            out[i] = attach(c, arr[i], typed);
        }
        return out;
    }

    static String show(Object v) {
        if (v == null) {
            return "null";
        }
        String text = v instanceof Object[] arr ? Arrays.deepToString(arr)
                : v instanceof byte[] b ? Arrays.toString(b)
                : v instanceof double[] d ? Arrays.toString(d) : String.valueOf(v);
        return text + " (" + v.getClass().getSimpleName() + ")";
    }

    /** Binds {@code v} with setObject, or with the typed setter of its class when {@code typed}. */
    private static void bind(PreparedStatement ps, int i, Object detached, boolean typed, int sqlType)
            throws SQLException {
        if (detached instanceof Deep t && !t.map() && typed) {
            ps.setObject(i, attachAll(ps.getConnection(), t.items(), true)); // the top-level tuple as Object[]
            return;
        }
        Object v = attach(ps.getConnection(), detached, typed);
        if (v == null) {
            ps.setNull(i, typed ? sqlType : Types.NULL);
        } else if (!typed) {
            ps.setObject(i, v);
        } else if (v instanceof Byte x) {
            ps.setByte(i, x);
        } else if (v instanceof Short x) {
            ps.setShort(i, x);
        } else if (v instanceof Integer x) {
            ps.setInt(i, x);
        } else if (v instanceof Long x) {
            ps.setLong(i, x);
        } else if (v instanceof Float x) {
            ps.setFloat(i, x);
        } else if (v instanceof Double x) {
            ps.setDouble(i, x);
        } else if (v instanceof Boolean x) {
            ps.setBoolean(i, x);
        } else if (v instanceof BigDecimal x) {
            ps.setBigDecimal(i, x);
        } else if (v instanceof String x) {
            ps.setString(i, x);
        } else if (v instanceof byte[] x) {
            ps.setBytes(i, x);
        } else if (v instanceof Date x) {
            ps.setDate(i, x);
        } else if (v instanceof Timestamp x) {
            ps.setTimestamp(i, x);
        } else if (v instanceof Time x) {
            ps.setTime(i, x);
        } else if (v instanceof Array x) {
            ps.setArray(i, x);
        } else if (v instanceof BigInteger) {
            ps.setObject(i, v, Types.NUMERIC);
        } else {
            ps.setObject(i, v, sqlType);
        }
    }
}
