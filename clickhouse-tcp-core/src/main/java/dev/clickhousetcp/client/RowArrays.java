package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.Float64Column;
import dev.clickhousetcp.data.Int64Column;
import dev.clickhousetcp.data.NullableColumn;
import dev.clickhousetcp.data.StringColumn;

/**
 * Builds the {@code Object[]} rows of the row tier ({@link QueryOperations#queryRows},
 * {@link QueryOperations#forEachRow}, {@link QueryOperations#streamRows}) a block at a time: each
 * column's kind is chosen once per block (not a virtual {@code getObject} per cell), fixed-width lanes
 * are copied out in bulk, then each row is filled in one pass, and a cell costs its boxed value and
 * nothing else. The values are those of {@link Column#getObject}, except that with
 * {@code uint64AsLong} a UInt64 (or Nullable(UInt64)) column gives {@code Long}s holding the raw
 * 64 bits. One instance per result; not thread-safe.
 */
final class RowArrays {
    private static final int OBJECT = 0;
    private static final int UINT64_BIG = 1;
    private static final int LONG = 2;
    private static final int DOUBLE = 3;
    private static final int STRING = 4;

    private final boolean uint64AsLong;
    private int[] kinds = new int[0];
    private long[][] longs = new long[0][];
    private double[][] doubles = new double[0][];
    private byte[][] nulls = new byte[0][];
    private Column[] columns = new Column[0];
    private StringColumn[] strings = new StringColumn[0];
    private Object[][] rows = new Object[0][];

    RowArrays(boolean uint64AsLong) {
        this.uint64AsLong = uint64AsLong;
    }

    /**
     * Fresh arrays for every row of {@code b}, in a buffer reused by the next call: entries
     * {@code [0, b.rowCount())} hold this block's rows (each array is new and the caller's to keep).
     * Each column's kind is chosen once per block; fixed-width lanes are copied out in bulk first, then
     * every row is filled in one pass.
     */
    Object[][] read(Block b) {
        int n = b.rowCount();
        int cols = b.columnCount();
        if (kinds.length != cols) {
            kinds = new int[cols];
            longs = new long[cols][];
            doubles = new double[cols][];
            nulls = new byte[cols][];
            columns = new Column[cols];
            strings = new StringColumn[cols];
        }
        for (int c = 0; c < cols; c++) {
            prepare(c, b.column(c), n);
        }
        Object[][] out = rows.length >= n ? rows : (rows = new Object[n][]);
        int[] k = kinds;
        for (int r = 0; r < n; r++) {
            Object[] a = new Object[cols];
            for (int c = 0; c < cols; c++) {
                byte[] nm = nulls[c];
                if (nm != null && nm[r] != 0) {
                    continue;
                }
                switch (k[c]) {
                    case UINT64_BIG -> a[c] = Int64Column.unsignedValue(longs[c][r]);
                    case LONG -> a[c] = Long.valueOf(longs[c][r]);
                    case DOUBLE -> a[c] = Double.valueOf(doubles[c][r]);
                    case STRING -> a[c] = strings[c].getString(r);
                    default -> a[c] = columns[c].getObject(r);
                }
            }
            out[r] = a;
        }
        return out;
    }

    /** Chooses the kind of column {@code c} for this block and copies its fixed-width lanes out. */
    private void prepare(int c, Column col, int n) {
        Column values = col;
        byte[] nm = null;
        if (col instanceof NullableColumn nc) {
            values = nc.nested();
            nm = nc.nullMap();
        }
        nulls[c] = nm;
        columns[c] = col;
        if (values instanceof Int64Column lc) {
            long[] v = longs[c] != null && longs[c].length >= n ? longs[c] : (longs[c] = new long[n]);
            lc.copyTo(v, 0);
            kinds[c] = lc.isUnsigned() && !uint64AsLong ? UINT64_BIG : LONG;
        } else if (values instanceof Float64Column fc) {
            double[] v = doubles[c] != null && doubles[c].length >= n ? doubles[c] : (doubles[c] = new double[n]);
            fc.copyTo(v, 0);
            kinds[c] = DOUBLE;
        } else if (values instanceof StringColumn sc) {
            strings[c] = sc;
            kinds[c] = STRING;
        } else {
            nulls[c] = null; // getObject gives the NULLs itself
            kinds[c] = OBJECT;
        }
    }

    /**
     * One value as the row tier gives it: {@link Column#getObject}, or with {@code uint64AsLong} the
     * raw bits of a UInt64 (or Nullable(UInt64)) value as a {@code Long}.
     */
    static Object value(Column col, int row, boolean uint64AsLong) {
        if (uint64AsLong) {
            if (col instanceof Int64Column lc && lc.isUnsigned()) {
                return lc.getRaw(row);
            }
            if (col instanceof NullableColumn nc && nc.nested() instanceof Int64Column lc && lc.isUnsigned()) {
                return nc.isNull(row) ? null : (Object) lc.getRaw(row);
            }
        }
        return col.getObject(row);
    }
}
