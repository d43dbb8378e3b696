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

    public BinaryWriter(OutputStream out, int bufferSize) {
        this.out = out;
        this.buf = new byte[bufferSize];
    }

    /** Switches chunked framing on or off for everything written after this call. */
    public void setChunked(boolean chunked) {
        this.chunked = chunked;
    }

    /** Bytes handed to the underlying stream so far (payload, without chunk headers). */
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

    public void writeUInt8(int v) throws IOException {
        ensure(1);
        buf[pos++] = (byte) v;
    }

    public void writeBoolean(boolean v) throws IOException {
        writeUInt8(v ? 1 : 0);
    }

    public void writeInt16(int v) throws IOException {
        ensure(2);
        SHORT.set(buf, pos, (short) v);
        pos += 2;
    }

    public void writeInt32(int v) throws IOException {
        ensure(4);
        INT.set(buf, pos, v);
        pos += 4;
    }

    public void writeInt64(long v) throws IOException {
        ensure(8);
        LONG.set(buf, pos, v);
        pos += 8;
    }

    /**
     * Makes room for at least one value of {@code width} bytes and returns how many of the
     * {@code remaining} values fit in the buffer now.
     */
    private int fit(int width, int remaining) throws IOException {
        ensure(width);
        return Math.min(remaining, (buf.length - pos) / width);
    }

    /** Writes {@code a[off, off + len)} as little-endian 8-byte integers (a column's Int64/UInt64 data). */
    public void writeInt64s(long[] a, int off, int len) throws IOException {
        for (int end = off + len, n; off < end; off += n) {
            n = fit(8, end - off);
            for (int i = off; i < off + n; i++, pos += 8) {
                LONG.set(buf, pos, a[i]);
            }
        }
    }

    /** Writes {@code a[off, off + len)} as little-endian IEEE 754 doubles (a Float64 column's data). */
    public void writeFloat64s(double[] a, int off, int len) throws IOException {
        for (int end = off + len, n; off < end; off += n) {
            n = fit(8, end - off);
            for (int i = off; i < off + n; i++, pos += 8) {
                LONG.set(buf, pos, Double.doubleToRawLongBits(a[i]));
            }
        }
    }

    /** Writes {@code a[off, off + len)} as little-endian 4-byte integers (a column's Int32/UInt32 data). */
    public void writeInt32s(int[] a, int off, int len) throws IOException {
        for (int end = off + len, n; off < end; off += n) {
            n = fit(4, end - off);
            for (int i = off; i < off + n; i++, pos += 4) {
                INT.set(buf, pos, a[i]);
            }
        }
    }

    /** Writes {@code a[off, off + len)} as little-endian IEEE 754 floats (a Float32 column's data). */
    public void writeFloat32s(float[] a, int off, int len) throws IOException {
        for (int end = off + len, n; off < end; off += n) {
            n = fit(4, end - off);
            for (int i = off; i < off + n; i++, pos += 4) {
                INT.set(buf, pos, Float.floatToRawIntBits(a[i]));
            }
        }
    }

    public void writeVarUInt(long v) throws IOException {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
    }

    public void writeString(String s) throws IOException {
        writeStringBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    public void writeStringBytes(byte[] b) throws IOException {
        writeStringBytes(b, 0, b.length);
    }

    public void writeStringBytes(byte[] b, int off, int len) throws IOException {
        writeVarUInt(len);
        writeBytes(b, off, len);
    }

    public void writeBytes(byte[] b, int off, int len) throws IOException {
        if (len <= buf.length - pos) {
            System.arraycopy(b, off, buf, pos, len);
            pos += len;
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

    /** Ends the current packet and pushes everything to the socket. */
    public void flush() throws IOException {
        drain(true);
        out.flush();
    }
}
