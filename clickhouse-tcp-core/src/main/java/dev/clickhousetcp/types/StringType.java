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
        void appendUtf8(String s) {
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
            int n = s.length();
            long worst = (long) p + 3L * (n - i);
            if (worst > data.length) {
                grow(worst);
            }
            byte[] d = data;
            for (; i < n; i++) {
                char c = s.charAt(i);
                if (c < 0x80) {
                    d[p++] = (byte) c;
                } else if (c < 0x800) {
                    d[p++] = (byte) (0xC0 | (c >> 6));
                    d[p++] = (byte) (0x80 | (c & 0x3F));
                } else if (Character.isSurrogate(c)) {
                    char next = i + 1 < n ? s.charAt(i + 1) : 0;
                    if (Character.isHighSurrogate(c) && Character.isLowSurrogate(next)) {
                        int cp = Character.toCodePoint(c, next);
                        d[p++] = (byte) (0xF0 | (cp >> 18));
                        d[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                        d[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                        d[p++] = (byte) (0x80 | (cp & 0x3F));
                        i++;
                    } else {
                        d[p++] = '?';
                    }
                } else {
                    d[p++] = (byte) (0xE0 | (c >> 12));
                    d[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    d[p++] = (byte) (0x80 | (c & 0x3F));
                }
            }
            return p;
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
            if (values instanceof String[] a) {
                if (count + a.length > ends.length) {
                    ends = Arrays.copyOf(ends, Math.max(ends.length * 2, count + a.length));
                }
                long ascii = used; // the size if every string is ASCII: grow once for the common case
                for (String s : a) {
                    ascii += s == null ? 0 : s.length();
                }
                if (ascii > data.length) {
                    grow(ascii);
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
