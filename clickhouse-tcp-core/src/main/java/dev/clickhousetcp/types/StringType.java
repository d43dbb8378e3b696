package dev.clickhousetcp.types;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.StringColumn;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * String: each value a VarUInt length plus raw bytes (the per-value layout used below revision 54492,
 * ClickHouse {@code SerializationString}). The writer accepts {@code String} (UTF-8 encoded),
 * {@code byte[]} (sent as is) and any {@code CharSequence}.
 */
public final class StringType extends DataType {
    StringType(String name) {
        super(name);
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx) throws IOException {
        int[] offsets = ctx.ints(rows);
        byte[] data = in.readStringColumn(rows, offsets, Math.min(ctx.limits().maxColumnBytes(), Integer.MAX_VALUE - 16),
                ctx);
        return new StringColumn(this, rows, data, offsets);
    }

    @Override
    public ColumnWriter newWriter() {
        return new Writer(this);
    }

    static final class Writer implements ColumnWriter {
        private final DataType type;
        private byte[] data = new byte[4096];
        private int[] ends = new int[256];
        private int count;
        private int used;

        Writer(DataType type) {
            this.type = type;
        }

        @Override
        public DataType type() {
            return type;
        }

        @Override
        public void append(Object v) {
            byte[] b;
            if (v instanceof String s) {
                b = s.getBytes(StandardCharsets.UTF_8);
            } else if (v instanceof byte[] bytes) {
                b = bytes;
            } else if (v instanceof CharSequence cs) {
                b = cs.toString().getBytes(StandardCharsets.UTF_8);
            } else if (v == null) {
                throw new ClickHouseTypeException("NULL is not a value of non-Nullable type " + type.name());
            } else {
                throw ColumnWriter.cannotConvert(type, v);
            }
            appendBytes(b, 0, b.length);
        }

        void appendBytes(byte[] b, int off, int len) {
            if (used + len > data.length) {
                data = Arrays.copyOf(data, Math.max(data.length * 2, used + len));
            }
            System.arraycopy(b, off, data, used, len);
            used += len;
            if (count == ends.length) {
                ends = Arrays.copyOf(ends, count * 2);
            }
            ends[count++] = used;
        }

        @Override
        public void appendDefault() {
            appendBytes(data, 0, 0);
        }

        @Override
        public int size() {
            return count;
        }

        @Override
        public void writeData(BinaryWriter out) throws IOException {
            int start = 0;
            for (int i = 0; i < count; i++) {
                out.writeStringBytes(data, start, ends[i] - start);
                start = ends[i];
            }
        }

        @Override
        public void reset() {
            count = 0;
            used = 0;
        }
    }
}
