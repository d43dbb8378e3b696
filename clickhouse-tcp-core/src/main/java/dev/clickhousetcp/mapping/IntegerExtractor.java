package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.FixedWidthColumn;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import static dev.clickhousetcp.mapping.Extractors.outOfRange;
import static dev.clickhousetcp.mapping.Extractors.readLongs;

/** Fixed-width integer columns (Int*, UInt*, Bool, Enum numbers) into primitive lanes, range-checked. */
final class IntegerExtractor extends Extractor {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final int width;
    private final boolean unsigned;
    private final boolean u64;
    private final String typeName;

    IntegerExtractor(Lane lane, int width, boolean unsigned, String typeName) {
        super(lane);
        this.width = width;
        this.unsigned = unsigned;
        this.u64 = width == 8 && unsigned;
        this.typeName = typeName;
    }

    @Override
    void extract(Column c, int n, Object out, byte[] skip) {
        byte[] d = ((FixedWidthColumn) c).rawBytes();
        if (lane == Lane.LONG) {
            long[] o = (long[]) out;
            readLongs(d, width, unsigned, n, o);
            if (u64) {
                for (int i = 0; i < n; i++) {
                    if (o[i] < 0 && !skipped(skip, i)) {
                        throw outOfRange(i, o[i], true, typeName, "long");
                    }
                }
            }
            return;
        }
        if (lane == Lane.INT && width == 4 && !unsigned) {
            int[] o = (int[]) out;
            for (int i = 0; i < n; i++) {
                o[i] = (int) INT.get(d, i << 2);
            }
            return;
        }
        long[] v = new long[n];
        readLongs(d, width, unsigned, n, v);
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
}
