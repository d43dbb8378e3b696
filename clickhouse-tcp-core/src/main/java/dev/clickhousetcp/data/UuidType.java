package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;

import java.io.IOException;
import java.util.UUID;

/** UUID: two little-endian UInt64 halves, most significant half first. */
public final class UuidType extends DataType {
    UuidType(String name) {
        super(name);
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        return new UuidColumn(this, rows, readFixed(in, rows, 16, ctx, name));
    }

    @Override
    public ColumnWriter newWriter() {
        return new FixedWriter(this, 16) {
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
    int rowBinaryWidth() {
        return 16;
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return v instanceof UUID;
    }
}
