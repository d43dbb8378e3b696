package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DatabaseMetaData corners on both servers: LIKE patterns with {@code _} and {@code \_}, names with a back-tick or
 * a dot, DEFAULT/MATERIALIZED/ALIAS expressions, primary keys of column names and of expressions, Nullable inside
 * LowCardinality, and the driver-built result sets behaving like the driver's others (getters, wasNull,
 * case-insensitive labels, metadata, close). Each expected value is what {@code system.*} says.
 */
@ClickHouseTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetadataEdgeCaseTest {
    private final String db = JdbcTests.table("dbedge");

    @BeforeAll
    void setUp() throws SQLException {
        for (String kind : List.of("modern", "legacy")) {
            try (Connection c = JdbcTests.connect(kind); Statement s = c.createStatement()) {
                String d = db + kind;
                s.execute("CREATE DATABASE " + d);
                s.execute("CREATE TABLE " + d + ".pat (a_b UInt8, axb UInt8, `a\\\\b` UInt8, abb UInt8) ENGINE = Memory");
                s.execute("CREATE TABLE " + d + ".`we``ird.t` (`c.1` UInt32, `back``tick` String, x Int8) "
                        + "ENGINE = MergeTree ORDER BY (`c.1`, `back``tick`)");
                s.execute("CREATE TABLE " + d + ".exprkey (ts DateTime, id UInt32, z String) ENGINE = MergeTree "
                        + "ORDER BY (toDate(ts), id)");
                s.execute("CREATE TABLE " + d + ".defaults (x Int64, d Int64 DEFAULT x + 1, m Int64 MATERIALIZED x * 2, "
                        + "a Int64 ALIAS x - 1) ENGINE = Memory");
                if (kind.equals("modern")) {
                    s.execute("CREATE TABLE " + d + ".lc (lcn LowCardinality(Nullable(String)), lc LowCardinality(String), "
                            + "n Nullable(Int32)) ENGINE = Memory");
                }
            }
        }
    }

    @AfterAll
    void tearDown() throws SQLException {
        for (String kind : List.of("modern", "legacy")) {
            try (Connection c = JdbcTests.connect(kind); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + db + kind);
            }
        }
    }

    private static List<String> column(ResultSet rs, String label) throws SQLException {
        try (rs) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(label));
            }
            return out;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void underscoreIsAWildcardUnlessEscaped(String kind) throws SQLException {
        try (Connection c = JdbcTests.connect(kind)) {
            DatabaseMetaData md = c.getMetaData();
            String d = db + kind;
            assertThat(column(md.getColumns(null, d, "pat", "a_b"), "COLUMN_NAME"))
                    .containsExactly("a_b", "axb", "a\\b", "abb");
            assertThat(column(md.getColumns(null, d, "pat", "a\\_b"), "COLUMN_NAME")).containsExactly("a_b");
            assertThat(column(md.getColumns(null, d, "pat", "a\\\\b"), "COLUMN_NAME")).containsExactly("a\\b");
            assertThat(column(md.getColumns(null, d, "pat", "a\\_b"), "ORDINAL_POSITION")).containsExactly("1");
            assertThat(column(md.getColumns(null, d, "pat", "ab_"), "ORDINAL_POSITION")).containsExactly("4");
            assertThat(column(md.getColumns(null, d, "p\\_t", null), "COLUMN_NAME")).isEmpty();
            assertThat(column(md.getColumns(null, d, "p_t", null), "COLUMN_NAME")).hasSize(4);
            assertThat(column(md.getTables(null, d.replace("_", "\\_"), "p_t", null), "TABLE_NAME"))
                    .containsExactly("pat");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void namesWithABackTickOrADot(String kind) throws SQLException {
        try (Connection c = JdbcTests.connect(kind)) {
            DatabaseMetaData md = c.getMetaData();
            String d = db + kind;
            assertThat(column(md.getTables(null, d, "we`ird.t", null), "TABLE_NAME")).containsExactly("we`ird.t");
            assertThat(column(md.getTables(null, d, "we`ird_t", null), "TABLE_NAME")).containsExactly("we`ird.t");
            assertThat(column(md.getColumns(null, d, "we`ird.t", null), "COLUMN_NAME"))
                    .containsExactly("c.1", "back`tick", "x");
            try (ResultSet rs = md.getPrimaryKeys(null, d, "we`ird.t")) {
                List<String> keys = new ArrayList<>();
                while (rs.next()) {
                    keys.add(rs.getString("COLUMN_NAME") + " " + rs.getShort("KEY_SEQ"));
                }
                // ordered by COLUMN_NAME; KEY_SEQ is the place in ORDER BY
                assertThat(keys).containsExactly("back`tick 2", "c.1 1");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void keyExpressionsNameTheirColumnsAfterThePlainOnes(String kind) throws SQLException {
        try (Connection c = JdbcTests.connect(kind)) {
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getPrimaryKeys(null, db + kind, "exprkey")) {
                List<String> keys = new ArrayList<>();
                while (rs.next()) {
                    keys.add(rs.getString("COLUMN_NAME") + " " + rs.getObject("KEY_SEQ"));
                }
                assertThat(keys).containsExactly("id 1", "ts 2");
            }
            // several tables at once, one with an expression key, one with plain names
            try (ResultSet rs = md.getPrimaryKeys(null, db + kind, null)) {
                List<String> keys = new ArrayList<>();
                while (rs.next()) {
                    keys.add(rs.getString("TABLE_NAME") + "." + rs.getString("COLUMN_NAME") + " " + rs.getShort(5));
                }
                assertThat(keys).containsExactly("we`ird.t.back`tick 2", "we`ird.t.c.1 1", "exprkey.id 1",
                        "exprkey.ts 2");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void defaultMaterializedAndAliasExpressions(String kind) throws SQLException {
        try (Connection c = JdbcTests.connect(kind); Statement s = c.createStatement()) {
            List<String> want = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT default_expression FROM system.columns WHERE database = '"
                    + db + kind + "' AND table = 'defaults'")) {
                while (rs.next()) {
                    want.add(rs.getString(1).isEmpty() ? null : rs.getString(1));
                }
            }
            assertThat(want).hasSize(4);
            assertThat(want.get(0)).isNull();
            assertThat(want.subList(1, 4)).doesNotContainNull();
            DatabaseMetaData md = c.getMetaData();
            assertThat(column(md.getColumns(null, db + kind, "defaults", null), "COLUMN_DEF"))
                    .containsExactlyElementsOf(want);
            assertThat(column(md.getColumns(null, db + kind, "defaults", null), "IS_GENERATEDCOLUMN"))
                    .containsExactly("NO", "NO", "YES", "YES");
        }
    }

    @Test
    void nullableInsideLowCardinality() throws SQLException {
        try (Connection c = JdbcTests.connect("modern")) {
            try (ResultSet rs = c.getMetaData().getColumns(null, db + "modern", "lc", null)) {
                List<String> facts = new ArrayList<>();
                while (rs.next()) {
                    facts.add(rs.getString("TYPE_NAME") + " " + rs.getInt("DATA_TYPE") + " " + rs.getInt("NULLABLE")
                            + " " + rs.getString("IS_NULLABLE"));
                }
                assertThat(facts).containsExactly(
                        "LowCardinality(Nullable(String)) " + Types.VARCHAR + " " + DatabaseMetaData.columnNullable
                                + " YES",
                        "LowCardinality(String) " + Types.VARCHAR + " " + DatabaseMetaData.columnNoNulls + " NO",
                        "Nullable(Int32) " + Types.INTEGER + " " + DatabaseMetaData.columnNullable + " YES");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"schema", "catalog"})
    void builtResultSetsBehaveLikeTheDriversOthers(String term) throws SQLException {
        Properties p = new Properties();
        p.setProperty("databaseTerm", term);
        try (Connection c = JdbcTests.connect("modern", p)) {
            DatabaseMetaData md = c.getMetaData();
            boolean catalog = term.equals("catalog");
            ResultSet rs = catalog ? md.getColumns(db + "modern", null, "defaults", "d")
                    : md.getColumns(null, db + "modern", "defaults", "d");
            Statement st = rs.getStatement();
            assertThat(rs.unwrap(ResultSet.class)).isSameAs(rs);
            ResultSetMetaData meta = rs.getMetaData();
            assertThat(meta.getColumnCount()).isEqualTo(24);
            assertThat(meta.getColumnLabel(1)).isEqualTo("TABLE_CAT");
            assertThat(meta.getColumnLabel(24)).isEqualTo("IS_GENERATEDCOLUMN");
            assertThat(meta.getColumnClassName(5)).isEqualTo(Integer.class.getName());
            assertThat(rs.findColumn("column_name")).isEqualTo(4);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(catalog ? "TABLE_SCHEM" : "TABLE_CAT")).isNull();
            assertThat(rs.wasNull()).isTrue();
            assertThat(rs.getString(catalog ? "table_cat" : "table_schem")).isEqualTo(db + "modern");
            assertThat(rs.wasNull()).isFalse();
            assertThat(rs.getInt("BUFFER_LENGTH")).isZero();
            assertThat(rs.wasNull()).isTrue();
            assertThat(rs.getObject("DATA_TYPE", Long.class)).isEqualTo((long) Types.BIGINT);
            assertThat(rs.getBigDecimal("ORDINAL_POSITION")).isEqualTo(BigDecimal.valueOf(2));
            assertThat(rs.getString("DATA_TYPE")).isEqualTo(String.valueOf(Types.BIGINT));
            assertThat(rs.getObject("NULLABLE")).isEqualTo(DatabaseMetaData.columnNoNulls);
            assertThat(rs.next()).isFalse();
            assertThatThrownBy(() -> rs.getString(1)).isInstanceOf(SQLException.class);
            rs.close();
            assertThat(rs.isClosed()).isTrue();
            assertThat(st.isClosed()).isTrue();
            assertThatThrownBy(rs::next).isInstanceOf(SQLException.class);
        }
    }
}
