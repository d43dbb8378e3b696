package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.TupleColumn;

/** Tuple(...) into a record: element loops, then the record's constructor per row. */
final class TupleRecordExtractor extends Extractor {
    private final Extractor[] elements;
    private final int[] index;
    private final Access.RowConstructor ctor;

    TupleRecordExtractor(Extractor[] elements, int[] index, Access.RowConstructor ctor) {
        super(Lane.OBJECT);
        this.elements = elements;
        this.index = index;
        this.ctor = ctor;
    }

    @Override
    void extract(Column c, int n, Object out, byte[] skip) {
        TupleColumn t = (TupleColumn) c;
        Object[] lanes = new Object[elements.length];
        for (int k = 0; k < elements.length; k++) {
            lanes[k] = elements[k].lane.newArray(n);
            elements[k].extract(t.element(index[k]), n, lanes[k], skip);
        }
        Object[] o = (Object[]) out;
        for (int i = 0; i < n; i++) {
            o[i] = skipped(skip, i) ? null : ctor.create(lanes, i);
        }
    }
}
