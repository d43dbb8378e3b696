package dev.clickhousetcp.data;

import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.util.Arrays;

/** Nullable(T): a null map (UInt8 per row) followed by T's data for every row (ClickHouse {@code SerializationNullable}). */
public final class NullableType extends DataType {
    private final DataType nested;

    NullableType(String name, DataType nested) {
        super(name);
        this.nested = nested;
    }

    /**
     * The type T of {@code Nullable(T)}.
     *
     * @return the type of the non-NULL values
     */
    public DataType nested() {
        return nested;
    }

    @Override
    public boolean isNullable() {
        return true;
    }

    @Override
    public DeserializationState readPrefix(BinaryReader in) throws IOException {
        return nested.readPrefix(in); // the nested values' state: the null map has none
    }

    @Override
    public void writePrefix(BinaryWriter out) throws IOException {
        nested.writePrefix(out);
    }

    /**
     * A column of this type over a null map and values read elsewhere (the block codec builds one from a sparse
     * column: absent rows are NULL, per ClickHouse src/DataTypes/Serializations/SerializationSparse.h).
     *
     * @param rows    number of rows
     * @param nullMap one byte per row, 1 for NULL; not copied
     * @param values  the nested type's column with {@code rows} rows (any value under a NULL); not copied
     * @return the Nullable column
     */
    public Column column(int rows, byte[] nullMap, Column values) {
        return new NullableColumn(this, rows, nullMap, values);
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        byte[] nullMap = readFixed(in, rows, 1, ctx, name);
        Column inner = nested.read(in, rows, ctx, state);
        return new NullableColumn(this, rows, nullMap, inner);
    }

    @Override
    public ColumnWriter newWriter() {
        ColumnWriter inner = nested.newWriter();
        return new CompositeWriter(this, inner) {
            private byte[] nulls = new byte[1024];

            private void mark(boolean isNull) {
                if (count == nulls.length) {
                    nulls = Arrays.copyOf(nulls, count * 2);
                }
                nulls[count++] = (byte) (isNull ? 1 : 0);
            }

            @Override
            public void append(Object value) {
                if (value == null || value instanceof java.util.Optional<?> o && o.isEmpty()) {
                    appendDefault();
                    return;
                }
                Object v = value instanceof java.util.Optional<?> o ? o.get() : value;
                inner.append(v);
                mark(false);
            }

            @Override
            public void appendDefault() {
                inner.appendDefault();
                mark(true);
            }

            @Override
            void writeOwnData(BinaryWriter out) throws IOException {
                out.writeBytes(nulls, 0, count);
            }
        };
    }

    @Override
    RowBinaryColumns.Builder rowBinaryBuilder(int depth) {
        return new RowBinaryColumns.NullableB(RowBinaryColumns.builder(nested(), depth + 1));
    }

    @Override
    boolean acceptsNull() {
        return true;
    }

    @Override
    DataType modifiedType() {
        return nested;
    }

    @Override
    AggregateStateLayout rowBinaryLayout(String function) {
        return AggregateStateLayout.nullableValue(nested().rowBinaryLayout(function));
    }
}
