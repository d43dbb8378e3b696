package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.client.ExternalTable;
import dev.clickhousetcp.client.InsertStream;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.data.TextFormat;
import dev.clickhousetcp.protocol.Progress;

import java.sql.BatchUpdateException;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * {@code INSERT INTO t [(columns)] VALUES (...)[, (...)]} whose VALUES groups hold placeholders inside expressions
 * ({@code (?, now(), ? + 1)}) or come several to a statement ({@code (?, ?), (?, ?)}), the shapes
 * {@link InsertShape} leaves out. The placeholders are numbered across the whole text, group after group.
 *
 * <p>Two ways to run it, both one INSERT for a whole batch, its values sent as native Data blocks:
 * <ul>
 *   <li>when every group has the same text and the server has the {@code input()} table function (protocol
 *       revision 54459 and later; ClickHouse 19.15 added it): {@code INSERT INTO t [(columns)] SELECT <the
 *       group's expressions> FROM input('_jdbc_p1 T1, ...') FORMAT Native}, one input row per group. A placeholder
 *       that is the whole expression takes the type of the column it feeds (asked once with
 *       {@code SELECT <columns> FROM t LIMIT 0}); one inside an expression takes the type of its Java values
 *       (as a query parameter would, {@code Nullable} when one is {@code null});</li>
 *   <li>otherwise (groups that differ, older servers such as 18.16, whose native protocol takes no inline
 *       {@code VALUES} data, values of several Java types for one placeholder): {@code INSERT INTO t [(columns)]
 *       SELECT <group 1> FROM _jdbc_data UNION ALL SELECT <group 2> FROM _jdbc_data ...}, the parameter rows sent
 *       as the external table {@code _jdbc_data}, typed the same way (a placeholder's first Java type when they
 *       differ). Every value is converted before the query is sent, so a refused one keeps the connection.</li>
 * </ul>
 * {@link java.sql.Statement#cancel()} does not reach these INSERTs; the query timeout does.
 * Not thread-safe (owned by one statement).
 */
final class ExpressionInsert {
    private static final String PARAMETER_PREFIX = "_jdbc_p";
    private static final String EXTERNAL_TABLE = "_jdbc_data";
    /** Rows converted between resets when checking values (bounds the memory the check takes). */
    private static final int CHECK_ROWS = 65_536;
    /** The types a {@code Nullable} cannot wrap. */
    private static final List<String> NOT_NULLABLE = List.of("Nullable(", "Array(", "Map(", "Tuple(",
            "LowCardinality(", "Variant(", "Dynamic", "JSON", "Object(", "Nested(", "Point", "Ring", "Polygon",
            "MultiPolygon", "LineString", "MultiLineString", "Geometry");

    /** The statement before {@code VALUES}: {@code INSERT INTO t [(columns)] [SETTINGS ...]}. */
    private final String head;
    /** The groups' expressions, each a text with its {@code ?} offsets. */
    private final List<List<Expression>> groups;
    /** Placeholders per group when every group has the same text, else -1. */
    private final int perGroup;
    /** The target columns' types from the server ({@code null} until asked; empty when it could not tell). */
    private List<String> columnTypes;

    private record Expression(String text, int[] placeholders) {
        boolean bare() {
            return placeholders.length == 1 && text.trim().equals("?");
        }
    }

    private ExpressionInsert(String head, List<List<Expression>> groups, int perGroup) {
        this.head = head;
        this.groups = groups;
        this.perGroup = perGroup;
    }

    /**
     * The shape of {@code sql}, or {@code null} when it is not an INSERT with a VALUES list holding {@code
     * placeholders} placeholders (then the statement runs as written, with query parameters or literals).
     */
    static ExpressionInsert of(String sql, int placeholders) {
        if (placeholders == 0 || !SqlLexer.firstWord(sql).equals("INSERT")) {
            return null;
        }
        int values = InsertShape.valuesKeyword(sql);
        if (values < 0) {
            return null;
        }
        String head = sql.substring(0, values);
        String upper = head.toUpperCase(Locale.ROOT);
        if (upper.contains(" SELECT ") || upper.contains(" FORMAT ")) {
            return null;
        }
        List<List<Expression>> groups = new ArrayList<>();
        int k = SqlLexer.codeStart(sql, values + 6);
        int count = 0;
        while (true) {
            if (k >= sql.length() || sql.charAt(k) != '(') {
                return null;
            }
            List<Expression> group = new ArrayList<>();
            k = group(sql, k + 1, group);
            if (k < 0 || group.isEmpty()) {
                return null;
            }
            for (Expression e : group) {
                count += e.placeholders().length;
            }
            groups.add(group);
            k = SqlLexer.codeStart(sql, k);
            if (k < sql.length() && sql.charAt(k) == ',') {
                k = SqlLexer.codeStart(sql, k + 1);
                continue;
            }
            break;
        }
        while (k < sql.length() && sql.charAt(k) == ';') {
            k = SqlLexer.codeStart(sql, k + 1);
        }
        if (k < sql.length() || count != placeholders) {
            return null;
        }
        return new ExpressionInsert(head, groups, sameText(groups) ? count / groups.size() : -1);
    }

    /** Reads the expressions of a group from {@code i} (after its '(') into {@code out}; the offset after ')'. */
    private static int group(String sql, int i, List<Expression> out) {
        int depth = 0;
        int start = i;
        List<Integer> marks = new ArrayList<>();
        while (i < sql.length()) {
            int j = SqlLexer.skip(sql, i);
            if (j != i) {
                i = j;
                continue;
            }
            char c = sql.charAt(i);
            if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
                depth--;
            } else if (c == '?') {
                marks.add(i - start);
            } else if (depth == 0 && (c == ',' || c == ')')) {
                String text = sql.substring(start, i);
                if (SqlLexer.codeStart(text, 0) >= text.length()) {
                    return -1; // an empty expression
                }
                out.add(new Expression(text, marks.stream().mapToInt(Integer::intValue).toArray()));
                marks.clear();
                start = i + 1;
                if (c == ')') {
                    return i + 1;
                }
            }
            i++;
        }
        return -1;
    }

    private static boolean sameText(List<List<Expression>> groups) {
        List<Expression> first = groups.get(0);
        for (List<Expression> g : groups) {
            if (g.size() != first.size()) {
                return false;
            }
            for (int e = 0; e < g.size(); e++) {
                if (!g.get(e).text().trim().equals(first.get(e).text().trim())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Rows each JDBC parameter row inserts. */
    int rowsPerParameterRow() {
        return groups.size();
    }

    /**
     * Inserts the rows (each the values of all placeholders) as one INSERT.
     *
     * @return per parameter row the rows it inserted (the number of VALUES groups), or
     *         {@link Statement#SUCCESS_NO_INFO} when the server wrote another number of rows than were sent
     * @throws BatchUpdateException when the server or a value refuses the insert; its counts say which parameter
     *                              rows were written before
     */
    long[] execute(ClickHousePreparedStatement st, List<Object[]> rows) throws SQLException {
        ClickHouseJdbcConnection conn = st.conn;
        long written;
        try {
            String[] types = perGroup >= 0 && conn.hello.revision() >= ClickHousePreparedStatement.PARAMETERS_REVISION
                    ? types(st, rows, true, true) : null;
            written = types != null ? insertThroughInput(st, rows, types)
                    : insertFromExternalTable(st, rows, types(st, rows, false, false));
        } catch (BatchUpdateException e) {
            throw e;
        } catch (SQLException e) {
            throw failure(e, rows.size(), 0);
        }
        long inserted = (long) rows.size() * groups.size();
        long[] counts = new long[rows.size()];
        Arrays.fill(counts, written == 0 || written == inserted ? groups.size() : Statement.SUCCESS_NO_INFO);
        return counts;
    }

    /**
     * The column types of the table the values travel in: per placeholder of one group ({@code perGroupRows}: a
     * row per group) or of the whole text (a row per parameter row). A placeholder that is a whole expression takes
     * the type of the column it feeds, another the type of its values; {@code null} when {@code strict} and a
     * placeholder's values have several types.
     */
    private String[] types(ClickHousePreparedStatement st, List<Object[]> rows, boolean perGroupRows, boolean strict)
            throws SQLException {
        List<String> out = new ArrayList<>();
        int p = 0;
        for (List<Expression> group : perGroupRows ? groups.subList(0, 1) : groups) {
            for (int e = 0; e < group.size(); e++) {
                Expression x = group.get(e);
                if (x.bare()) {
                    List<String> columns = columnTypes(st);
                    if (columns.size() == group.size()) {
                        out.add(columns.get(e));
                        p++;
                        continue;
                    }
                }
                for (int m = 0; m < x.placeholders().length; m++, p++) {
                    String t = valueType(st, rows, p, perGroupRows ? perGroup : 0, strict);
                    if (t == null) {
                        return null;
                    }
                    out.add(t);
                }
            }
        }
        return out.toArray(new String[0]);
    }

    /**
     * The one type of placeholder {@code p}'s values over all rows (and, with a {@code stride}, all groups), or
     * {@code null} when {@code strict} and they have several (the first value's type otherwise).
     */
    private String valueType(ClickHousePreparedStatement st, List<Object[]> rows, int p, int stride, boolean strict)
            throws SQLException {
        String type = null;
        boolean nulls = false;
        int nullSqlType = java.sql.Types.OTHER;
        int copies = stride > 0 ? groups.size() : 1;
        for (Object[] row : rows) {
            for (int g = 0; g < copies; g++) {
                int index = g * stride + p;
                Object v = row[index];
                if (v == null) {
                    nulls = true;
                    nullSqlType = st.nullType(index);
                    continue;
                }
                String t = JdbcValues.parameterType(v, java.sql.Types.OTHER);
                if (type == null) {
                    type = t;
                } else if (!type.equals(t)) {
                    String wider = widerDecimal(type, t);
                    if (wider == null && strict) {
                        return null;
                    }
                    type = wider == null ? type : wider;
                }
            }
        }
        if (type == null) {
            String t = JdbcValues.parameterType(null, nullSqlType);
            return t.equals("Nullable(Nothing)") ? "Nullable(String)" : t;
        }
        if (nulls) {
            for (String prefix : NOT_NULLABLE) {
                if (type.startsWith(prefix)) {
                    return strict ? null : type;
                }
            }
            return "Nullable(" + type + ")";
        }
        return type;
    }

    /** {@code Decimal(P, S)} taking both decimals, or {@code null} when they are not both decimals. */
    private static String widerDecimal(String a, String b) {
        if (!a.startsWith("Decimal(") || !b.startsWith("Decimal(")) {
            return null;
        }
        String[] x = a.substring(8, a.length() - 1).split(",\\s*");
        String[] y = b.substring(8, b.length() - 1).split(",\\s*");
        int precision = Math.max(Integer.parseInt(x[0]), Integer.parseInt(y[0]));
        int scale = Math.max(Integer.parseInt(x[1]), Integer.parseInt(y[1]));
        return "Decimal(" + precision + ", " + scale + ")";
    }

    /** The types of the columns the INSERT names (asked once); empty when the server cannot tell. */
    private List<String> columnTypes(ClickHousePreparedStatement st) {
        if (columnTypes == null) {
            columnTypes = List.of();
            String probe = probe();
            if (probe != null) {
                try (ClickHouseStatement s = new ClickHouseStatement(st.conn)) {
                    if (s.run(probe, null)) {
                        try (ResultSet rs = s.getResultSet()) {
                            ResultSetMetaData md = rs.getMetaData();
                            List<String> types = new ArrayList<>();
                            for (int i = 1; i <= md.getColumnCount(); i++) {
                                types.add(md.getColumnTypeName(i));
                            }
                            columnTypes = types;
                        }
                    }
                } catch (SQLException e) {
                    // e.g. INSERT INTO FUNCTION: the values' own types are used
                }
            }
        }
        return columnTypes;
    }

    /**
     * {@code SELECT <columns> FROM <table> LIMIT 0} from the head {@code INSERT INTO [TABLE] <table> [(<columns>)]},
     * or {@code null} when the head has another form.
     */
    private String probe() {
        int i = SqlLexer.codeStart(head, 0);
        i = word(head, i, "INSERT");
        i = i < 0 ? -1 : word(head, SqlLexer.codeStart(head, i), "INTO");
        if (i < 0) {
            return null;
        }
        i = SqlLexer.codeStart(head, i);
        int t = word(head, i, "TABLE");
        if (t >= 0) {
            i = SqlLexer.codeStart(head, t);
        }
        if (word(head, i, "FUNCTION") >= 0) {
            return null;
        }
        int start = i;
        while (i < head.length()) {
            int j = SqlLexer.skip(head, i);
            if (j != i && head.charAt(i) != '-' && head.charAt(i) != '#' && head.charAt(i) != '/') {
                i = j; // a quoted name
                continue;
            }
            char c = head.charAt(i);
            if (Character.isWhitespace(c) || c == '(' || j != i) {
                break;
            }
            i++;
        }
        String table = head.substring(start, i);
        if (table.isEmpty()) {
            return null;
        }
        i = SqlLexer.codeStart(head, i);
        String columns = "*";
        if (i < head.length() && head.charAt(i) == '(') {
            int depth = 0;
            int open = i;
            while (i < head.length()) {
                int j = SqlLexer.skip(head, i);
                if (j != i) {
                    i = j;
                    continue;
                }
                char c = head.charAt(i);
                if (c == '(') {
                    depth++;
                } else if (c == ')' && --depth == 0) {
                    break;
                }
                i++;
            }
            if (i >= head.length()) {
                return null;
            }
            columns = head.substring(open + 1, i);
        }
        return "SELECT " + columns + " FROM " + table + " LIMIT 0";
    }

    /** The offset after keyword {@code w} at {@code i}, or -1. */
    private static int word(String s, int i, String w) {
        int end = i + w.length();
        if (end <= s.length() && s.regionMatches(true, i, w, 0, w.length())
                && (end == s.length() || !InsertShape.identifierPart(s.charAt(end)))) {
            return end;
        }
        return -1;
    }

    private long insertThroughInput(ClickHousePreparedStatement st, List<Object[]> rows, String[] types)
            throws SQLException {
        StringBuilder sql = new StringBuilder(head.length() + 64).append(head).append("SELECT ");
        appendSelect(sql, groups.get(0), 0);
        StringBuilder structure = new StringBuilder();
        for (int i = 0; i < types.length; i++) {
            structure.append(i == 0 ? "" : ", ").append(PARAMETER_PREFIX).append(i + 1).append(' ').append(types[i]);
        }
        sql.append(" FROM input(");
        TextFormat.appendQuoted(sql, structure.toString());
        sql.append(") FORMAT Native");
        long[] sent = new long[1];
        try {
            return insertBlocks(st, sql.toString(), (ins, w) -> {
            if (w.length != perGroup) {
                throw new SQLException("the INSERT's input() has " + w.length + " columns, expected " + perGroup,
                        "21S01");
            }
            int blockRows = st.conn.config.positiveInt(DriverProperty.INSERT_BLOCK_ROWS);
            int inBlock = 0;
            for (int r = 0; r < rows.size(); r++) {
                Object[] row = rows.get(r);
                for (int g = 0; g < groups.size(); g++) {
                    for (int i = 0; i < perGroup; i++) {
                        try {
                            w[i].append(row[g * perGroup + i]);
                        } catch (ClickHouseTypeException e) {
                            throw new SQLDataException("row " + (r + 1) + ", parameter " + (g * perGroup + i + 1)
                                    + " (" + w[i].type().name() + "): " + e.getMessage(), "22018", 0, e);
                        }
                    }
                    if (++inBlock == blockRows) {
                        ins.sendBlock(w, inBlock);
                        sent[0] += inBlock;
                        inBlock = 0;
                    }
                }
            }
            ins.sendBlock(w, inBlock);
        });
        } catch (SQLException e) {
            // the blocks sent before a value was refused are written (the insert is ended, not abandoned,
            // so the connection stays usable): their parameter rows count as done
            throw failure(e, rows.size(), sent[0] / groups.size());
        }
    }

    private static BatchUpdateException failure(SQLException e, int rows, long done) {
        long[] counts = new long[rows];
        for (int i = 0; i < rows; i++) {
            counts[i] = i < done ? Statement.SUCCESS_NO_INFO : Statement.EXECUTE_FAILED;
        }
        return new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(), counts, e);
    }

    /** The expressions of {@code group} with its placeholders named {@code _jdbc_pN}, N from {@code first}. */
    private static int appendSelect(StringBuilder sql, List<Expression> group, int first) {
        int p = first;
        for (int e = 0; e < group.size(); e++) {
            Expression x = group.get(e);
            if (e > 0) {
                sql.append(", ");
            }
            int last = 0;
            for (int mark : x.placeholders()) {
                sql.append(x.text(), last, mark).append(' ').append(PARAMETER_PREFIX).append(++p).append(' ');
                last = mark + 1;
            }
            sql.append(x.text(), last, x.text().length());
        }
        return p;
    }

    /**
     * {@code INSERT ... SELECT <group 1> FROM _jdbc_data UNION ALL SELECT <group 2> FROM _jdbc_data ...}, the
     * parameter rows sent as the external table {@code _jdbc_data} (native blocks, every server version).
     */
    private long insertFromExternalTable(ClickHousePreparedStatement st, List<Object[]> rows, String[] types)
            throws SQLException {
        StringBuilder sql = new StringBuilder(head.length() + 64).append(head);
        int p = 0;
        for (int g = 0; g < groups.size(); g++) {
            sql.append(g == 0 ? "SELECT " : " UNION ALL SELECT ");
            p = appendSelect(sql, groups.get(g), p);
            sql.append(" FROM ").append(EXTERNAL_TABLE);
        }
        List<String> names = new ArrayList<>(types.length);
        for (int i = 1; i <= types.length; i++) {
            names.add(PARAMETER_PREFIX + i);
        }
        check(rows, types);
        ClickHouseJdbcConnection conn = st.conn;
        String queryId = UUID.randomUUID().toString();
        QueryOptions options = options(st, queryId).externalTable(
                new ExternalTable(EXTERNAL_TABLE, names, List.of(types), rows)).build();
        Progress progress;
        conn.lock.lock();
        try {
            conn.checkOpen();
            conn.beforeQuery(null);
            st.setUpdateCount(-1);
            progress = conn.session.withConnection(c -> {
                try (QueryResult r = c.query(sql.toString(), options)) {
                    while (r.next() != null) {
                        // an INSERT ... SELECT answers with no rows
                    }
                    return r.progress();
                }
            });
        } catch (RuntimeException e) {
            throw SqlStates.translate(e, queryId, false);
        } finally {
            conn.lock.unlock();
        }
        conn.wrote();
        return progress.writtenRows();
    }

    /**
     * Converts every value as the external table's writers will, so a value its column cannot take fails here
     * (22018) and not halfway through sending the query, which would cost the connection.
     */
    private static void check(List<Object[]> rows, String[] types) throws SQLException {
        ColumnWriter[] w = new ColumnWriter[types.length];
        for (int i = 0; i < types.length; i++) {
            try {
                w[i] = DataTypes.parse(types[i], ZoneOffset.UTC).newWriter();
            } catch (ClickHouseTypeException e) {
                throw new SQLDataException("parameter " + (i + 1) + ": " + e.getMessage(), "22018", 0, e);
            }
        }
        for (int r = 0; r < rows.size(); r++) {
            Object[] row = rows.get(r);
            for (int i = 0; i < w.length; i++) {
                try {
                    w[i].append(row[i]);
                } catch (ClickHouseTypeException e) {
                    throw new SQLDataException("row " + (r + 1) + ", parameter " + (i + 1) + " (" + types[i] + "): "
                            + e.getMessage(), "22018", 0, e);
                }
            }
            if ((r + 1) % CHECK_ROWS == 0) {
                for (ColumnWriter cw : w) {
                    cw.reset();
                }
            }
        }
    }

    private static QueryOptions.Builder options(ClickHousePreparedStatement st, String queryId) throws SQLException {
        QueryOptions.Builder o = QueryOptions.builder().queryId(queryId);
        if (st.getQueryTimeout() > 0) {
            o.timeout(Duration.ofSeconds(st.getQueryTimeout()));
        }
        return o;
    }

    /** Sends an INSERT's blocks: {@code ins} is open, {@code w} are fresh writers for its columns. */
    @FunctionalInterface
    private interface BlockSource {
        void send(InsertStream ins, ColumnWriter[] w) throws SQLException;
    }

    /**
     * Runs {@code sql} as a native insert whose blocks {@code source} sends, under the connection's lock.
     *
     * @return the rows the server reports written (0 when it reports none)
     */
    private static long insertBlocks(ClickHousePreparedStatement st, String sql, BlockSource source)
            throws SQLException {
        ClickHouseJdbcConnection conn = st.conn;
        String queryId = UUID.randomUUID().toString();
        QueryOptions options = options(st, queryId).build();
        SQLException[] refused = new SQLException[1];
        Progress progress;
        conn.lock.lock();
        try {
            conn.checkOpen();
            conn.beforeQuery(null);
            st.setUpdateCount(-1);
            progress = conn.session.withConnection(c -> {
                try (InsertStream ins = c.insert(sql, options)) {
                    ColumnWriter[] w = ins.newWriters();
                    try {
                        source.send(ins, w);
                    } catch (SQLException e) {
                        refused[0] = e;
                        for (ColumnWriter cw : w) {
                            cw.reset();
                        }
                    }
                    return ins.finish();
                }
            });
        } catch (RuntimeException e) {
            throw SqlStates.translate(e, queryId, false);
        } finally {
            conn.lock.unlock();
        }
        if (refused[0] != null) {
            throw refused[0];
        }
        conn.wrote();
        return progress.writtenRows();
    }
}
