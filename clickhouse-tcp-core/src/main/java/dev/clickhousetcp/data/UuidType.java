package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.util.UUID;

/** UUID: two little-endian UInt64 halves, most significant half first. */
public final class UuidType extends FixedWidthType {
    UuidType(String name) {
        super(name, 16, UuidColumn::new);
    }

    @Override
    public ColumnWriter newWriter() {
        return new FixedWriter(this) {
            @Override
            public void append(Object v) {
                UUID u;
                if (v instanceof UUID x) {
                    u = x;
                } else if (v instanceof String s) {
                    try {
                        u = UUID.fromString(s.trim());
                    } catch (IllegalArgumentException e) {
                        throw new ClickHouseTypeException("cannot parse '" + s + "' as UUID", e);
                    }
                } else {
                    throw ColumnWriter.cannotConvert(type, v);
                }
                int off = slot();
                LONG.set(buf, off, u.getMostSignificantBits());
                LONG.set(buf, off + 8, u.getLeastSignificantBits());
            }
        };
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return v instanceof UUID;
    }
}
