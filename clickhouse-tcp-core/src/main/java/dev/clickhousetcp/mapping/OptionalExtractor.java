package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.Column;

import java.util.Optional;

/** {@code Optional} around a reference target; NULL becomes {@code Optional.empty()}. */
final class OptionalExtractor extends Extractor {
    private final Extractor inner;

    OptionalExtractor(Extractor inner) {
        super(Lane.OBJECT);
        if (inner.lane != Lane.OBJECT) {
            throw new IllegalArgumentException("Optional of a primitive");
        }
        this.inner = inner;
    }

    @Override
    void extract(Column c, int n, Object out, byte[] skip) {
        inner.extract(c, n, out, skip);
        Object[] o = (Object[]) out;
        for (int i = 0; i < n; i++) {
            o[i] = Optional.ofNullable(o[i]);
        }
    }
}
