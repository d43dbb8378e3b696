package dev.clickhousetcp.types;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.StringColumn;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
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
                throw new ClickHouseTypeException("NULL is not a value of non-Nullable type " + type.name());
            } else {
                throw ColumnWriter.cannotConvert(type, v);
            }
        }

        /**
         * Appends {@code s} encoded as UTF-8 straight into the column buffer (no intermediate array);
         * the bytes equal {@code s.getBytes(UTF_8)}, an unpaired surrogate included (written as {@code '?'}).
         */
        @Override
        public void appendAllShared(Object values) {
            if (values instanceof String[] a && count == 0 && borrowed == null) {
                for (String s : a) {
                    if (s == null) {
                        throw new ClickHouseTypeException("NULL is not a value of non-Nullable type " + type.name());
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

        void appendUtf8(String s) {
            if (borrowed != null) {
                materialize();
            }
            int n = s.length();
            int p = used;
            if (n > data.length - p) {
                grow((long) p + n);
            }
            byte[] d = data;
            int i = 0;
            for (; i < n; i++) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    break;
                }
                d[p++] = (byte) c;
            }
            if (i < n) {
                p = appendNonAscii(s, i, p);
            }
            used = p;
            endRow();
        }

        private int appendNonAscii(String s, int i, int p) {
            long worst = (long) p + 3L * (s.length() - i);
            if (worst > data.length) {
                grow(worst);
            }
            return BinaryWriter.encodeUtf8(s, i, data, p);
        }

        private void grow(long needed) {
            if (needed > Integer.MAX_VALUE - 16) {
                throw new ClickHouseTypeException("column " + type.name() + " exceeds 2 GiB in one block");
            }
            data = Arrays.copyOf(data, (int) Math.max(Math.min((long) data.length * 2, Integer.MAX_VALUE - 16), needed));
        }

        private void endRow() {
            if (count == ends.length) {
                ends = Arrays.copyOf(ends, count * 2);
            }
            ends[count++] = used;
        }

        @Override
        public void appendAll(Object values) {
            if (borrowed != null) {
                materialize();
            }
            if (values instanceof String[] a) {
                if (count + a.length > ends.length) {
                    ends = Arrays.copyOf(ends, Math.max(ends.length * 2, count + a.length));
                }
                // size the buffer once from the first strings' lengths (ASCII assumed); it grows if that is short
                int sample = Math.min(a.length, 16);
                long chars = 0;
                for (int i = 0; i < sample; i++) {
                    chars += a[i] == null ? 0 : a[i].length();
                }
                long estimate = sample == 0 ? 0 : used + (chars * a.length + sample - 1) / sample + 16;
                if (estimate > data.length) {
                    grow(estimate);
                }
                for (int i = 0; i < a.length; i++) {
                    String s = a[i];
                    if (s == null) {
                        throw new ClickHouseTypeException("NULL is not a value of non-Nullable type " + type.name());
                    }
                    appendUtf8(s);
                }
            } else {
                ColumnWriter.appendEach(this, values);
            }
        }

        void appendBytes(byte[] b, int off, int len) {
            if (borrowed != null) {
                materialize();
            }
            if (len > data.length - used) {
                grow((long) used + len);
            }
            System.arraycopy(b, off, data, used, len);
            used += len;
            endRow();
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
            borrowed = null;
        }
    }
}
