package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.Column;

/** {@code Column.getDouble} per row (Decimal, Int128..). */
final class DoubleFunctionExtractor extends Extractor {
    DoubleFunctionExtractor() {
        super(Lane.DOUBLE);
    }

    @Override
    void extract(Column c, int n, Object out, byte[] skip) {
        double[] o = (double[]) out;
        for (int i = 0; i < n; i++) {
            o[i] = skipped(skip, i) ? 0 : c.getDouble(i);
        }
    }
}
