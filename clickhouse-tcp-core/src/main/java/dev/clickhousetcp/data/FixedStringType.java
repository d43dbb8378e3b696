package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** FixedString(N): N bytes per value; shorter values are zero-padded, longer ones rejected. */
public final class FixedStringType extends FixedWidthType {
    private final int n;

    FixedStringType(String name, int n) {
        super(name, n, (t, rows, data) -> new FixedStringColumn(t, rows, data, n));
        if (n <= 0 || n > (1 << 20)) {
            throw new ClickHouseTypeException("FixedString length must be 1..1048576: " + name);
        }
        this.n = n;
    }

    /**
     * N: the bytes of every value.
     *
     * @return N, 1 to 1,048,576
     */
    public int length() {
        return n;
    }

    @Override
    public ColumnWriter newWriter() {
        return new FixedWriter(this) {
            @Override
            public void append(Object v) {
                byte[] b;
                if (v instanceof String s) {
                    b = s.getBytes(StandardCharsets.UTF_8);
                } else if (v instanceof byte[] bytes) {
                    b = bytes;
                } else {
                    throw ColumnWriter.cannotConvert(type, v);
                }
                if (b.length > n) {
                    throw new ClickHouseTypeException("value of " + b.length + " bytes is too long for " + type.name());
                }
                int off = slot();
                System.arraycopy(b, 0, buf, off, b.length);
                Arrays.fill(buf, off + b.length, off + n, (byte) 0);
            }
        };
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return v instanceof CharSequence || v instanceof byte[];
    }
}
