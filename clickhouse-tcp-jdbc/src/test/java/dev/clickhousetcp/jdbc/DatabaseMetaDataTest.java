package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DatabaseMetaData result sets from {@code system.*} on both servers: DBeaver's introspection replayed over a
 * database of many type families, the JDBC-documented columns and value classes of every method, both
 * {@code databaseTerm} modes, LIKE patterns with escapes.
 */
@ClickHouseTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseMetaDataTest {
    private final String db = JdbcTests.table("dbmeta");

    /** Table name to its column definitions, per server kind. */
    private static Map<String, String> tableDefinitions(String kind) {
        Map<String, String> t = new LinkedHashMap<>();
        t.put("numbers", "(id UInt64 COMMENT 'the key', i8 Int8, i16 Int16, i32 Int32, i64 Int64, u8 UInt8, u16 UInt16, "
                + "u32 UInt32, f32 Float32, f64 Float64, d Decimal(18, 4), d32 Decimal32(2), "
                + "def Int32 DEFAULT 42, mat Int64 MATERIALIZED i64 * 2, al Int64 ALIAS i64 + 1) "
                + "ENGINE = MergeTree ORDER BY (u8, id)");
        t.put("strings", "(k String, fs FixedString(16), n Nullable(String), e8 Enum8('a' = 1, 'b' = 2), "
                + "e16 Enum16('x' = 1000), u UUID) ENGINE = MergeTree ORDER BY k");
        t.put("times", "(dt DateTime, dtz DateTime('UTC'), d Date, x UInt32) ENGINE = MergeTree PARTITION BY d "
                + "ORDER BY (dt, x)");
        t.put("nested", "(a Array(Array(String)), tup Tuple(UInt8, String), agg AggregateFunction(uniq, UInt64), "
                + "n Nested(x UInt32, y String)) ENGINE = Memory");
        t.put("a_b", "(x UInt8) ENGINE = Memory");
        t.put("axb", "(x UInt8) ENGINE = Memory");
        t.put("it's", "(`col'q` UInt8) ENGINE = Memory");
        if (kind.equals("modern")) {
            t.put("modern", "(m Map(String, Array(Tuple(a UInt8, b String))), lc LowCardinality(Nullable(String)), "
                    + "lcs LowCardinality(String), dt64 DateTime64(3, 'UTC'), v Variant(UInt64, String), "
                    + "j JSON, b Bool, d256 Decimal(76, 20), i128 Int128, u256 UInt256, d32 Date32, ip4 IPv4, "
                    + "ip6 IPv6, p Point, t Time, bf BFloat16, dyn Dynamic, "
                    + "INDEX ix_b lc TYPE bloom_filter GRANULARITY 1) ENGINE = MergeTree ORDER BY tuple() "
                    + "COMMENT 'a modern table'");
            for (int i = 0; i < 40; i++) {
                t.put("many_" + i, "(id UInt32, v Nullable(Decimal(10, 2)), s LowCardinality(String), "
                        + "ts DateTime64(6, 'Europe/Berlin')) ENGINE = MergeTree ORDER BY id");
            }
        } else {
            for (int i = 0; i < 10; i++) {
                t.put("many_" + i, "(id UInt32, v Nullable(Decimal(10, 2)), s String) ENGINE = MergeTree "
                        + "ORDER BY id");
            }
        }
        return t;
    }

    private void create(String kind) throws SQLException {
        try (Connection c = JdbcTests.connect(kind); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS " + db + kind);
            if (kind.equals("modern")) {
                s.execute("SET allow_experimental_variant_type = 1");
                s.execute("SET allow_experimental_json_type = 1");
                s.execute("SET allow_experimental_dynamic_type = 1");
                s.execute("SET allow_suspicious_low_cardinality_types = 1");
            }
            for (Map.Entry<String, String> e : tableDefinitions(kind).entrySet()) {
                s.execute("CREATE TABLE " + db + kind + ".`" + e.getKey().replace("'", "\\'") + "` "
                        + e.getValue());
            }
        }
    }

    @BeforeAll
    void setUp() throws SQLException {
        create("modern");
        create("legacy");
    }

    @AfterAll
    void tearDown() throws SQLException {
        for (String kind : List.of("modern", "legacy")) {
            try (Connection c = JdbcTests.connect(kind); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + db + kind);
            }
        }
    }

    private static List<String> labels(ResultSet rs) throws SQLException {
        ResultSetMetaData m = rs.getMetaData();
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= m.getColumnCount(); i++) {
            out.add(m.getColumnLabel(i));
        }
        return out;
    }

    private static List<Map<String, Object>> rows(ResultSet rs) throws SQLException {
        try (rs) {
            List<String> names = labels(rs);
            List<Map<String, Object>> out = new ArrayList<>();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 0; i < names.size(); i++) {
                    row.put(names.get(i), rs.getObject(i + 1));
                }
                out.add(row);
            }
            return out;
        }
    }

    /** {@code system.columns.type} of each column of a table, in order (the server's own answer). */
    private static List<String[]> serverColumns(Connection c, String database, String table) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT name, type, default_expression FROM system.columns WHERE database = ? AND table = ?")) {
            ps.setString(1, database);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new String[]{rs.getString(1), rs.getString(2), rs.getString(3)});
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void dbeaverIntrospectionReplay(String kind) throws SQLException {
        String database = db + kind;
        try (Connection c = JdbcTests.connect(kind)) {
            DatabaseMetaData md = c.getMetaData();
            try (Statement s = c.createStatement()) {
                // DBeaver's VERSION() is case-insensitive from 19.x on
                rows(s.executeQuery(kind.equals("modern") ? "SELECT VERSION()" : "SELECT version()"));
                assertThat(rows(s.executeQuery("SHOW DATABASES"))).extracting(r -> r.values().iterator().next())
                        .contains(database);
                rows(s.executeQuery("SELECT name FROM system.table_engines"));
            }
            if (kind.equals("modern")) {
                try (PreparedStatement ps = c.prepareStatement("SELECT name as TABLE_NAME, engine as TABLE_TYPE, "
                        + "database as TABLE_SCHEM, comment as REMARKS, * FROM system.tables WHERE database = ?")) {
                    ps.setString(1, database);
                    assertThat(rows(ps.executeQuery())).hasSize(tableDefinitions(kind).size());
                }
            }
            List<Map<String, Object>> tableRows = rows(md.getTables(null, database, "%", null));
            assertThat(tableRows).extracting(r -> r.get("TABLE_NAME"))
                    .containsExactlyInAnyOrderElementsOf(tableDefinitions(kind).keySet());
            assertThat(tableRows).allSatisfy(r -> {
                assertThat(r.get("TABLE_SCHEM")).isEqualTo(database);
                assertThat(r.get("TABLE_CAT")).isNull();
                assertThat(r.get("TABLE_TYPE")).isEqualTo("TABLE");
            });
            if (kind.equals("modern")) {
                assertThat(tableRows).filteredOn(r -> r.get("TABLE_NAME").equals("modern"))
                        .extracting(r -> r.get("REMARKS")).containsExactly("a modern table");
            }
            for (Map<String, Object> t : tableRows) {
                String table = (String) t.get("TABLE_NAME");
                String esc = md.getSearchStringEscape();
                String tablePattern = table.replace(esc, esc + esc).replace("_", esc + "_").replace("%", esc + "%");
                List<Map<String, Object>> cols = rows(md.getColumns(null, database, tablePattern, null));
                List<String[]> expected = serverColumns(c, database, table);
                assertThat(cols).hasSize(expected.size());
                for (int i = 0; i < cols.size(); i++) {
                    Map<String, Object> col = cols.get(i);
                    assertThat(col.get("COLUMN_NAME")).isEqualTo(expected.get(i)[0]);
                    assertThat(col.get("TYPE_NAME")).isEqualTo(expected.get(i)[1]);
                    assertThat(col.get("ORDINAL_POSITION")).isEqualTo(i + 1);
                    assertThat(col.get("DATA_TYPE")).isEqualTo(JdbcTypes.sqlType(expected.get(i)[1]));
                    assertThat(col.get("COLUMN_DEF"))
                            .isEqualTo(expected.get(i)[2].isEmpty() ? null : expected.get(i)[2]);
                }
                rows(md.getPrimaryKeys(null, database, table));
                rows(md.getIndexInfo(null, database, table, false, true));
                rows(md.getImportedKeys(null, database, table));
                try (Statement s = c.createStatement()) {
                    rows(s.executeQuery("SHOW CREATE TABLE " + database + ".`" + table.replace("'", "\\'") + "`"));
                }
            }
            assertThat(rows(md.getTypeInfo())).isNotEmpty();
        }
    }

    private static Map<String, Map<String, Object>> columnsByName(DatabaseMetaData md, String database, String table)
            throws SQLException {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        for (Map<String, Object> r : rows(md.getColumns(null, database, table, null))) {
            out.put((String) r.get("COLUMN_NAME"), r);
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void columnFactsComeFromTheTypeString(String kind) throws SQLException {
        String database = db + kind;
        try (Connection c = JdbcTests.connect(kind)) {
            DatabaseMetaData md = c.getMetaData();
            Map<String, Map<String, Object>> byName = columnsByName(md, database, "numbers");
            assertThat(byName.get("id").get("REMARKS")).isEqualTo("the key");
            assertThat(byName.get("id").get("DATA_TYPE")).isEqualTo(Types.NUMERIC);
            assertThat(byName.get("d").get("DATA_TYPE")).isEqualTo(Types.DECIMAL);
            assertThat(byName.get("d").get("COLUMN_SIZE")).isEqualTo(18);
            assertThat(byName.get("d").get("DECIMAL_DIGITS")).isEqualTo(4);
            assertThat(byName.get("d32").get("COLUMN_SIZE")).isEqualTo(9);
            assertThat(byName.get("d32").get("DECIMAL_DIGITS")).isEqualTo(2);
            // the default expression as each server prints it
            assertThat(byName.get("def").get("COLUMN_DEF")).isEqualTo(kind.equals("modern") ? "42" : "CAST(42, 'Int32')");
            assertThat(byName.get("mat").get("IS_GENERATEDCOLUMN")).isEqualTo("YES");
            assertThat(byName.get("al").get("IS_GENERATEDCOLUMN")).isEqualTo("YES");
            assertThat(byName.get("def").get("IS_GENERATEDCOLUMN")).isEqualTo("NO");
            assertThat(byName.get("i32").get("NULLABLE")).isEqualTo(DatabaseMetaData.columnNoNulls);
            assertThat(byName.get("i32").get("IS_NULLABLE")).isEqualTo("NO");

            Map<String, Map<String, Object>> strings = columnsByName(md, database, "strings");
            assertThat(strings.get("n").get("NULLABLE")).isEqualTo(DatabaseMetaData.columnNullable);
            assertThat(strings.get("n").get("IS_NULLABLE")).isEqualTo("YES");
            assertThat(strings.get("fs").get("COLUMN_SIZE")).isEqualTo(16);
            assertThat(strings.get("fs").get("CHAR_OCTET_LENGTH")).isEqualTo(16);
            assertThat(strings.get("u").get("DATA_TYPE")).isEqualTo(Types.OTHER);

            List<Map<String, Object>> pk = rows(md.getPrimaryKeys(null, database, "numbers"));
            assertThat(pk).extracting(r -> r.get("COLUMN_NAME")).containsExactly("id", "u8");
            assertThat(pk).extracting(r -> r.get("KEY_SEQ")).containsExactly((short) 2, (short) 1);
            assertThat(rows(md.getPrimaryKeys(null, database, "times"))).extracting(r -> r.get("KEY_SEQ"))
                    .containsExactly((short) 1, (short) 2);
            assertThat(rows(md.getPrimaryKeys(null, database, "nested"))).isEmpty();
            // no database given: the same key, among those of other databases' tables of that name
            assertThat(rows(md.getPrimaryKeys(null, null, "times"))).filteredOn(r -> database.equals(r.get("TABLE_SCHEM")))
                    .extracting(r -> r.get("COLUMN_NAME") + " " + r.get("KEY_SEQ")).containsExactly("dt 1", "x 2");

            if (kind.equals("modern")) {
                Map<String, Map<String, Object>> modern = columnsByName(md, database, "modern");
                assertThat(modern.get("lc").get("TYPE_NAME")).isEqualTo("LowCardinality(Nullable(String))");
                assertThat(modern.get("lc").get("NULLABLE")).isEqualTo(DatabaseMetaData.columnNullable);
                assertThat(modern.get("lcs").get("NULLABLE")).isEqualTo(DatabaseMetaData.columnNoNulls);
                assertThat(modern.get("m").get("TYPE_NAME")).isEqualTo("Map(String, Array(Tuple(a UInt8, b String)))");
                assertThat(modern.get("dt64").get("DATA_TYPE")).isEqualTo(Types.TIMESTAMP);
                assertThat(modern.get("dt64").get("DECIMAL_DIGITS")).isEqualTo(3);
                assertThat(modern.get("d256").get("COLUMN_SIZE")).isEqualTo(76);
                assertThat(modern.get("d256").get("DECIMAL_DIGITS")).isEqualTo(20);
                assertThat(modern.get("b").get("DATA_TYPE")).isEqualTo(Types.BOOLEAN);
                List<Map<String, Object>> ix = rows(md.getIndexInfo(null, database, "modern", false, true));
                assertThat(ix).extracting(r -> r.get("INDEX_NAME")).containsExactly("ix_b");
                assertThat(ix.get(0).get("NON_UNIQUE")).isEqualTo(true);
                assertThat(ix.get(0).get("COLUMN_NAME")).isEqualTo("lc");
                assertThat(rows(md.getIndexInfo(null, database, "modern", true, true))).isEmpty();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void patternsAreEscapedAndHonoured(String kind) throws SQLException {
        String database = db + kind;
        try (Connection c = JdbcTests.connect(kind)) {
            DatabaseMetaData md = c.getMetaData();
            String esc = md.getSearchStringEscape();
            assertThat(rows(md.getTables(null, database, "a_b", null))).extracting(r -> r.get("TABLE_NAME"))
                    .containsExactly("a_b", "axb");
            assertThat(rows(md.getTables(null, database, "a" + esc + "_b", null))).extracting(r -> r.get("TABLE_NAME"))
                    .containsExactly("a_b");
            assertThat(rows(md.getTables(null, database, "it's", null))).extracting(r -> r.get("TABLE_NAME"))
                    .containsExactly("it's");
            assertThat(rows(md.getColumns(null, database, "it's", "col'%"))).extracting(r -> r.get("COLUMN_NAME"))
                    .containsExactly("col'q");
            assertThat(rows(md.getTables(null, database, "many%", new String[]{"VIEW"}))).isEmpty();
            assertThat(rows(md.getTables(null, database, "many%", new String[]{"TABLE"}))).isNotEmpty();
            assertThat(rows(md.getTables(null, "system", "one", null))).extracting(r -> r.get("TABLE_TYPE"))
                    .containsExactly("SYSTEM TABLE");
            assertThat(rows(md.getColumns(null, database, "numbers", "i__"))).extracting(r -> r.get("COLUMN_NAME"))
                    .containsExactly("i16", "i32", "i64");
            assertThat(rows(md.getColumns(null, database, "numbers", "i__")))
                    .extracting(r -> r.get("ORDINAL_POSITION")).containsExactly(3, 4, 5);
            assertThat(rows(md.getFunctions(null, null, "toInt3_"))).extracting(r -> r.get("FUNCTION_NAME"))
                    .containsExactly("toInt32");
            assertThat(rows(md.getColumns(null, database, "no_such_table", null))).isEmpty();
            assertThat(rows(md.getTables(null, database, "%", new String[0]))).isEmpty();
            // the whole server at once: every database's columns, system tables with their long Enum types included
            long ours = rows(md.getColumns(null, database, null, null)).size();
            List<Map<String, Object>> all = rows(md.getColumns(null, null, null, null));
            assertThat(all).filteredOn(r -> database.equals(r.get("TABLE_SCHEM"))).hasSize((int) ours);
            assertThat(all).filteredOn(r -> "system".equals(r.get("TABLE_SCHEM"))).isNotEmpty()
                    .allSatisfy(r -> assertThat(r.get("DATA_TYPE"))
                            .isEqualTo(JdbcTypes.sqlType((String) r.get("TYPE_NAME"))));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void bothDatabaseTermsAreConsistent(String kind) throws SQLException {
        String database = db + kind;
        try (Connection c = JdbcTests.connect(kind)) {
            DatabaseMetaData md = c.getMetaData();
            assertThat(md.getSchemaTerm()).isEqualTo("database");
            assertThat(rows(md.getCatalogs())).isEmpty();
            assertThat(rows(md.getSchemas())).extracting(r -> r.get("TABLE_SCHEM")).contains(database, "system");
            assertThat(rows(md.getSchemas(null, database))).extracting(r -> r.get("TABLE_SCHEM"))
                    .containsExactly(database);
            assertThat(rows(md.getTables(database, null, "numbers", null))).isEmpty();
            assertThat(rows(md.getColumns(null, database, "numbers", "id"))).extracting(r -> r.get("TABLE_SCHEM"))
                    .containsExactly(database);
            assertThat(md.supportsSchemasInDataManipulation()).isTrue();
            assertThat(md.supportsCatalogsInDataManipulation()).isFalse();
        }
        Properties p = new Properties();
        p.setProperty("databaseTerm", "catalog");
        try (Connection c = JdbcTests.connect(kind, p)) {
            DatabaseMetaData md = c.getMetaData();
            assertThat(md.getCatalogTerm()).isEqualTo("database");
            assertThat(rows(md.getSchemas())).isEmpty();
            assertThat(rows(md.getCatalogs())).extracting(r -> r.get("TABLE_CAT")).contains(database, "system");
            List<Map<String, Object>> t = rows(md.getTables(database, null, "numbers", null));
            assertThat(t).extracting(r -> r.get("TABLE_CAT")).containsExactly(database);
            assertThat(t).extracting(r -> r.get("TABLE_SCHEM")).containsOnlyNulls();
            assertThat(rows(md.getColumns(database, null, "numbers", "id"))).extracting(r -> r.get("TABLE_CAT"))
                    .containsExactly(database);
            // no catalog but the database as the schema argument (jOOQ's runtime meta calls getColumns so, as it
            // does for MySQL): read as the database; with a catalog as well, nothing is below a database
            assertThat(rows(md.getColumns(null, database, "numbers", "id"))).extracting(r -> r.get("TABLE_CAT"))
                    .containsExactly(database);
            assertThat(rows(md.getTables(null, database.substring(0, 3) + "%", "numbers", null)))
                    .extracting(r -> r.get("TABLE_CAT")).contains(database);
            assertThat(rows(md.getTables(database, database, "numbers", null))).isEmpty();
            assertThat(rows(md.getTables(null, database + "_no_such", "numbers", null))).isEmpty();
            assertThat(rows(md.getPrimaryKeys(database, null, "numbers"))).hasSize(2);
            assertThat(md.supportsCatalogsInDataManipulation()).isTrue();
            assertThat(md.supportsSchemasInDataManipulation()).isFalse();
            assertThat(md.isCatalogAtStart()).isTrue();
        }
    }

    /** Column name to the class JDBC's Javadoc gives its values (per java.sql.DatabaseMetaData). */
    private static Map<String, Class<?>> columns(Object... pairs) {
        Map<String, Class<?>> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], (Class<?>) pairs[i + 1]);
        }
        return m;
    }

    private static final Class<?> S = String.class;
    private static final Class<?> I = Integer.class;
    private static final Class<?> H = Short.class;
    private static final Class<?> L = Long.class;
    private static final Class<?> B = Boolean.class;

    private static void checkTyping(String method, ResultSet rs, Map<String, Class<?>> expected, boolean bools,
                                    boolean needRows) throws SQLException {
        try (rs) {
            assertThat(labels(rs)).as(method).containsExactlyElementsOf(expected.keySet());
            List<Class<?>> classes = new ArrayList<>(expected.values());
            int n = 0;
            while (rs.next()) {
                n++;
                for (int i = 0; i < classes.size(); i++) {
                    Object v = rs.getObject(i + 1);
                    Class<?> want = classes.get(i) == B && !bools ? Short.class : classes.get(i);
                    if (v != null) {
                        assertThat(v).as(method + " " + labels(rs).get(i)).isInstanceOf(want);
                    }
                    // the typed getters tools such as Liquibase (CachedRow) call by label
                    String label = labels(rs).get(i);
                    rs.getString(label);
                    if (classes.get(i) == I) {
                        rs.getInt(label);
                    } else if (classes.get(i) == H) {
                        rs.getShort(label);
                    } else if (classes.get(i) == B) {
                        rs.getBoolean(label);
                    } else if (classes.get(i) == L) {
                        rs.getLong(label);
                    }
                }
            }
            if (needRows) {
                assertThat(n).as(method + " rows").isPositive();
            }
        }
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"modern, schema", "modern, catalog", "legacy, schema",
        "legacy, catalog"})
    void everyResultSetHasTheDocumentedColumnsAndClasses(String kind, String term) throws SQLException {
        String database = db + kind;
        Properties p = new Properties();
        p.setProperty("databaseTerm", term);
        boolean catalogs = term.equals("catalog");
        String cat = catalogs ? database : null;
        String sch = catalogs ? null : database;
        try (Connection c = JdbcTests.connect(kind, p)) {
            DatabaseMetaData md = c.getMetaData();
            // identifiers: mixed case, case-sensitive, quoted or not (a_b and A_B would be two tables)
            assertThat(md.supportsMixedCaseIdentifiers()).isTrue();
            assertThat(md.supportsMixedCaseQuotedIdentifiers()).isTrue();
            assertThat(md.storesMixedCaseIdentifiers() || md.storesLowerCaseIdentifiers()
                    || md.storesUpperCaseIdentifiers() || md.storesMixedCaseQuotedIdentifiers()
                    || md.storesLowerCaseQuotedIdentifiers() || md.storesUpperCaseQuotedIdentifiers()).isFalse();
            try (ResultSet rs = md.getTables(cat, sch, "A_B", null)) {
                assertThat(rs.next()).as("A_B matches no table: only a_b exists").isFalse();
            }
            boolean bools = kind.equals("modern");
            checkTyping("getTables", md.getTables(cat, sch, null, null), columns("TABLE_CAT", S, "TABLE_SCHEM", S,
                    "TABLE_NAME", S, "TABLE_TYPE", S, "REMARKS", S, "TYPE_CAT", S, "TYPE_SCHEM", S, "TYPE_NAME", S,
                    "SELF_REFERENCING_COL_NAME", S, "REF_GENERATION", S), bools, true);
            checkTyping("getColumns", md.getColumns(cat, sch, null, null), columns("TABLE_CAT", S,
                    "TABLE_SCHEM", S, "TABLE_NAME", S, "COLUMN_NAME", S, "DATA_TYPE", I, "TYPE_NAME", S,
                    "COLUMN_SIZE", I, "BUFFER_LENGTH", I, "DECIMAL_DIGITS", I, "NUM_PREC_RADIX", I, "NULLABLE", I,
                    "REMARKS", S, "COLUMN_DEF", S, "SQL_DATA_TYPE", I, "SQL_DATETIME_SUB", I, "CHAR_OCTET_LENGTH", I,
                    "ORDINAL_POSITION", I, "IS_NULLABLE", S, "SCOPE_CATALOG", S, "SCOPE_SCHEMA", S, "SCOPE_TABLE", S,
                    "SOURCE_DATA_TYPE", H, "IS_AUTOINCREMENT", S, "IS_GENERATEDCOLUMN", S), bools, true);
            checkTyping("getSchemas", md.getSchemas(), columns("TABLE_SCHEM", S, "TABLE_CATALOG", S), bools, !catalogs);
            checkTyping("getSchemas(c, p)", md.getSchemas(null, "%"), columns("TABLE_SCHEM", S, "TABLE_CATALOG", S),
                    bools, !catalogs);
            checkTyping("getCatalogs", md.getCatalogs(), columns("TABLE_CAT", S), bools, catalogs);
            checkTyping("getTableTypes", md.getTableTypes(), columns("TABLE_TYPE", S), bools, true);
            checkTyping("getPrimaryKeys", md.getPrimaryKeys(cat, sch, "numbers"), columns("TABLE_CAT", S,
                    "TABLE_SCHEM", S, "TABLE_NAME", S, "COLUMN_NAME", S, "KEY_SEQ", H, "PK_NAME", S), bools, true);
            checkTyping("getIndexInfo", md.getIndexInfo(cat, sch, "modern", false, true), columns("TABLE_CAT",
                    S, "TABLE_SCHEM", S, "TABLE_NAME", S, "NON_UNIQUE", B, "INDEX_QUALIFIER", S, "INDEX_NAME", S,
                    "TYPE", H, "ORDINAL_POSITION", H, "COLUMN_NAME", S, "ASC_OR_DESC", S, "CARDINALITY", L,
                    "PAGES", L, "FILTER_CONDITION", S), bools, kind.equals("modern"));
            Map<String, Class<?>> keys = columns("PKTABLE_CAT", S, "PKTABLE_SCHEM", S, "PKTABLE_NAME", S,
                    "PKCOLUMN_NAME", S, "FKTABLE_CAT", S, "FKTABLE_SCHEM", S, "FKTABLE_NAME", S, "FKCOLUMN_NAME", S,
                    "KEY_SEQ", H, "UPDATE_RULE", H, "DELETE_RULE", H, "FK_NAME", S, "PK_NAME", S, "DEFERRABILITY", H);
            checkTyping("getImportedKeys", md.getImportedKeys(cat, sch, "numbers"), keys, bools, false);
            checkTyping("getExportedKeys", md.getExportedKeys(cat, sch, "numbers"), keys, bools, false);
            checkTyping("getCrossReference", md.getCrossReference(cat, sch, "numbers", null, database, "times"),
                    keys, bools, false);
            checkTyping("getTypeInfo", md.getTypeInfo(), columns("TYPE_NAME", S, "DATA_TYPE", I, "PRECISION", I,
                    "LITERAL_PREFIX", S, "LITERAL_SUFFIX", S, "CREATE_PARAMS", S, "NULLABLE", H, "CASE_SENSITIVE", B,
                    "SEARCHABLE", H, "UNSIGNED_ATTRIBUTE", B, "FIXED_PREC_SCALE", B, "AUTO_INCREMENT", B,
                    "LOCAL_TYPE_NAME", S, "MINIMUM_SCALE", H, "MAXIMUM_SCALE", H, "SQL_DATA_TYPE", I,
                    "SQL_DATETIME_SUB", I, "NUM_PREC_RADIX", I), bools, true);
            checkTyping("getFunctions", md.getFunctions(null, null, "to%"), columns("FUNCTION_CAT", S,
                    "FUNCTION_SCHEM", S, "FUNCTION_NAME", S, "REMARKS", S, "FUNCTION_TYPE", H, "SPECIFIC_NAME", S),
                    bools, true);
            checkTyping("getFunctionColumns", md.getFunctionColumns(null, null, "%", "%"), columns("FUNCTION_CAT", S,
                    "FUNCTION_SCHEM", S, "FUNCTION_NAME", S, "COLUMN_NAME", S, "COLUMN_TYPE", H, "DATA_TYPE", I,
                    "TYPE_NAME", S, "PRECISION", I, "LENGTH", I, "SCALE", H, "RADIX", H, "NULLABLE", H, "REMARKS", S,
                    "CHAR_OCTET_LENGTH", I, "ORDINAL_POSITION", I, "IS_NULLABLE", S, "SPECIFIC_NAME", S), bools, false);
            checkTyping("getProcedures", md.getProcedures(null, null, "%"), columns("PROCEDURE_CAT", S,
                    "PROCEDURE_SCHEM", S, "PROCEDURE_NAME", S, "RESERVED1", S, "RESERVED2", S, "RESERVED3", S,
                    "REMARKS", S, "PROCEDURE_TYPE", H, "SPECIFIC_NAME", S), bools, false);
            checkTyping("getProcedureColumns", md.getProcedureColumns(null, null, "%", "%"), columns(
                    "PROCEDURE_CAT", S, "PROCEDURE_SCHEM", S, "PROCEDURE_NAME", S, "COLUMN_NAME", S, "COLUMN_TYPE", H,
                    "DATA_TYPE", I, "TYPE_NAME", S, "PRECISION", I, "LENGTH", I, "SCALE", H, "RADIX", H,
                    "NULLABLE", H, "REMARKS", S, "COLUMN_DEF", S, "SQL_DATA_TYPE", I, "SQL_DATETIME_SUB", I,
                    "CHAR_OCTET_LENGTH", I, "ORDINAL_POSITION", I, "IS_NULLABLE", S, "SPECIFIC_NAME", S), bools, false);
            checkTyping("getUDTs", md.getUDTs(null, null, "%", null), columns("TYPE_CAT", S, "TYPE_SCHEM", S,
                    "TYPE_NAME", S, "CLASS_NAME", S, "DATA_TYPE", I, "REMARKS", S, "BASE_TYPE", H), bools, false);
            checkTyping("getSuperTypes", md.getSuperTypes(null, null, "%"), columns("TYPE_CAT", S, "TYPE_SCHEM", S,
                    "TYPE_NAME", S, "SUPERTYPE_CAT", S, "SUPERTYPE_SCHEM", S, "SUPERTYPE_NAME", S), bools, false);
            checkTyping("getSuperTables", md.getSuperTables(null, null, "%"), columns("TABLE_CAT", S,
                    "TABLE_SCHEM", S, "TABLE_NAME", S, "SUPERTABLE_NAME", S), bools, false);
            checkTyping("getAttributes", md.getAttributes(null, null, "%", "%"), columns("TYPE_CAT", S,
                    "TYPE_SCHEM", S, "TYPE_NAME", S, "ATTR_NAME", S, "DATA_TYPE", I, "ATTR_TYPE_NAME", S,
                    "ATTR_SIZE", I, "DECIMAL_DIGITS", I, "NUM_PREC_RADIX", I, "NULLABLE", I, "REMARKS", S,
                    "ATTR_DEF", S, "SQL_DATA_TYPE", I, "SQL_DATETIME_SUB", I, "CHAR_OCTET_LENGTH", I,
                    "ORDINAL_POSITION", I, "IS_NULLABLE", S, "SCOPE_CATALOG", S, "SCOPE_SCHEMA", S, "SCOPE_TABLE", S,
                    "SOURCE_DATA_TYPE", H), bools, false);
            Map<String, Class<?>> rowId = columns("SCOPE", H, "COLUMN_NAME", S, "DATA_TYPE", I, "TYPE_NAME", S,
                    "COLUMN_SIZE", I, "BUFFER_LENGTH", I, "DECIMAL_DIGITS", H, "PSEUDO_COLUMN", H);
            checkTyping("getBestRowIdentifier", md.getBestRowIdentifier(cat, sch, "numbers",
                    DatabaseMetaData.bestRowSession, true), rowId, bools, false);
            checkTyping("getVersionColumns", md.getVersionColumns(cat, sch, "numbers"), rowId, bools, false);
            checkTyping("getColumnPrivileges", md.getColumnPrivileges(cat, sch, "numbers", "%"), columns(
                    "TABLE_CAT", S, "TABLE_SCHEM", S, "TABLE_NAME", S, "COLUMN_NAME", S, "GRANTOR", S, "GRANTEE", S,
                    "PRIVILEGE", S, "IS_GRANTABLE", S), bools, false);
            checkTyping("getTablePrivileges", md.getTablePrivileges(cat, sch, "%"), columns("TABLE_CAT", S,
                    "TABLE_SCHEM", S, "TABLE_NAME", S, "GRANTOR", S, "GRANTEE", S, "PRIVILEGE", S, "IS_GRANTABLE", S),
                    bools, false);
            checkTyping("getPseudoColumns", md.getPseudoColumns(cat, sch, "%", "%"), columns("TABLE_CAT", S,
                    "TABLE_SCHEM", S, "TABLE_NAME", S, "COLUMN_NAME", S, "DATA_TYPE", I, "COLUMN_SIZE", I,
                    "DECIMAL_DIGITS", I, "NUM_PREC_RADIX", I, "COLUMN_USAGE", S, "REMARKS", S, "CHAR_OCTET_LENGTH", I,
                    "IS_NULLABLE", S), bools, false);
            checkTyping("getClientInfoProperties", md.getClientInfoProperties(), columns("NAME", S, "MAX_LEN", I,
                    "DEFAULT_VALUE", S, "DESCRIPTION", S), bools, false);
        }
    }

    @Test
    void typeInfoListsEveryFamilyOfTheServer() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            List<Object> families = new ArrayList<>();
            for (Map<String, Object> r : rows(s.executeQuery("SELECT name FROM system.data_type_families"))) {
                families.add(r.get("name"));
            }
            List<Map<String, Object>> info = rows(c.getMetaData().getTypeInfo());
            assertThat(info).extracting(r -> r.get("TYPE_NAME")).containsExactlyInAnyOrderElementsOf(families);
            for (Map<String, Object> r : info) {
                String name = (String) r.get("TYPE_NAME");
                if (name.equals("Int32") || name.equals("String") || name.equals("DateTime64")
                        || name.equals("Decimal")) {
                    assertThat(r.get("DATA_TYPE")).as(name).isEqualTo(JdbcTypes.sqlType(name));
                }
            }
            assertThat(info).filteredOn(r -> r.get("TYPE_NAME").equals("UInt8"))
                    .extracting(r -> r.get("UNSIGNED_ATTRIBUTE")).containsExactly(true);
        }
    }

    @Test
    void nullsSortAtTheEndInBothDirections() throws SQLException {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            DatabaseMetaData md = c.getMetaData();
            for (String dir : List.of("ASC", "DESC")) {
                List<Map<String, Object>> r = rows(s.executeQuery(
                        "SELECT x FROM (SELECT arrayJoin([1, NULL, 2]) AS x) ORDER BY x " + dir));
                assertThat(r.get(2).get("x")).isNull();
            }
            assertThat(md.nullsAreSortedAtEnd()).isTrue();
            assertThat(md.nullsAreSortedHigh() || md.nullsAreSortedLow() || md.nullsAreSortedAtStart()).isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void scalarAnswersFollowTheServer(String kind) throws SQLException {
        try (Connection c = JdbcTests.connect(kind); Statement s = c.createStatement()) {
            DatabaseMetaData md = c.getMetaData();
            boolean hasAtan2;
            try (ResultSet rs = s.executeQuery("SELECT count() FROM system.functions WHERE name = 'atan2'")) {
                rs.next();
                hasAtan2 = rs.getLong(1) > 0;
            }
            List<String> numeric = List.of(md.getNumericFunctions().split(","));
            assertThat(numeric).contains("ABS", "FLOOR", "ROUND");
            assertThat(numeric.contains("ATAN2")).isEqualTo(hasAtan2);
            assertThat(md.getStringFunctions().split(",")).contains("CONCAT", "SUBSTRING");
            assertThat(md.getTimeDateFunctions().split(",")).contains("NOW");
            assertThat(md.getSQLKeywords().split(",")).contains("PREWHERE", "FINAL", "SETTINGS");
            boolean modern = kind.equals("modern");
            for (String sql : List.of("SELECT 1 UNION DISTINCT SELECT 1", "SELECT EXISTS(SELECT 1)",
                    "SELECT 1 > ANY (SELECT 0)", "SELECT 'a' LIKE 'a' ESCAPE '\\\\'")) {
                boolean works;
                try (ResultSet rs = s.executeQuery(sql)) {
                    works = rs.next();
                } catch (SQLException e) {
                    works = false;
                }
                assertThat(works).as(sql).isEqualTo(modern);
            }
            assertThat(md.supportsUnion()).isEqualTo(modern);
            assertThat(md.supportsSubqueriesInExists()).isEqualTo(modern);
            assertThat(md.supportsSubqueriesInQuantifieds()).isEqualTo(modern);
            assertThat(md.supportsLikeEscapeClause()).isEqualTo(modern);
            assertThat(md.supportsUnionAll()).isTrue();
            assertThat(md.supportsFullOuterJoins()).isTrue();
            assertThat(md.supportsMixedCaseIdentifiers()).isTrue();
            assertThat(md.storesLowerCaseIdentifiers() || md.storesUpperCaseIdentifiers()).isFalse();
        }
    }

    /** Types whose strings together exceed the server's max_query_size (256 KiB) do not make the query too long. */
    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void longTypeStringsStayOutOfTheQuery(String kind) throws SQLException {
        String database = db + kind + "_enums";
        try (Connection c = JdbcTests.connect(kind); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + database);
            try {
                for (int t = 0; t < 12; t++) {
                    StringBuilder e = new StringBuilder("Enum16(");
                    for (int v = 0; v < 400; v++) {
                        e.append(v == 0 ? "" : ", ").append("'value_").append(t).append('_').append(v)
                                .append("_padding_padding_padding_padding_padding_padding' = ").append(v);
                    }
                    s.execute("CREATE TABLE " + database + ".e" + t + " (x " + e.append(')') + ") ENGINE = Memory");
                }
                List<Map<String, Object>> cols = rows(c.getMetaData().getColumns(null, database, null, null));
                assertThat(cols).hasSize(12).allSatisfy(r -> {
                    assertThat((String) r.get("TYPE_NAME")).startsWith("Enum16('value_");
                    assertThat(r.get("DATA_TYPE")).isEqualTo(Types.VARCHAR);
                });
            } finally {
                s.execute("DROP DATABASE " + database);
            }
        }
    }
}
