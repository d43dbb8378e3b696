package dev.clickhousetcp.io;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Buffered little-endian writer of the native protocol's primitives, per ClickHouse
 * {@code src/IO/VarInt.h} and {@code WriteHelpers.h}.
 *
 * <p>When chunked framing is on (protocol revision 54470+, negotiated in the Addendum), every
 * {@link #flush()} ends one packet: the buffered bytes go out as {@code [UInt32 LE size][bytes]}
 * chunks followed by a zero-size terminator; a buffer that fills mid-packet goes out as a chunk
 * without terminator. Not thread-safe: a writer belongs to one connection.
 */
public final class BinaryWriter {
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final OutputStream out;
    private final byte[] buf;
    private int pos;
    private boolean chunked;
    private long totalWritten;

    /**
     * Creates a writer over {@code out}, with chunked framing off.
     *
     * @param out        the stream to write to (a socket's or a compressing stream); not closed by this writer
     * @param bufferSize bytes buffered before a write to {@code out}; at least 16 (a VarUInt or a
     *                   fixed-width value must fit whole)
     * @throws IllegalArgumentException for a smaller buffer
     */
    public BinaryWriter(OutputStream out, int bufferSize) {
        if (bufferSize < 16) {
            throw new IllegalArgumentException("bufferSize must be at least 16 bytes, got " + bufferSize);
        }
        this.out = out;
        this.buf = new byte[bufferSize];
    }

    /**
     * Switches chunked framing on or off for everything written after this call.
     *
     * @param chunked {@code true} once the Addendum has negotiated chunked client-to-server packets
     */
    public void setChunked(boolean chunked) {
        this.chunked = chunked;
    }

    /**
     * Bytes handed to the underlying stream so far (payload, without chunk headers).
     *
     * @return the payload bytes written to this writer since it was created, those still buffered included
     */
    public long bytesWritten() {
        return totalWritten + pos;
    }

    private void drain(boolean endOfPacket) throws IOException {
        if (chunked) {
            byte[] header = new byte[4];
            if (pos > 0) {
                INT.set(header, 0, pos);
                out.write(header, 0, 4);
                out.write(buf, 0, pos);
            }
            if (endOfPacket) {
                INT.set(header, 0, 0);
                out.write(header, 0, 4);
            }
        } else if (pos > 0) {
            out.write(buf, 0, pos);
        }
        totalWritten += pos;
        pos = 0;
    }

    private void ensure(int n) throws IOException {
        if (buf.length - pos < n) {
            drain(false);
        }
    }

    /**
     * Writes a UInt8 (or Int8).
     *
     * @param v the value; only its low 8 bits are written
     * @throws IOException when a buffer drain to the stream fails
     */
    public void writeUInt8(int v) throws IOException {
        ensure(1);
        buf[pos++] = (byte) v;
    }

    /**
     * Writes a Bool as one byte, 1 or 0.
     *
     * @param v the value
     * @throws IOException when a buffer drain to the stream fails
     */
    public void writeBoolean(boolean v) throws IOException {
        writeUInt8(v ? 1 : 0);
    }

    /**
     * Writes a little-endian Int16 (or UInt16).
     *
     * @param v the value; only its low 16 bits are written
     * @throws IOException when a buffer drain to the stream fails
     */
    public void writeInt16(int v) throws IOException {
        ensure(2);
        SHORT.set(buf, pos, (short) v);
        pos += 2;
    }

    /**
     * Writes a little-endian Int32 (or the bits of a UInt32).
     *
     * @param v the value
     * @throws IOException when a buffer drain to the stream fails
     */
    public void writeInt32(int v) throws IOException {
        ensure(4);
        INT.set(buf, pos, v);
        pos += 4;
    }

    /**
     * Writes a little-endian Int64 (or the bits of a UInt64).
     *
     * @param v the value
     * @throws IOException when a buffer drain to the stream fails
     */
    public void writeInt64(long v) throws IOException {
        ensure(8);
        LONG.set(buf, pos, v);
        pos += 8;
    }

    /**
     * Bytes per element of a column array {@link #writeLittleEndian} and {@link #putLittleEndian}
     * take: 8 for {@code long[]} and {@code double[]}, 4 for {@code int[]} and {@code float[]}.
     *
     * @param array a {@code long[]}, {@code double[]}, {@code int[]} or {@code float[]}
     * @return the element width in bytes, 8 or 4
     * @throws IllegalArgumentException for any other object
     */
    public static int elementWidth(Object array) {
        if (array instanceof long[] || array instanceof double[]) {
            return 8;
        }
        if (array instanceof int[] || array instanceof float[]) {
            return 4;
        }
        throw new IllegalArgumentException("not a long[], double[], int[] or float[]: " + array);
    }

    /**
     * Puts {@code array[from, from + n)} into {@code dst} at {@code p} as ClickHouse stores a
     * fixed-width column: little-endian Int64/UInt64 for {@code long[]}, Int32/UInt32 for {@code int[]},
     * IEEE 754 bits for {@code double[]} (Float64) and {@code float[]} (Float32) (ClickHouse
     * {@code SerializationNumber}). {@code dst} must have room for {@code n} elements. Returns the end.
     *
     * @param array a {@code long[]}, {@code double[]}, {@code int[]} or {@code float[]}; any other object
     *              is cast to {@code float[]} and fails with {@link ClassCastException}
     * @param from  index of the first element to put
     * @param n     number of elements to put
     * @param dst   destination bytes
     * @param p     offset in {@code dst} of the first byte
     * @return the offset in {@code dst} just after the last byte put
     */
    public static int putLittleEndian(Object array, int from, int n, byte[] dst, int p) {
        int end = from + n;
        if (array instanceof long[] a) {
            for (int i = from; i < end; i++, p += 8) {
                LONG.set(dst, p, a[i]);
            }
        } else if (array instanceof double[] a) {
            for (int i = from; i < end; i++, p += 8) {
                LONG.set(dst, p, Double.doubleToRawLongBits(a[i]));
            }
        } else if (array instanceof int[] a) {
            for (int i = from; i < end; i++, p += 4) {
                INT.set(dst, p, a[i]);
            }
        } else {
            float[] a = (float[]) array;
            for (int i = from; i < end; i++, p += 4) {
                INT.set(dst, p, Float.floatToRawIntBits(a[i]));
            }
        }
        return p;
    }

    /**
     * Writes {@code array[off, off + len)} as {@link #putLittleEndian} lays it out, a buffer at a time.
     *
     * @param array a {@code long[]}, {@code double[]}, {@code int[]} or {@code float[]}
     * @param off   index of the first element to write
     * @param len   number of elements to write
     * @throws IOException when a buffer drain to the stream fails
     * @throws IllegalArgumentException when {@code array} is not one of the four array types
     */
    public void writeLittleEndian(Object array, int off, int len) throws IOException {
        int width = elementWidth(array);
        for (int end = off + len, n; off < end; off += n) {
            ensure(width);
            n = Math.min(end - off, (buf.length - pos) / width);
            pos = putLittleEndian(array, off, n, buf, pos);
        }
    }

    /**
     * Writes a VarUInt (unsigned LEB128, 1 to 10 bytes), as ClickHouse {@code writeVarUInt}.
     *
     * @param v the value, read as the 64 bits of a UInt64 (a negative value takes 10 bytes)
     * @throws IOException when a buffer drain to the stream fails
     */
    public void writeVarUInt(long v) throws IOException {
        ensure(10);
        pos = putVarUInt(v, buf, pos);
    }

    /**
     * Puts {@code v} as a VarUInt (unsigned LEB128, at most 10 bytes; ClickHouse {@code src/IO/VarInt.h})
     * into {@code dst} at {@code p}, which must have room for 10 bytes; returns the end.
     *
     * @param v   the value, read as the 64 bits of a UInt64
     * @param dst destination bytes
     * @param p   offset in {@code dst} of the first byte
     * @return the offset in {@code dst} just after the last byte put
     */
    public static int putVarUInt(long v, byte[] dst, int p) {
        while ((v & ~0x7FL) != 0) {
            dst[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        dst[p++] = (byte) v;
        return p;
    }

    /**
     * Writes {@code s} as a String value: VarUInt byte length, then its UTF-8 bytes (see {@link #writeUtf8}).
     *
     * @param s the string; not {@code null}
     * @throws IOException when a buffer drain to the stream fails
     */
    public void writeString(String s) throws IOException {
        writeUtf8(s);
    }

    /**
     * Writes {@code s} as ClickHouse writes a String value ({@code SerializationString}): the VarUInt
     * length of its UTF-8 form,
     * then those bytes, equal to {@code s.getBytes(UTF_8)} (an unpaired surrogate becomes
     * {@code '?'}). Strings of up to 42 chars (at most 126 UTF-8 bytes, so a one-byte length) are
     * encoded straight into the buffer in one pass; longer ones (or any when the buffer is tiny) go
     * through {@code getBytes}.
     *
     * @param s the string; not {@code null}
     * @throws IOException when a buffer drain to the stream fails
     */
    public void writeUtf8(String s) throws IOException {
        int n = s.length();
        if (n > SHORT_UTF8_CHARS || 1 + 3 * n > buf.length) {
            writeStringBytes(s.getBytes(StandardCharsets.UTF_8));
            return;
        }
        ensure(1 + 3 * n);
        pos = putShortUtf8(s, buf, pos);
    }

    /**
     * Longest string {@link #putShortUtf8} takes: 42 chars are at most 126 UTF-8 bytes, so the
     * length is one VarUInt byte.
     */
    public static final int SHORT_UTF8_CHARS = 42;

    /**
     * Puts a String value of at most {@link #SHORT_UTF8_CHARS} chars in wire form at {@code p}: a one-byte length (its
     * UTF-8 form is at most 126 bytes), then the UTF-8 bytes; {@code dst} must have room for
     * {@code 1 + 3 * s.length()} bytes. Returns the end.
     *
     * @param s   the string, at most {@link #SHORT_UTF8_CHARS} chars (not checked)
     * @param dst destination bytes
     * @param p   offset in {@code dst} of the length byte
     * @return the offset in {@code dst} just after the last UTF-8 byte
     */
    public static int putShortUtf8(String s, byte[] dst, int p) {
        int n = s.length();
        int start = p + 1;
        int q = start;
        int i = 0;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                break;
            }
            dst[q++] = (byte) c;
        }
        if (i < n) {
            q = encodeUtf8(s, i, dst, q);
        }
        dst[p] = (byte) (q - start);
        return q;
    }

    /**
     * Encodes {@code s.substring(from)} as UTF-8 into {@code dst} at {@code p} and returns the end;
     * {@code dst} must have room for {@code 3 * (s.length() - from)} bytes. The bytes equal those of
     * {@code getBytes(UTF_8)}: a surrogate pair becomes one 4-byte sequence, an unpaired surrogate
     * {@code '?'}.
     *
     * @param s    the string
     * @param from index of the first char to encode
     * @param dst  destination bytes
     * @param p    offset in {@code dst} of the first byte
     * @return the offset in {@code dst} just after the last byte put
     */
    public static int encodeUtf8(String s, int from, byte[] dst, int p) {
        int n = s.length();
        for (int i = from; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                dst[p++] = (byte) c;
            } else if (c < 0x800) {
                dst[p++] = (byte) (0xC0 | (c >> 6));
                dst[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                char next = i + 1 < n ? s.charAt(i + 1) : 0;
                if (Character.isHighSurrogate(c) && Character.isLowSurrogate(next)) {
                    int cp = Character.toCodePoint(c, next);
                    dst[p++] = (byte) (0xF0 | (cp >> 18));
                    dst[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    dst[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    dst[p++] = (byte) (0x80 | (cp & 0x3F));
                    i++;
                } else {
                    dst[p++] = '?';
                }
            } else {
                dst[p++] = (byte) (0xE0 | (c >> 12));
                dst[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                dst[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return p;
    }

    /**
     * Writes raw bytes as a String value: VarUInt length, then the bytes (no UTF-8 check).
     *
     * @param b the value's bytes
     * @throws IOException when a buffer drain to the stream fails
     */
    public void writeStringBytes(byte[] b) throws IOException {
        writeStringBytes(b, 0, b.length);
    }

    /**
     * Writes {@code b[off, off + len)} as a String value: VarUInt length, then the bytes.
     *
     * @param b   array holding the value's bytes
     * @param off offset of the first byte in {@code b}
     * @param len the value's length in bytes
     * @throws IOException when a buffer drain to the stream fails
     */
    public void writeStringBytes(byte[] b, int off, int len) throws IOException {
        writeVarUInt(len);
        writeBytes(b, off, len);
    }

    /**
     * Writes {@code b[off, off + len)} as is, with no length prefix. Without chunked framing, a run at
     * least as long as the buffer goes to the stream in one write straight from {@code b} after the
     * buffered bytes (no copy through the buffer); {@code b} is not kept after the call returns.
     *
     * @param b   source array
     * @param off offset of the first byte in {@code b}
     * @param len number of bytes
     * @throws IOException when a buffer drain or the write to the stream fails
     */
    public void writeBytes(byte[] b, int off, int len) throws IOException {
        if (len <= buf.length - pos) {
            System.arraycopy(b, off, buf, pos, len);
            pos += len;
            return;
        }
        if (!chunked && len >= buf.length) {
            drain(false);
            out.write(b, off, len);
            totalWritten += len;
            return;
        }
        while (len > 0) {
            if (pos == buf.length) {
                drain(false);
            }
            int n = Math.min(len, buf.length - pos);
            System.arraycopy(b, off, buf, pos, n);
            pos += n;
            off += n;
            len -= n;
        }
    }

    /**
     * Ends the current packet and pushes everything to the socket. With chunked framing on, this writes
     * the zero-size chunk that terminates the packet, even when nothing is buffered.
     *
     * @throws IOException when writing to or flushing the stream fails
     */
    public void flush() throws IOException {
        drain(true);
        out.flush();
    }
}
