package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.testsupport.ClickHouseServer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Comparisons against the server's own answers, shared by the per-family type tests. */
final class ServerTypeChecks {
    private ServerTypeChecks() {
    }

    /**
     * For each expression: the column's {@code getString} must equal the server's {@code toString} of
     * the same value and the column's type name the server's {@code toTypeName}. Returns mismatches.
     */
    static List<String> printMismatches(ClickHouseTcpClient client, List<String> exprs) {
        List<String> failures = new ArrayList<>();
        for (String e : exprs) {
            try {
                List<String[]> got = client.query("SELECT " + e + " AS v, toString(v) AS s, toTypeName(v) AS t",
                        (row, n) -> new String[] {row.getString(0), row.getString(1), row.getString(2),
                            row.column(0).type().name()});
                String[] r = got.get(0);
                if (!Objects.equals(r[0], r[1])) {
                    failures.add(e + " [" + r[2] + "]: client '" + r[0] + "' vs server '" + r[1] + "'");
                }
                if (!r[2].equals(r[3])) {
                    failures.add(e + ": type " + r[3] + " vs toTypeName " + r[2]);
                }
            } catch (RuntimeException ex) {
                failures.add(e + ": " + ex);
            }
        }
        return failures;
    }

    /** Every row of {@code SELECT expr FROM numbers(rows)} prints like the server's toString. */
    static List<String> manyRowsMismatches(ClickHouseTcpClient client, List<String> exprs, int rows) {
        List<String> failures = new ArrayList<>();
        for (String e : exprs) {
            int checked = 0;
            try (QueryResult r = client.query("SELECT " + e + " AS v, toString(v) AS s FROM numbers(" + rows + ")"
                    + " SETTINGS max_block_size = 3000")) {
                for (Block b : r) {
                    Column v = b.column(0);
                    Column s = b.column(1);
                    for (int i = 0; i < b.rowCount(); i++) {
                        if (!Objects.equals(v.getString(i), s.getString(i))) {
                            failures.add(e + " row " + (checked + i) + ": client '" + v.getString(i) + "' vs server '"
                                    + s.getString(i) + "'");
                            break;
                        }
                    }
                    checked += b.rowCount();
                }
            } catch (RuntimeException ex) {
                failures.add(e + ": " + ex);
            }
            if (checked != rows && failures.isEmpty()) {
                failures.add(e + ": read " + checked + " rows");
            }
        }
        return failures;
    }

    /**
     * Insert round trip per type: values produced by the server are read through {@code getObject},
     * inserted into a second table through the client, and the server compares both tables' text.
     */
    static List<String> roundTripMismatches(ClickHouseTcpClient client, ClickHouseServer server,
                                            Map<String, List<String>> types) {
        List<String> failures = new ArrayList<>();
        int t = 0;
        for (Map.Entry<String, List<String>> e : types.entrySet()) {
            String src = TestClients.table("src" + t);
            String dst = TestClients.table("dst" + t++);
            try {
                client.execute("CREATE TABLE " + src + " (id UInt32, v " + e.getKey() + ") ENGINE = Memory");
                client.execute("CREATE TABLE " + dst + " (id UInt32, v " + e.getKey() + ") ENGINE = Memory");
                StringBuilder select = new StringBuilder();
                for (int i = 0; i < e.getValue().size(); i++) {
                    select.append(i == 0 ? "" : " UNION ALL ").append("SELECT toUInt32(").append(i).append("), CAST(")
                            .append(e.getValue().get(i)).append(" AS ").append(e.getKey()).append(')');
                }
                client.execute("INSERT INTO " + src + " " + select);
                List<Object[]> rows = client.queryRows("SELECT id, v FROM " + src + " ORDER BY id");
                client.insert(dst, List.of("id", "v"), rows);
                String q = "SELECT count(), arrayStringConcat(groupArray(ifNull(toString(v), 'NULL')), '|') "
                        + "FROM (SELECT v FROM %s ORDER BY id)";
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
        return failures;
    }
}
