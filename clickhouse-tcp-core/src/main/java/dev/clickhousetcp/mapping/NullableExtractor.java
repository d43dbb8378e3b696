package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.NullableColumn;

import static dev.clickhousetcp.mapping.Extractors.nullIntoPrimitive;

/** Nullable(T): NULL rows become {@code null}, or an error for a primitive target. */
final class NullableExtractor extends Extractor {
    private final Extractor inner;
    private final boolean primitive;
    private final String typeName;

    NullableExtractor(Extractor inner, boolean primitive, String typeName) {
        super(inner.lane);
        this.inner = inner;
        this.primitive = primitive;
        this.typeName = typeName;
    }

    @Override
    void extract(Column c, int n, Object out, byte[] skip) {
        NullableColumn nc = (NullableColumn) c;
        byte[] nm = nc.nullMap();
        if (primitive) {
            for (int i = 0; i < n; i++) {
                if (nm[i] != 0 && !skipped(skip, i)) {
                    throw nullIntoPrimitive(i, typeName, lane);
                }
            }
            inner.extract(nc.nested(), n, out, skip);
            return;
        }
        byte[] s = nm;
        if (skip != null) {
            s = new byte[n];
            for (int i = 0; i < n; i++) {
                s[i] = (byte) (nm[i] | skip[i]);
            }
        }
        inner.extract(nc.nested(), n, out, s);
        Object[] o = (Object[]) out;
        for (int i = 0; i < n; i++) {
            if (nm[i] != 0) {
                o[i] = null;
            }
        }
    }
}
