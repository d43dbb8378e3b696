package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.BoolColumn;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.EnumColumn;
import dev.clickhousetcp.data.Int32Column;
import dev.clickhousetcp.data.IntegerColumn;

import static dev.clickhousetcp.mapping.Extractors.outOfRange;

/** Fixed-width integer columns (Int*, UInt*, Bool, Enum numbers) into primitive lanes, range-checked. */
final class IntegerExtractor extends Extractor {
    private final boolean unsigned;
    private final boolean u64;
    private final String typeName;

    IntegerExtractor(Lane lane, int width, boolean unsigned, String typeName) {
        super(lane);
        this.unsigned = unsigned;
        this.u64 = width == 8 && unsigned;
        this.typeName = typeName;
    }

    @Override
    void extract(Column c, int n, Object out, byte[] skip) {
        if (lane == Lane.LONG) {
            long[] o = (long[]) out;
            copyLongs(c, n, o);
            if (u64) {
                for (int i = 0; i < n; i++) {
                    if (o[i] < 0 && !skipped(skip, i)) {
                        throw outOfRange(i, o[i], true, typeName, "long");
                    }
                }
            }
            return;
        }
        if (lane == Lane.INT && c instanceof Int32Column ic && !unsigned && n == ic.size()) {
            ic.copyTo((int[]) out, 0);
            return;
        }
        long[] v = new long[n];
        copyLongs(c, n, v);
        switch (lane) {
            case INT -> {
                int[] o = (int[]) out;
                for (int i = 0; i < n; i++) {
                    long x = v[i];
                    if (x != (int) x && !skipped(skip, i)) {
                        throw outOfRange(i, x, u64, typeName, "int");
                    }
                    o[i] = (int) x;
                }
            }
            case SHORT -> {
                short[] o = (short[]) out;
                for (int i = 0; i < n; i++) {
                    long x = v[i];
                    if (x != (short) x && !skipped(skip, i)) {
                        throw outOfRange(i, x, u64, typeName, "short");
                    }
                    o[i] = (short) x;
                }
            }
            case BYTE -> {
                byte[] o = (byte[]) out;
                for (int i = 0; i < n; i++) {
                    long x = v[i];
                    if (x != (byte) x && !skipped(skip, i)) {
                        throw outOfRange(i, x, u64, typeName, "byte");
                    }
                    o[i] = (byte) x;
                }
            }
            case BOOLEAN -> {
                boolean[] o = (boolean[]) out;
                for (int i = 0; i < n; i++) {
                    o[i] = v[i] != 0;
                }
            }
            case DOUBLE -> {
                double[] o = (double[]) out;
                for (int i = 0; i < n; i++) {
                    long x = v[i];
                    o[i] = u64 && x < 0 ? (double) (x >>> 1) * 2.0 + (x & 1) : x;
                }
            }
            case FLOAT -> {
                float[] o = (float[]) out;
                for (int i = 0; i < n; i++) {
                    long x = v[i];
                    o[i] = u64 && x < 0 ? (float) ((double) (x >>> 1) * 2.0 + (x & 1)) : (float) x;
                }
            }
            default -> throw new IllegalStateException(lane.name());
        }
    }

    /** The {@code n} values of {@code c} as longs, through the column's bulk copy when it has one. */
    private static void copyLongs(Column c, int n, long[] out) {
        if (n == c.size()) {
            if (c instanceof IntegerColumn ic) {
                ic.copyTo(out, 0);
                return;
            }
            if (c instanceof EnumColumn ec) {
                ec.copyTo(out, 0);
                return;
            }
            if (c instanceof BoolColumn bc) {
                bc.copyTo(out, 0);
                return;
            }
        }
        for (int i = 0; i < n; i++) {
            out[i] = c.getLong(i);
        }
    }
}
