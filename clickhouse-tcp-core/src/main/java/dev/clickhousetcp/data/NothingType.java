package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;

import java.io.IOException;

/** Nothing: no values; on the wire one placeholder byte per row (ClickHouse {@code SerializationNothing}). */
public final class NothingType extends DataType {
    NothingType(String name) {
        super(name);
    }

    @Override
    public boolean isNullable() {
        return true;
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        in.skip(rows);
        return new NothingColumn(this, rows);
    }

    @Override
    public ColumnWriter newWriter() {
        return new FixedWriter(this, 1) {
            @Override
            public void append(Object v) {
                if (v != null) {
                    throw new ClickHouseTypeException("type Nothing holds no values");
                }
                putLong('0');
            }

            @Override
            public void appendDefault() {
                putLong('0');
            }
        };
    }

    @Override
    RowBinaryColumns.Builder rowBinaryBuilder(int depth) {
        return new RowBinaryColumns.NothingB();
    }

    @Override
    boolean acceptsNull() {
        return true;
    }
}
