package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.Float32Column;
import dev.clickhousetcp.data.Float64Column;

/** Float32 / Float64 / BFloat16 into double or float lanes. */
final class FloatExtractor extends Extractor {
    FloatExtractor(Lane lane) {
        super(lane);
    }

    @Override
    void extract(Column c, int n, Object out, byte[] skip) {
        if (lane == Lane.DOUBLE) {
            double[] o = (double[]) out;
            if (c instanceof Float64Column f && n == f.size()) {
                f.copyTo(o, 0);
            } else if (c instanceof Float32Column f && n == f.size()) {
                f.copyTo(o, 0);
            } else {
                for (int i = 0; i < n; i++) {
                    o[i] = c.getDouble(i);
                }
            }
        } else {
            float[] o = (float[]) out;
            if (c instanceof Float32Column f && n == f.size()) {
                f.copyTo(o, 0);
            } else {
                for (int i = 0; i < n; i++) {
                    o[i] = (float) c.getDouble(i);
                }
            }
        }
    }
}
