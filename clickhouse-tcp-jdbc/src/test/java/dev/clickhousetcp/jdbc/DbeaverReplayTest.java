package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.TypeFamilies;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DBeaver's introspection (its ClickHouse provider's calls, in its order) replayed over a database of 200 tables
 * whose columns cover every type family of {@link TypeFamilies#all()} that a table can hold, each also
 * inside the wrappers ClickHouse allows: no exception, {@code TYPE_NAME} the {@code system.columns.type} string
 * verbatim, {@code ORDINAL_POSITION} from 1 in each table, {@code COLUMN_DEF} and {@code REMARKS} filled.
 * Prints the replay's wall time and the server queries of each step (counted in {@code system.query_log} by
 * a {@code log_comment} per step); no time is asserted.
 */
@ClickHouseTest
class DbeaverReplayTest {
    private static final int TABLES = 200;

    @Test
    void replayOver200TablesOfEveryFamily() throws SQLException {
        String db = JdbcTests.table("dbeaver");
        Map<String, TypeFamilies.Family> families = TypeFamilies.all();
        List<String> storable = new ArrayList<>(families.keySet());
        storable.remove("Nothing"); // Array(Nothing) cannot be a column of a table
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("SET flatten_nested = 0");
            s.execute("SET allow_suspicious_low_cardinality_types = 1");
            s.execute("CREATE DATABASE " + db);
            try {
                for (int i = 0; i < TABLES; i++) {
                    TypeFamilies.Family f = families.get(storable.get(i % storable.size()));
                    StringBuilder ddl = new StringBuilder("CREATE TABLE " + db + ".t" + i
                            + " (id UInt32 DEFAULT 7 COMMENT 'key of t" + i + "'");
                    TypeMatrixTest.columnTypes(f, true).forEach((name, type) -> ddl.append(", ").append(name)
                            .append(' ').append(type).append(" COMMENT '").append(name).append(" column'"));
                    ddl.append(i % 4 == 0 ? ") ENGINE = MergeTree ORDER BY id" : ") ENGINE = Memory")
                            .append(" COMMENT 'table ").append(i).append('\'');
                    s.execute(ddl.toString());
                }
                Map<String, List<String[]>> expected = serverColumns(c, db);
                // each step runs under its own log_comment (set outside the timed part) to count its queries
                Map<String, Long> nanos = new LinkedHashMap<>();
                String tag = JdbcTests.table("replay");
                replay(c, db, tag, nanos, expected);
                long wall = nanos.values().stream().mapToLong(Long::longValue).sum();
                Map<String, Long> queries = queriesPerStep(c, tag);
                StringBuilder report = new StringBuilder("dbeaver replay over " + TABLES + " tables: "
                        + wall / 1_000_000 + " ms, " + queries.values().stream().mapToLong(Long::longValue).sum()
                        + " server queries;");
                nanos.forEach((step, ns) -> report.append(' ').append(step).append(' ').append(ns / 1_000_000)
                        .append(" ms/").append(queries.getOrDefault(step, 0L)).append(" q,"));
                System.out.println(report);
                // round trips: one short query per metadata call; the empty results (no foreign keys) need none
                assertThat(queries.getOrDefault("getImportedKeys", 0L)).isZero();
                assertThat(queries.get("getColumns")).isEqualTo(TABLES);
                assertThat(queries.get("getPrimaryKeys")).isEqualTo(TABLES);
                assertThat(queries.get("getIndexInfo")).isEqualTo(TABLES);
                assertThat(queries.get("getTypeInfo")).isEqualTo(1);
            } finally {
                s.execute("DROP DATABASE IF EXISTS " + db);
            }
        }
    }

    /** The replay: each step runs under the {@code log_comment} "tag step", its time added to {@code nanos}. */
    private static void replay(Connection c, String db, String tag, Map<String, Long> nanos,
                               Map<String, List<String[]>> expected) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        try (Statement s = c.createStatement()) {
            step(c, tag, "version", nanos, () -> drain(s.executeQuery("SELECT VERSION()")));
            step(c, tag, "show databases", nanos, () -> assertThat(strings(s.executeQuery("SHOW DATABASES")))
                    .contains(db));
            step(c, tag, "table engines", nanos, () -> drain(s.executeQuery("SELECT name FROM system.table_engines")));
        }
        step(c, tag, "system.tables", nanos, () -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT name as TABLE_NAME, engine as TABLE_TYPE, "
                    + "database as TABLE_SCHEM, comment as REMARKS, * FROM system.tables WHERE database = ?")) {
                ps.setString(1, db);
                assertThat(drain(ps.executeQuery())).isEqualTo(TABLES);
            }
        });
        List<String> tables = new ArrayList<>();
        step(c, tag, "getTables", nanos, () -> {
            try (ResultSet rs = md.getTables(null, db, "%", null)) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                    assertThat(rs.getString("REMARKS")).startsWith("table ");
                }
            }
        });
        assertThat(tables).hasSize(TABLES);
        for (String table : tables) {
            step(c, tag, "getColumns", nanos, () -> {
                List<String[]> want = expected.get(table);
                int n = 0;
                try (ResultSet rs = md.getColumns(null, db, table, null)) {
                    while (rs.next()) {
                        String[] col = want.get(n++);
                        assertThat(rs.getString("COLUMN_NAME")).isEqualTo(col[0]);
                        assertThat(rs.getString("TYPE_NAME")).as(table + "." + col[0]).isEqualTo(col[1]);
                        assertThat(rs.getInt("ORDINAL_POSITION")).isEqualTo(n);
                        assertThat(rs.getString("COLUMN_DEF")).isEqualTo(col[2].isEmpty() ? null : col[2]);
                        assertThat(rs.getString("REMARKS")).isEqualTo(col[3]).isNotEmpty();
                    }
                }
                assertThat(n).isEqualTo(want.size());
            });
            step(c, tag, "getPrimaryKeys", nanos, () -> drain(md.getPrimaryKeys(null, db, table)));
            step(c, tag, "getIndexInfo", nanos, () -> drain(md.getIndexInfo(null, db, table, false, true)));
            step(c, tag, "getImportedKeys", nanos, () -> drain(md.getImportedKeys(null, db, table)));
            step(c, tag, "show create table", nanos, () -> {
                try (Statement s = c.createStatement()) {
                    assertThat(strings(s.executeQuery("SHOW CREATE TABLE " + db + "." + table)).get(0))
                            .contains("COMMENT");
                }
            });
        }
        step(c, tag, "getTypeInfo", nanos, () -> assertThat(drain(md.getTypeInfo())).isPositive());
        try (Statement s = c.createStatement()) {
            s.execute("SET log_comment = ''");
        }
    }

    private interface Step {
        void run() throws SQLException;
    }

    private static void step(Connection c, String tag, String name, Map<String, Long> nanos, Step step)
            throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET log_comment = '" + tag + " " + name + "'");
        }
        long t0 = System.nanoTime();
        step.run();
        nanos.merge(name, System.nanoTime() - t0, Long::sum);
    }

    /** The queries the server logged for each step of the replay. */
    private static Map<String, Long> queriesPerStep(Connection c, String tag) throws SQLException {
        Map<String, Long> out = new HashMap<>();
        try (Statement s = c.createStatement()) {
            s.execute("SYSTEM FLUSH LOGS");
            try (ResultSet rs = s.executeQuery("SELECT substring(log_comment, " + (tag.length() + 2) + "), count() "
                    + "FROM system.query_log WHERE type = 'QueryStart' AND startsWith(log_comment, '" + tag + " ') "
                    + "AND query NOT LIKE 'SET log_comment%' GROUP BY log_comment")) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return out;
    }

    /** Table name to its columns' name, type, default expression and comment, from {@code system.columns}. */
    private static Map<String, List<String[]>> serverColumns(Connection c, String db) throws SQLException {
        Map<String, List<String[]>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT table, name, type, default_expression, comment "
                + "FROM system.columns WHERE database = ? ORDER BY table, position")) {
            ps.setString(1, db);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(new String[] {rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)});
                }
            }
        }
        return out;
    }

    private static int drain(ResultSet rs) throws SQLException {
        try (rs) {
            int n = 0;
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    rs.getObject(i);
                }
                n++;
            }
            return n;
        }
    }

    private static List<String> strings(ResultSet rs) throws SQLException {
        try (rs) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }
}
