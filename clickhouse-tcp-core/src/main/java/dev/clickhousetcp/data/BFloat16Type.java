package dev.clickhousetcp.data;


/**
 * BFloat16: the upper 16 bits of a Float32, 2 bytes little-endian per value (ClickHouse
 * {@code base/BFloat16.h}). The writer accepts any {@code Number} or numeric {@code String}
 * ({@code inf}, {@code -inf}, {@code nan} too): the value is rounded to Float32, then its lower 16 bits
 * are dropped (truncation, as ClickHouse's Float32 to BFloat16 conversion does).
 * {@code appendAll(float[])} takes a bulk path.
 */
public final class BFloat16Type extends FixedWidthType {
    BFloat16Type(String name) {
        super(name, 2, BFloat16Column::new);
    }

    /** The BFloat16 bits of {@code f} (truncated). */
    static short bits(float f) {
        return (short) (Float.floatToIntBits(f) >>> 16);
    }

    @Override
    public ColumnWriter newWriter() {
        return new FixedWriter(this) {
            @Override
            public void append(Object v) {
                if (v == null) {
                    throw ColumnWriter.notNullable(type.name());
                }
                float f = v instanceof Float x ? x : (float) Convert.toDouble(type, v);
                int off = slot();
                SHORT.set(buf, off, bits(f));
            }

            @Override
            public void appendAll(Object values) {
                if (values instanceof float[] a) {
                    for (float x : a) {
                        int off = slot();
                        SHORT.set(buf, off, bits(x));
                    }
                } else {
                    ColumnWriter.appendEach(this, values);
                }
            }
        };
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return ValueTypes.isFloating(v, strict);
    }
}
