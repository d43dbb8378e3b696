package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Little-endian byte cursor and growable byte sink for values held in memory (RowBinary values, transcoding). */
final class Bytes {
    private Bytes() {
    }

    /** Reads a region {@code [pos, end)} of a byte array; every read is bounds-checked. Not thread-safe. */
    static final class Cursor {
        final byte[] buf;
        int pos;
        final int end;

        Cursor(byte[] buf, int pos, int end) {
            this.buf = buf;
            this.pos = pos;
            this.end = end;
        }

        boolean atEnd() {
            return pos == end;
        }

        void need(long n) {
            if (n < 0 || n > end - pos) {
                throw new ClickHouseProtocolException("binary value ends after " + (end - pos) + " bytes, " + n
                        + " more expected");
            }
        }

        int readUInt8() {
            need(1);
            return buf[pos++] & 0xFF;
        }

        long readLong(int width) {
            need(width);
            long v = 0;
            for (int i = 0; i < width; i++) {
                v |= (long) (buf[pos + i] & 0xFF) << (8 * i);
            }
            pos += width;
            return v;
        }

        long readVarUInt() {
            long result = 0;
            for (int i = 0; i < 10; i++) {
                int b = readUInt8();
                result |= (long) (b & 0x7F) << (7 * i);
                if ((b & 0x80) == 0) {
                    return result;
                }
            }
            throw new ClickHouseProtocolException("VarUInt longer than 10 bytes");
        }

        /** A VarUInt count that must not exceed {@code max} (nor the bytes left when each item takes a byte). */
        int readCount(long max, String what) {
            long v = readVarUInt();
            if (v < 0 || v > max) {
                throw new ClickHouseProtocolException(what + " " + Long.toUnsignedString(v) + " exceeds the limit " + max);
            }
            return (int) v;
        }

        String readString() {
            long n = readVarUInt();
            need(n); // the bytes left after the length prefix
            int len = (int) n;
            String s = new String(buf, pos, len, StandardCharsets.UTF_8);
            pos += len;
            return s;
        }

        /** Copies {@code n} bytes into {@code out}. */
        void copyTo(Sink out, int n) {
            need(n);
            out.write(buf, pos, n);
            pos += n;
        }
    }

    /** Growable little-endian output buffer. Not thread-safe. */
    static final class Sink {
        byte[] buf = new byte[256];
        int size;

        private void ensure(int n) {
            if (size + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
            }
        }

        void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, size, len);
            size += len;
        }

        void writeUInt8(int v) {
            ensure(1);
            buf[size++] = (byte) v;
        }

        void writeLong(long v, int width) {
            ensure(width);
            for (int i = 0; i < width; i++) {
                buf[size++] = (byte) (v >>> (8 * i));
            }
        }

        void writeZeros(int n) {
            ensure(n);
            Arrays.fill(buf, size, size + n, (byte) 0);
            size += n;
        }

        void writeVarUInt(long v) {
            while ((v & ~0x7FL) != 0) {
                writeUInt8((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            writeUInt8((int) v);
        }

        void writeString(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            writeVarUInt(b.length);
            write(b, 0, b.length);
        }

        void writeSink(Sink other) {
            write(other.buf, 0, other.size);
        }
    }
}
