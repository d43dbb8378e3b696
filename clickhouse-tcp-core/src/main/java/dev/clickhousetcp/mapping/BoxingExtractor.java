package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.Column;

/** A primitive loop, then boxing (for {@code Long}, {@code Integer}, ... targets). */
final class BoxingExtractor extends Extractor {
    private final Extractor prim;

    BoxingExtractor(Extractor prim) {
        super(Lane.OBJECT);
        this.prim = prim;
    }

    @Override
    void extract(Column c, int n, Object out, byte[] skip) {
        Object tmp = prim.lane.newArray(n);
        prim.extract(c, n, tmp, skip);
        Object[] o = (Object[]) out;
        switch (prim.lane) {
            case LONG -> {
                long[] a = (long[]) tmp;
                for (int i = 0; i < n; i++) {
                    o[i] = skipped(skip, i) ? null : Long.valueOf(a[i]);
                }
            }
            case INT -> {
                int[] a = (int[]) tmp;
                for (int i = 0; i < n; i++) {
                    o[i] = skipped(skip, i) ? null : Integer.valueOf(a[i]);
                }
            }
            case SHORT -> {
                short[] a = (short[]) tmp;
                for (int i = 0; i < n; i++) {
                    o[i] = skipped(skip, i) ? null : Short.valueOf(a[i]);
                }
            }
            case BYTE -> {
                byte[] a = (byte[]) tmp;
                for (int i = 0; i < n; i++) {
                    o[i] = skipped(skip, i) ? null : Byte.valueOf(a[i]);
                }
            }
            case DOUBLE -> {
                double[] a = (double[]) tmp;
                for (int i = 0; i < n; i++) {
                    o[i] = skipped(skip, i) ? null : Double.valueOf(a[i]);
                }
            }
            case FLOAT -> {
                float[] a = (float[]) tmp;
                for (int i = 0; i < n; i++) {
                    o[i] = skipped(skip, i) ? null : Float.valueOf(a[i]);
                }
            }
            case BOOLEAN -> {
                boolean[] a = (boolean[]) tmp;
                for (int i = 0; i < n; i++) {
                    o[i] = skipped(skip, i) ? null : Boolean.valueOf(a[i]);
                }
            }
            default -> throw new IllegalStateException();
        }
    }
}
