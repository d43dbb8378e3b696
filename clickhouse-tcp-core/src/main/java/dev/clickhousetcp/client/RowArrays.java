package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.Float64Column;
import dev.clickhousetcp.data.Int64Column;
import dev.clickhousetcp.data.NullableColumn;
import dev.clickhousetcp.data.StringColumn;

import java.math.BigInteger;

/**
 * Builds the {@code Object[]} rows of the row tier ({@link QueryOperations#queryRows},
 * {@link QueryOperations#forEachRow}, {@link QueryOperations#streamRows}) from whole blocks, column by
 * column: each column's values are converted in one loop of one kind (chosen per column once per
 * block, not per cell), fixed-width lanes are copied out in bulk, and a cell costs its boxed value
 * and nothing else. The values are those of {@link Column#getObject}, except that with
 * {@code uint64AsLong} a UInt64 (or Nullable(UInt64)) column gives {@code Long}s holding the raw
 * 64 bits. One instance per result; not thread-safe.
 */
final class RowArrays {
    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

    private final boolean uint64AsLong;
    private long[] longs = new long[0];
    private double[] doubles = new double[0];
    private Object[][] rows = new Object[0][];

    RowArrays(boolean uint64AsLong) {
        this.uint64AsLong = uint64AsLong;
    }

    /**
     * Fresh arrays for every row of {@code b}, in a buffer reused by the next call: entries
     * {@code [0, b.rowCount())} hold this block's rows (each array is new and the caller's to keep).
     */
    Object[][] read(Block b) {
        int n = b.rowCount();
        int cols = b.columnCount();
        Object[][] out = rows.length >= n ? rows : (rows = new Object[n][]);
        for (int r = 0; r < n; r++) {
            out[r] = new Object[cols];
        }
        for (int c = 0; c < cols; c++) {
            fill(b.column(c), out, c, n);
        }
        return out;
    }

    private void fill(Column col, Object[][] out, int c, int n) {
        Column values = col;
        byte[] nulls = null;
        if (col instanceof NullableColumn nc) {
            values = nc.nested();
            nulls = nc.nullMap();
        }
        if (values instanceof Int64Column lc) {
            long[] v = longs.length >= n ? longs : (longs = new long[n]);
            lc.copyTo(v, 0);
            if (lc.isUnsigned() && !uint64AsLong) {
                for (int r = 0; r < n; r++) {
                    out[r][c] = nulls != null && nulls[r] != 0 ? null : unsigned(v[r]);
                }
            } else {
                for (int r = 0; r < n; r++) {
                    out[r][c] = nulls != null && nulls[r] != 0 ? null : Long.valueOf(v[r]);
                }
            }
        } else if (values instanceof Float64Column fc) {
            double[] v = doubles.length >= n ? doubles : (doubles = new double[n]);
            fc.copyTo(v, 0);
            for (int r = 0; r < n; r++) {
                out[r][c] = nulls != null && nulls[r] != 0 ? null : Double.valueOf(v[r]);
            }
        } else if (values instanceof StringColumn sc) {
            for (int r = 0; r < n; r++) {
                out[r][c] = nulls != null && nulls[r] != 0 ? null : sc.getString(r);
            }
        } else {
            for (int r = 0; r < n; r++) {
                out[r][c] = col.getObject(r);
            }
        }
    }

    /** The UInt64 whose raw 64 bits are {@code bits}, exactly. */
    static BigInteger unsigned(long bits) {
        BigInteger v = BigInteger.valueOf(bits);
        return bits >= 0 ? v : v.add(TWO_TO_64);
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
