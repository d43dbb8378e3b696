package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.Column;

/** Any per-row conversion into an {@code Object[]} lane. */
final class ObjectExtractor extends Extractor {
    private final Extractors.RowFn fn;

    ObjectExtractor(Extractors.RowFn fn) {
        super(Lane.OBJECT);
        this.fn = fn;
    }

    @Override
    void extract(Column c, int n, Object out, byte[] skip) {
        Object[] o = (Object[]) out;
        if (skip == null) {
            for (int i = 0; i < n; i++) {
                o[i] = fn.apply(c, i);
            }
        } else {
            for (int i = 0; i < n; i++) {
                o[i] = skip[i] != 0 ? null : fn.apply(c, i);
            }
        }
    }
}
