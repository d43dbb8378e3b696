package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.LowCardinalityColumn;

import java.util.Arrays;

import static dev.clickhousetcp.mapping.Extractors.nullIntoPrimitive;

/** LowCardinality(T): the dictionary entries used by the block are converted once, then gathered by key. */
final class LowCardinalityExtractor extends Extractor {
    private final Extractor dictEx;
    private final boolean nullable;
    private final boolean primitive;
    private final String typeName;

    LowCardinalityExtractor(Extractor dictEx, boolean nullable, boolean primitive, String typeName) {
        super(dictEx.lane);
        this.dictEx = dictEx;
        this.nullable = nullable;
        this.primitive = primitive;
        this.typeName = typeName;
    }

    @Override
    void extract(Column c, int n, Object out, byte[] skip) {
        LowCardinalityColumn lc = (LowCardinalityColumn) c;
        Column dict = lc.dictionary();
        int ds = dict.size();
        int[] keys = new int[n];
        byte[] unused = new byte[ds];
        Arrays.fill(unused, (byte) 1);
        for (int i = 0; i < n; i++) {
            int k = lc.key(i);
            keys[i] = k;
            if (!skipped(skip, i)) {
                if (nullable && k == 0) {
                    if (primitive) {
                        throw nullIntoPrimitive(i, typeName, lane);
                    }
                } else {
                    unused[k] = 0;
                }
            }
        }
        Object da = lane.newArray(ds);
        dictEx.extract(dict, ds, da, unused);
        lane.gather(da, keys, n, out);
        if (lane == Lane.OBJECT && (skip != null || nullable)) {
            Object[] o = (Object[]) out;
            for (int i = 0; i < n; i++) {
                if (skipped(skip, i) || nullable && keys[i] == 0) {
                    o[i] = null;
                }
            }
        }
    }
}
