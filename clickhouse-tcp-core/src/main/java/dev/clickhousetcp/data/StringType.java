package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
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
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        ReadContext.StringData s = ctx.readStringColumn(in, rows,
                Math.min(ctx.limits().maxColumnBytes(), Integer.MAX_VALUE - 16));
        return new StringColumn(this, rows, s.data(), s.offsets());
    }

    @Override
    public ColumnWriter newWriter() {
        return new Writer(this);
    }

    static final class Writer implements ColumnWriter {
        private final DataType type;
        /** The rows in wire form, back to back: each a VarUInt byte length followed by the bytes. */
        private byte[] data = new byte[4096];
        private int count;
        private int used;
        /**
         * A caller's {@code String[]} (no nulls) taken whole by {@link #appendAllShared} into an empty
         * writer: encoded straight into the output when the block is written, or into the buffer if
         * more values follow.
         */
        private String[] borrowed;

        Writer(DataType type) {
            this.type = type;
        }

        @Override
        public DataType type() {
            return type;
        }

        @Override
        public void append(Object v) {
            if (v instanceof String s) {
                appendUtf8(s);
            } else if (v instanceof byte[] bytes) {
                appendBytes(bytes, 0, bytes.length);
            } else if (v instanceof CharSequence cs) {
                appendUtf8(cs.toString());
            } else if (v == null) {
                throw ColumnWriter.notNullable(type.name());
            } else {
                throw ColumnWriter.cannotConvert(type, v);
            }
        }

        @Override
        public void appendAllShared(Object values) {
            if (values instanceof String[] a && count == 0 && borrowed == null) {
                for (String s : a) {
                    if (s == null) {
                        appendAll(a); // copies the rows before the NULL, then fails at its index
                        return;
                    }
                }
                borrowed = a;
                count = a.length;
            } else {
                appendAll(values);
            }
        }

        /** Encodes a borrowed array into the buffer, so that more values can follow it. */
        private void materialize() {
            String[] a = borrowed;
            borrowed = null;
            count = 0;
            used = 0;
            appendAll(a);
        }

        /**
         * Appends {@code s} as UTF-8 (the bytes of {@code s.getBytes(UTF_8)}, an unpaired surrogate as
         * {@code '?'}) in wire form. Strings of up to {@link BinaryWriter#SHORT_UTF8_CHARS} chars are
         * encoded straight into the buffer in one pass.
         */
        void appendUtf8(String s) {
            if (borrowed != null) {
                materialize();
            }
            int n = s.length();
            if (n > BinaryWriter.SHORT_UTF8_CHARS) {
                byte[] b = s.getBytes(StandardCharsets.UTF_8);
                appendBytes(b, 0, b.length);
                return;
            }
            if (used + 1L + 3L * n > data.length) {
                grow(used + 1 + 3L * n);
            }
            used = BinaryWriter.putShortUtf8(s, data, used);
            count++;
        }

        private void grow(long needed) {
            if (needed > Integer.MAX_VALUE - 16) {
                throw new ClickHouseTypeException("column " + type.name() + " exceeds 2 GiB in one block");
            }
            data = Arrays.copyOf(data, (int) Math.max(Math.min((long) data.length * 2, Integer.MAX_VALUE - 16), needed));
        }

        @Override
        public void appendAll(Object values) {
            if (borrowed != null) {
                materialize();
            }
            if (values instanceof String[] a) {
                // size the buffer once from the first strings' lengths (ASCII assumed); it grows if that is short
                int sample = Math.min(a.length, 16);
                long chars = 0;
                for (int i = 0; i < sample; i++) {
                    chars += a[i] == null ? 0 : a[i].length();
                }
                long estimate = sample == 0 ? 0 : used + (chars * a.length + sample - 1) / sample + a.length + 256;
                if (estimate > data.length) {
                    grow(estimate);
                }
                for (String s : a) {
                    append(s); // a NULL fails there, at its own index
                }
            } else {
                ColumnWriter.appendEach(this, values);
            }
        }

        /** Appends {@code len} bytes of {@code b} from {@code off} as one value in wire form. */
        void appendBytes(byte[] b, int off, int len) {
            if (borrowed != null) {
                materialize();
            }
            if (10L + len > data.length - used) {
                grow(used + 10L + len);
            }
            int p = BinaryWriter.putVarUInt(len, data, used);
            System.arraycopy(b, off, data, p, len);
            used = p + len;
            count++;
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
            String[] a = borrowed;
            if (a != null) {
                for (String s : a) {
                    out.writeUtf8(s);
                }
                return;
            }
            out.writeBytes(data, 0, used);
        }

        @Override
        public void reset() {
            count = 0;
            used = 0;
            borrowed = null;
        }
    }

    @Override
    RowBinaryColumns.Builder rowBinaryBuilder(int depth) {
        return new RowBinaryColumns.StringBuilderB();
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return v instanceof CharSequence || v instanceof byte[];
    }

    @Override
    AggregateStateLayout rowBinaryLayout(String function) {
        return AggregateStateLayout.BLOB;
    }
}
