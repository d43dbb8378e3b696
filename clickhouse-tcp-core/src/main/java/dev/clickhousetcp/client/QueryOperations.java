package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.protocol.ServerHello;
import dev.clickhousetcp.types.ColumnWriter;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The query and insert operations shared by {@link ClickHouseTcpClient} (each call borrows a pooled
 * connection) and {@link ClickHouseSession} (every call uses the session's pinned connection).
 */
public abstract class QueryOperations {
    final int insertBlockRows;

    QueryOperations(int insertBlockRows) {
        this.insertBlockRows = insertBlockRows;
    }

    /** The connection for one operation. */
    abstract ClickHouseConnection acquire();

    /** Gives back a connection obtained from {@link #acquire()}. */
    abstract void release(ClickHouseConnection c);

    /** The server's Hello as seen by a pooled connection (name, version, revision, time zone). */
    public ServerHello serverInfo() {
        return withConnection(ClickHouseConnection::serverHello);
    }

    /** Round-trips Ping/Pong (bounded by the socket timeout). */
    public void ping() {
        withConnection(c -> {
            c.ping();
            return null;
        });
    }

    /**
     * Round-trips Ping/Pong, failing with {@link dev.clickhousetcp.ClickHouseTimeoutException} when no
     * Pong arrives within {@code timeout} (the connection is then discarded). For health checks.
     */
    public void ping(java.time.Duration timeout) {
        withConnection(c -> {
            c.ping(timeout);
            return null;
        });
    }

    /**
     * Runs {@code fn} with a borrowed connection, returning it to the pool afterwards (or discarding
     * it when it is no longer usable). The connection must not escape {@code fn}.
     */
    public <T> T withConnection(Function<ClickHouseConnection, T> fn) {
        ClickHouseConnection c = acquire();
        try {
            return fn.apply(c);
        } finally {
            release(c);
        }
    }

    /** Runs a statement and reads its response to the end; returns the accumulated progress. */
    public Progress execute(String sql) {
        return execute(sql, QueryOptions.DEFAULT);
    }

    public Progress execute(String sql, QueryOptions options) {
        try (QueryResult r = query(sql, options)) {
            r.drain();
            return r.progress();
        }
    }

    /** Starts a query; the result holds a pooled connection until it is closed. */
    public QueryResult query(String sql) {
        return query(sql, QueryOptions.DEFAULT);
    }

    public QueryResult query(String sql, QueryOptions options) {
        ClickHouseConnection c = acquire();
        try {
            return c.query(sql, options, () -> release(c));
        } catch (RuntimeException e) {
            release(c);
            throw e;
        }
    }

    /** Runs a query and maps every row. */
    public <T> List<T> query(String sql, RowMapper<T> mapper) {
        return query(sql, QueryOptions.DEFAULT, mapper);
    }

    public <T> List<T> query(String sql, QueryOptions options, RowMapper<T> mapper) {
        List<T> out = new ArrayList<>();
        Row row = new Row();
        long n = 0;
        try (QueryResult r = query(sql, options)) {
            Block b;
            while ((b = r.next()) != null) {
                for (int i = 0; i < b.rowCount(); i++) {
                    row.position(b, i);
                    out.add(mapper.mapRow(row, n++));
                }
            }
        }
        return out;
    }

    /** Runs a query and returns every row as a fresh {@code Object[]} (values boxed per {@code Column.getObject}). */
    public List<Object[]> queryRows(String sql) {
        return query(sql, QueryOptions.DEFAULT, (row, n) -> row.toArray());
    }

    public List<Object[]> queryRows(String sql, QueryOptions options) {
        return query(sql, options, (row, n) -> row.toArray());
    }

    /**
     * Inserts rows into {@code table}. {@code columns} names the target columns (empty = all columns
     * of the table, in order); each row holds one value per column. Values are converted to the
     * column types from the server's insert header before anything is sent for that block.
     *
     * @param table   table name as SQL ({@code db.table} allowed; quote unusual names yourself)
     * @return rows inserted
     */
    public long insert(String table, List<String> columns, Iterable<Object[]> rows) {
        return insert(table, columns, rows, QueryOptions.DEFAULT);
    }

    public long insert(String table, List<String> columns, Iterable<Object[]> rows, QueryOptions options) {
        return withInsert(insertSql(table, columns), options, ins -> {
            ColumnWriter[] w = ins.newWriters();
            int n = 0;
            long total = 0;
            Iterator<Object[]> it = rows.iterator();
            while (it.hasNext()) {
                Object[] row = it.next();
                if (row.length != w.length) {
                    throw new ClickHouseTypeException("row " + total + " has " + row.length + " values, expected "
                            + w.length + " for columns " + ins.columnNames());
                }
                for (int i = 0; i < w.length; i++) {
                    try {
                        w[i].append(row[i]);
                    } catch (ClickHouseTypeException e) {
                        throw new ClickHouseTypeException("row " + total + ", column '" + ins.columnNames().get(i)
                                + "': " + e.getMessage(), e);
                    }
                }
                n++;
                total++;
                if (n == insertBlockRows) {
                    ins.sendBlock(w, n);
                    n = 0;
                }
            }
            ins.sendBlock(w, n);
            return total;
        });
    }

    /**
     * Columnar insert: {@code columns} maps each column name to its values as a Java array (primitive
     * arrays go through bulk paths) or a {@code List}; all columns must have the same length and every
     * column of the insert header must be present.
     *
     * @return rows inserted
     */
    public long insertColumns(String table, Map<String, ?> columns) {
        return insertColumns(table, columns, QueryOptions.DEFAULT);
    }

    public long insertColumns(String table, Map<String, ?> columns, QueryOptions options) {
        List<String> names = new ArrayList<>(columns.keySet());
        return withInsert(insertSql(table, names), options, ins -> {
            ColumnWriter[] w = ins.newWriters();
            List<String> header = ins.columnNames();
            int rows = -1;
            for (int i = 0; i < header.size(); i++) {
                Object values = columns.get(header.get(i));
                if (values == null) {
                    throw new ClickHouseTypeException("no values for column '" + header.get(i) + "'");
                }
                w[i].appendAll(values);
                if (rows >= 0 && w[i].size() != rows) {
                    throw new ClickHouseTypeException("column '" + header.get(i) + "' has " + w[i].size()
                            + " values, column '" + header.get(0) + "' has " + rows);
                }
                rows = w[i].size();
            }
            ins.sendBlock(w, Math.max(rows, 0));
            return (long) Math.max(rows, 0);
        });
    }

    /**
     * Runs an INSERT statement whose data the callback streams through the {@link InsertStream};
     * finishes the insert after the callback returns, or abandons it (discarding the connection) when
     * the callback throws.
     */
    public <T> T withInsert(String insertSql, QueryOptions options, Function<InsertStream, T> fn) {
        ClickHouseConnection c = acquire();
        InsertStream ins;
        try {
            ins = c.insert(insertSql, options, () -> release(c));
        } catch (RuntimeException e) {
            release(c);
            throw e;
        }
        try (InsertStream s = ins) {
            T result = fn.apply(s);
            s.finish();
            return result;
        }
    }

    static String insertSql(String table, List<String> columns) {
        StringBuilder sb = new StringBuilder("INSERT INTO ").append(table);
        if (columns != null && !columns.isEmpty()) {
            sb.append(" (");
            for (int i = 0; i < columns.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                sb.append('`').append(columns.get(i).replace("\\", "\\\\").replace("`", "\\`")).append('`');
            }
            sb.append(')');
        }
        return sb.append(" VALUES").toString();
    }

}
