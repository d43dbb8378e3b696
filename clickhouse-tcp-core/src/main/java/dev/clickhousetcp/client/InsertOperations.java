package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseInterruptedException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.ColumnCopyWriter;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DataType;
import dev.clickhousetcp.mapping.MappingException;
import dev.clickhousetcp.mapping.WritePlan;
import dev.clickhousetcp.observe.ClickHouseTcpOperation;
import io.micrometer.observation.Observation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The insert batcher behind the insert methods of {@link QueryOperations}: the rows of every insert
 * form ({@code Object[]} rows, Java arrays per column, objects mapped through a write plan, streams,
 * blocks read earlier, and rows a callback streams) are appended to column writers window by window
 * and sent as wire blocks of at most {@code maxRowsPerBlock} rows, in one INSERT or, in safe-retry
 * mode, one INSERT per block with its own deduplication token; a call that fails on the connection
 * is attempted again up to {@code maxAttempts} times, and its failure says whether the insert may
 * have been applied. Each call is one {@code INSERT} observation.
 *
 * <p>Owns the windowing, the retries and the INSERT statements; connections, budgets, observations,
 * the object mappers and the table's columns ({@code DESCRIBE TABLE}) come from its
 * {@link QueryOperations}.
 */
final class InsertOperations {
    private final QueryOperations ops;

    /** The batcher of {@code ops}' insert calls, which acquire their connections from {@code ops}. */
    InsertOperations(QueryOperations ops) {
        this.ops = ops;
    }

    /** An insert call's body, given the call's observation ({@code null} when not observed). */
    @FunctionalInterface
    interface InsertCall {
        long run(ObservedOperation op);
    }

    /**
     * Runs an insert call in one {@code INSERT} observation (when observed): started before the first
     * connection is acquired, current on this thread while the call runs (so a {@code DESCRIBE} it needs
     * is its child), stopped after every statement of the call gave its connection back.
     */
    @SuppressWarnings("try") // the scope is only opened and closed
    private long observedInsert(String sql, QueryOptions options, InsertCall call) {
        ObservedOperation op = ops.observe(ClickHouseTcpOperation.INSERT, sql, options);
        if (op == null) {
            return call.run(null);
        }
        long rows;
        try (Observation.Scope scope = op.openScope()) {
            rows = call.run(op);
        } catch (RuntimeException | Error e) {
            op.stop(e, false);
            throw e;
        }
        op.context.setInsertedRows(rows);
        op.stop(null, false);
        return rows;
    }

    // ------------------------------------------------------------------ rows and columns

    /** {@link QueryOperations#insert(String, List, Iterable, InsertOptions)}: {@code Object[]} rows. */
    long insert(String table, List<String> columns, Iterable<Object[]> rows, InsertOptions options) {
        String sql = insertSql(table, columns);
        return observedInsert(sql, options.queryOptions(), op -> withAttempts(options, () -> {
            Iterator<Object[]> it = rows.iterator();
            return sendWindows(sql, options, op, new WindowSource() {
                @Override
                public boolean hasMore() {
                    return it.hasNext();
                }

                @Override
                public void begin(InsertStream ins) {
                }

                @Override
                public int next(InsertStream ins, ColumnWriter[] w, int max, long total) {
                    int n = 0;
                    while (n < max && it.hasNext()) {
                        ins.checkDeadline();
                        Object[] row = it.next();
                        if (row.length != w.length) {
                            throw new ClickHouseTypeException("row " + (total + n) + " has " + row.length
                                    + " values, expected " + w.length + " for columns " + ins.columnNames());
                        }
                        for (int i = 0; i < w.length; i++) {
                            try {
                                w[i].append(row[i]);
                            } catch (ClickHouseTypeException e) {
                                throw new ClickHouseTypeException("row " + (total + n) + ", column '"
                                        + ins.columnNames().get(i) + "': " + e.getMessage(), e);
                            }
                        }
                        n++;
                    }
                    return n;
                }
            });
        }, true, op));
    }

    /** {@link QueryOperations#insertColumns(String, Map, InsertOptions)}: one block of columns. */
    long insertColumns(String table, Map<String, ?> columns, InsertOptions options) {
        String sql = insertSql(table, new ArrayList<>(columns.keySet()));
        return observedInsert(sql, options.queryOptions(), op -> {
            if (options.tokenPerBlock()) {
                try {
                    return insertColumnsOnce(sql, columns, options, op);
                } catch (ClickHouseConnectionException e) {
                    throw blockFailed(e, options.deduplicationToken(), 0, 0);
                }
            }
            return insertColumnsOnce(sql, columns, options, op);
        });
    }

    private long insertColumnsOnce(String sql, Map<String, ?> columns, InsertOptions options, ObservedOperation op) {
        QueryOptions qo = options.forBlock(options.tokenPerBlock() ? 0 : -1);
        return withInsert(sql, qo, ops.queryBudget(qo), op, ins -> {
            ColumnWriter[] w = ins.newWriters();
            List<String> header = ins.columnNames();
            int rows = -1;
            for (int i = 0; i < header.size(); i++) {
                Object values = columns.get(header.get(i));
                if (values == null) {
                    throw new ClickHouseTypeException("no values for column '" + header.get(i) + "'");
                }
                if (values instanceof Column col) {
                    w[i] = columnWriter(w[i], col);
                } else {
                    int before = w[i].size();
                    try {
                        w[i].appendAllShared(values);
                    } catch (ClickHouseTypeException e) {
                        throw new ClickHouseTypeException("column '" + header.get(i) + "', value " + (w[i].size() - before)
                                + ": " + e.getMessage(), e);
                    }
                }
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

    /** A writer holding {@code col}: the column itself when its type matches, else its values converted. */
    private static ColumnWriter columnWriter(ColumnWriter fresh, Column col) {
        DataType t = fresh.type();
        if (ColumnCopyWriter.canCopy(t, col)) {
            ColumnCopyWriter cw = new ColumnCopyWriter(t);
            cw.appendColumn(col);
            return cw;
        }
        try {
            fresh.appendColumn(col);
        } catch (ClickHouseTypeException e) {
            throw new ClickHouseTypeException("column of type " + col.type().name() + " cannot be inserted as "
                    + t.name() + ": " + e.getMessage(), e);
        }
        return fresh;
    }

    /** {@link QueryOperations#insertBlocks(String, Iterable, InsertOptions)}: blocks read earlier. */
    long insertBlocks(String table, Iterable<Block> blocks, InsertOptions options) {
        Iterator<Block> it = blocks.iterator();
        if (!it.hasNext()) {
            return 0;
        }
        Block[] pending = {it.next()};
        String sql = insertSql(table, pending[0].names());
        return observedInsert(sql, options.queryOptions(), op -> sendWindows(sql, options, op, new WindowSource() {
            @Override
            public boolean hasMore() {
                if (pending[0] == null && it.hasNext()) {
                    pending[0] = it.next();
                }
                return pending[0] != null;
            }

            @Override
            public void begin(InsertStream ins) {
            }

            @Override
            public int next(InsertStream ins, ColumnWriter[] w, int max, long total) {
                if (!hasMore()) {
                    return 0;
                }
                Block b = pending[0];
                pending[0] = null;
                List<String> header = ins.columnNames();
                for (int i = 0; i < header.size(); i++) {
                    int idx = b.indexOf(header.get(i));
                    if (idx < 0) {
                        throw new ClickHouseTypeException("block has no column '" + header.get(i) + "': " + b.names());
                    }
                    w[i] = columnWriter(ins.columnTypes().get(i).newWriter(), b.column(idx));
                }
                return b.rowCount();
            }
        }, Integer.MAX_VALUE));
    }

    /** {@link QueryOperations#withInsert(String, QueryOptions, Function)}: rows the callback streams. */
    @SuppressWarnings("try") // the scope is only opened and closed
    <T> T withInsert(String insertSql, QueryOptions options, Function<InsertStream, T> fn) {
        ObservedOperation op = ops.observe(ClickHouseTcpOperation.INSERT, insertSql, options);
        if (op == null) {
            return withInsert(insertSql, options, ops.queryBudget(options), null, fn);
        }
        T result;
        try (Observation.Scope scope = op.openScope()) {
            result = withInsert(insertSql, options, ops.queryBudget(options), op, fn);
        } catch (RuntimeException | Error e) {
            op.stop(e, false);
            throw e;
        }
        op.stop(null, false);
        return result;
    }

    /** {@link #withInsert(String, QueryOptions, Function)} within {@code budget} (e.g. the whole call's), observed by {@code op}. */
    private <T> T withInsert(String insertSql, QueryOptions options, Budget budget, ObservedOperation op,
                             Function<InsertStream, T> fn) {
        try (InsertStream s = openInsert(insertSql, options, budget, op)) {
            T result = fn.apply(s);
            s.finish();
            return result;
        }
    }

    /**
     * Sends an INSERT and reads its header. A reused pooled connection that fails before the server
     * answered (it had been closed) is replaced and the INSERT sent again: no row had been sent, so
     * nothing can have been applied.
     */
    private InsertStream openInsert(String sql, QueryOptions callOptions, Budget budget, ObservedOperation op) {
        QueryOptions options = op == null ? callOptions : op.options(callOptions);
        String token = options.settings().get("insert_deduplication_token");
        boolean retry = ops.retriesUnansweredReads();
        for (int attempt = 0; ; attempt++) {
            if (op != null && attempt > 0) {
                op.retry();
            }
            ConnectionLease lease = ops.acquire(budget);
            Exchange x;
            try {
                if (op != null) {
                    op.connected(lease.connection());
                }
                x = lease.connection().startInsert(sql, options, budget);
                if (op != null) {
                    op.sent(x);
                }
            } catch (RuntimeException e) {
                lease.close();
                if (retry && attempt < QueryResult.MAX_RETRIES && QueryOperations.unansweredFailure(e, lease)) {
                    continue;
                }
                throw e;
            }
            try {
                return new InsertStream(lease, x, options.listener(), token, op);
            } catch (RuntimeException e) {
                if (retry && attempt < QueryResult.MAX_RETRIES && InsertStream.retryableOpen(e, lease, x)) {
                    continue;
                }
                throw e;
            }
        }
    }

    // ------------------------------------------------------------------ objects

    /** The first of {@code rows}, or {@code null} when there is none; a {@code null} first row throws. */
    private static <T> T firstRow(Iterator<T> rows) {
        if (!rows.hasNext()) {
            return null;
        }
        T first = rows.next();
        if (first == null) {
            throw new MappingException("row 0 is null");
        }
        return first;
    }

    /** {@link QueryOperations#insert(String, Iterable, InsertOptions)}: objects, or {@code Object[]} rows. */
    @SuppressWarnings("unchecked")
    <T> long insert(String table, Iterable<T> rows, InsertOptions options) {
        Iterator<T> it = rows.iterator();
        T first = firstRow(it);
        if (first == null) {
            return 0;
        }
        if (first instanceof Object[]) {
            return insert(table, List.of(), (Iterable<Object[]>) rows, options);
        }
        return insert(table, (Class<T>) first.getClass(), rows, options);
    }

    /** {@link QueryOperations#insert(String, Class, Iterable, InsertOptions)}: objects, replayable. */
    <T> long insert(String table, Class<T> type, Iterable<? extends T> rows, InsertOptions options) {
        return observedInsert(null, options.queryOptions(),
                op -> withAttempts(options, () -> insertObjects(table, type, rows.iterator(), options, op), true, op));
    }

    /** {@link QueryOperations#insert(String, Stream)}: objects of a stream, their class from the first. */
    @SuppressWarnings("unchecked")
    <T> long insert(String table, Stream<T> rows) {
        Iterator<T> it = rows.iterator();
        T first = firstRow(it);
        if (first == null) {
            return 0;
        }
        Iterator<T> all = new Iterator<>() {
            private boolean firstDone;

            @Override
            public boolean hasNext() {
                return !firstDone || it.hasNext();
            }

            @Override
            public T next() {
                if (!firstDone) {
                    firstDone = true;
                    return first;
                }
                return it.next();
            }
        };
        return observedInsert(null, QueryOptions.DEFAULT,
                op -> insertObjects(table, (Class<T>) first.getClass(), all, InsertOptions.DEFAULT, op));
    }

    /** {@link QueryOperations#insert(String, Class, Stream, InsertOptions)}: objects consumed once. */
    <T> long insert(String table, Class<T> type, Stream<? extends T> rows, InsertOptions options) {
        if (options.maxAttempts() > 1) {
            throw new IllegalArgumentException("a Stream is consumed once and cannot be retried; pass an Iterable");
        }
        return observedInsert(null, options.queryOptions(),
                op -> insertObjects(table, type, rows.iterator(), options, op));
    }

    private <T> long insertObjects(String table, Class<T> type, Iterator<? extends T> it, InsertOptions options,
                                   ObservedOperation op) {
        if (!it.hasNext()) {
            return 0;
        }
        List<String> names = ops.mappers().insertColumns(type, table, ops.describe(table));
        String sql = insertSql(table, names);
        if (op != null) {
            op.context.setQueryText(sql);
        }
        Object[] window = new Object[windowRows(options)];
        return sendWindows(sql, options, op, new WindowSource() {
            private WritePlan<T> plan;

            @Override
            public boolean hasMore() {
                return it.hasNext();
            }

            @Override
            public void begin(InsertStream ins) {
                plan = ops.mappers().writePlan(type, ins.columnNames(), ins.columnTypes());
            }

            @Override
            public int next(InsertStream ins, ColumnWriter[] w, int max, long total) {
                int n = 0;
                while (n < max && it.hasNext()) {
                    ins.checkDeadline();
                    T t = it.next();
                    if (t == null) {
                        throw new MappingException("row " + (total + n) + " is null");
                    }
                    window[n++] = t;
                }
                try {
                    plan.append(window, n, w, total);
                } finally {
                    Arrays.fill(window, 0, n, null);
                }
                return n;
            }
        });
    }

    // ------------------------------------------------------------------ insert windows

    /** Rows for the blocks of an insert: appended window by window. */
    interface WindowSource {
        /** Whether rows remain. */
        boolean hasMore();

        /** Called once per INSERT statement, after the server sent its header and before any data. */
        void begin(InsertStream ins);

        /** Appends at most {@code max} rows to {@code w}; returns how many (0 when the source is empty). */
        int next(InsertStream ins, ColumnWriter[] w, int max, long total);
    }

    private int windowRows(InsertOptions options) {
        return options.maxRowsPerBlock() > 0 ? options.maxRowsPerBlock() : ops.insertBlockRows;
    }

    private long sendWindows(String sql, InsertOptions options, ObservedOperation op, WindowSource src) {
        return sendWindows(sql, options, op, src, windowRows(options));
    }

    /**
     * Sends the rows of {@code src} in blocks of at most {@code window} rows: all in one INSERT, or
     * in safe-retry mode one INSERT per block with its own deduplication token.
     */
    private long sendWindows(String sql, InsertOptions options, ObservedOperation op, WindowSource src, int window) {
        if (!options.tokenPerBlock()) {
            QueryOptions qo = options.forBlock(-1);
            return withInsert(sql, qo, ops.queryBudget(qo), op, ins -> {
                src.begin(ins);
                ColumnWriter[] w = ins.newWriters();
                long total = 0;
                while (src.hasMore()) {
                    int n = src.next(ins, w, window, total);
                    if (n == 0) {
                        break;
                    }
                    ins.sendBlock(w, n);
                    total += n;
                }
                return total;
            });
        }
        // the timeout is the whole call's: every block's INSERT runs within what is left of it
        Budget budget = ops.queryBudget(options.queryOptions());
        long total = 0;
        long block = 0;
        while (src.hasMore()) {
            long first = total;
            long sent;
            try {
                sent = withInsert(sql, options.forBlock(block), budget, op, ins -> {
                    src.begin(ins);
                    ColumnWriter[] w = ins.newWriters();
                    int n = src.next(ins, w, window, first);
                    ins.sendBlock(w, n);
                    return (long) n;
                });
            } catch (ClickHouseConnectionException e) {
                throw blockFailed(e, options.deduplicationToken(), block, total);
            }
            if (sent == 0) {
                break;
            }
            total += sent;
            block++;
        }
        return total;
    }

    /**
     * The failure of block {@code block} of a safe-retry insert, as the failure of the whole call: applied
     * in part when blocks before it were committed, and naming the call's token, the one a retry of the
     * whole insert runs with (the failed block's own INSERT had {@code <token>-<block>}).
     */
    private static ClickHouseConnectionException blockFailed(ClickHouseConnectionException e, String token, long block,
                                                             long committedRows) {
        boolean applied = block > 0 || e.insertMayHaveBeenApplied();
        String message = "block " + block + " of a safe-retry insert failed: " + e.getMessage() + "; "
                + (block > 0 ? "the " + block + " blocks before it (" + committedRows + " rows) had been committed, so "
                + "the insert was applied in part" : "it was the first block")
                + "; retrying the whole insert with deduplication token '" + token + "', the same rows in the same "
                + "order and the same block size is safe";
        if (e instanceof ClickHouseTimeoutException t) {
            return new ClickHouseTimeoutException(message, e, t.deadline(), t.timeout(), applied, token);
        }
        return new ClickHouseConnectionException(message, e, applied, token);
    }

    /**
     * Runs {@code attempt} up to {@code maxAttempts} times while it fails on the connection (not after an
     * interrupt of the calling thread: the caller asked the insert to stop). The last
     * failure is thrown; when an earlier attempt may have applied the insert and the last one does not
     * say so (it failed before sending anything), the exception thrown says it.
     */
    private static long withAttempts(InsertOptions options, Supplier<Long> attempt, boolean replayable,
                                     ObservedOperation op) {
        int max = replayable ? options.maxAttempts() : 1;
        ClickHouseConnectionException applied = null;
        for (int i = 1; ; i++) {
            if (op != null && i > 1) {
                op.retry();
            }
            try {
                return attempt.get();
            } catch (ClickHouseConnectionException e) {
                if (e.insertMayHaveBeenApplied()) {
                    applied = e;
                }
                if (i >= max || Interrupts.isInterrupt(e)) { // an interrupted call is not attempted again
                    throw applied == null || e.insertMayHaveBeenApplied() ? e : appliedEarlier(e, applied, i);
                }
            }
        }
    }

    /** {@code last}, the failure of the last of {@code attempts}, saying that an earlier attempt may have applied the insert. */
    private static ClickHouseConnectionException appliedEarlier(ClickHouseConnectionException last,
                                                                ClickHouseConnectionException earlier, int attempts) {
        String message = "attempt " + attempts + " of " + attempts + " failed: " + last.getMessage()
                + "; an earlier attempt may have applied the insert, wholly or in part (" + earlier.getMessage() + ")";
        ClickHouseConnectionException e = last instanceof ClickHouseTimeoutException t
                ? new ClickHouseTimeoutException(message, last, t.deadline(), t.timeout(), true, earlier.deduplicationToken())
                : last instanceof ClickHouseInterruptedException
                ? new ClickHouseInterruptedException(message, last, true, earlier.deduplicationToken())
                : new ClickHouseConnectionException(message, last, true, earlier.deduplicationToken());
        e.addSuppressed(earlier);
        return e;
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
