package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.ArrayColumn;
import dev.clickhousetcp.data.Column;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;

/** Array(T) into a List, Set, or Java array: elements of the whole block converted in one loop, then sliced per row. */
final class ArrayExtractor extends Extractor {
    static final int LIST = 0;
    static final int SET = 1;
    static final int PRIMITIVE_ARRAY = 2;
    static final int OBJECT_ARRAY = 3;
    private final Extractor el;
    private final int shape;
    private final Class<?> component;

    ArrayExtractor(Extractor el, int shape, Class<?> component) {
        super(Lane.OBJECT);
        this.el = el;
        this.shape = shape;
        this.component = component;
    }

    @Override
    void extract(Column c, int n, Object out, byte[] skip) {
        ArrayColumn a = (ArrayColumn) c;
        int total = n == 0 ? 0 : a.start(n - 1) + a.length(n - 1);
        Object ea = el.lane.newArray(total);
        el.extract(a.elements(), total, ea, null);
        Object[] o = (Object[]) out;
        for (int i = 0; i < n; i++) {
            if (skipped(skip, i)) {
                o[i] = null;
                continue;
            }
            int s = a.start(i);
            int e = s + a.length(i);
            o[i] = switch (shape) {
                case LIST -> new ArrayList<>(Arrays.asList((Object[]) ea).subList(s, e));
                case SET -> new LinkedHashSet<>(Arrays.asList((Object[]) ea).subList(s, e));
                case PRIMITIVE_ARRAY -> Lane.slice(ea, s, e);
                default -> {
                    Object arr = Array.newInstance(component, e - s);
                    System.arraycopy(ea, s, arr, 0, e - s);
                    yield arr;
                }
            };
        }
    }
}
