package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.MapColumn;

import java.util.LinkedHashMap;
import java.util.Map;

/** Map(K, V) into a {@code LinkedHashMap} per row. */
final class MapExtractor extends Extractor {
    private final Extractor keys;
    private final Extractor values;

    MapExtractor(Extractor keys, Extractor values) {
        super(Lane.OBJECT);
        this.keys = keys;
        this.values = values;
    }

    @Override
    void extract(Column c, int n, Object out, byte[] skip) {
        MapColumn m = (MapColumn) c;
        int total = n == 0 ? 0 : m.start(n - 1) + m.length(n - 1);
        Object ka = keys.lane.newArray(total);
        Object va = values.lane.newArray(total);
        keys.extract(m.keys(), total, ka, null);
        values.extract(m.values(), total, va, null);
        Object[] o = (Object[]) out;
        for (int i = 0; i < n; i++) {
            if (skipped(skip, i)) {
                o[i] = null;
                continue;
            }
            int s = m.start(i);
            int e = s + m.length(i);
            Map<Object, Object> map = new LinkedHashMap<>(Math.max(4, (e - s) * 4 / 3 + 1));
            Object[] kk = (Object[]) ka;
            Object[] vv = (Object[]) va;
            for (int k = s; k < e; k++) {
                map.put(kk[k], vv[k]);
            }
            o[i] = map;
        }
    }
}
