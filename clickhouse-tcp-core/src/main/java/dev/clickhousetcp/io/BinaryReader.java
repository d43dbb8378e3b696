package dev.clickhousetcp.io;

import dev.clickhousetcp.ClickHouseProtocolException;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Buffered little-endian reader of the native protocol's primitives (VarUInt, fixed-width integers,
 * length-prefixed strings), per ClickHouse {@code src/IO/VarInt.h} and {@code ReadHelpers.h}.
 *
 * <p>Not thread-safe: a reader belongs to one connection. Every length read from the wire is checked
 * against {@link #maxStringBytes()} before anything is allocated, and memory is committed only as
 * bytes arrive: a value longer than what is buffered is read into a buffer that starts at
 * {@value #FIRST_CHUNK} bytes and doubles up to the declared length, so a length prefix the stream does
 * not back costs its sender bandwidth, not our heap. I/O errors surface as {@link IOException}
 * (end of stream as {@link EOFException}); malformed values as {@link ClickHouseProtocolException}.
 */
public final class BinaryReader {
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** First buffer size of a string or blob longer than what is buffered (64 KiB); it doubles as bytes arrive. */
    static final int FIRST_CHUNK = 1 << 16;

    private final InputStream in;
    private final byte[] buf;
    private int pos;
    private int limit;
    private long totalRead;
    private final int maxStringBytes;

    /**
     * Creates a reader over {@code in}; it reads ahead up to {@code bufferSize} bytes.
     *
     * @param in             the stream to read (a socket's, a decompressing or a de-chunking stream); not
     *                       closed by this reader
     * @param bufferSize     size of the read-ahead buffer in bytes; at least 8 (the widest fixed-width read)
     * @param maxStringBytes largest string or blob length accepted from the wire, in bytes
     */
    public BinaryReader(InputStream in, int bufferSize, int maxStringBytes) {
        this.in = in;
        this.buf = new byte[bufferSize];
        this.maxStringBytes = maxStringBytes;
    }

    /**
     * Largest single string or blob length accepted from the wire, in bytes.
     *
     * @return the limit given at construction
     */
    public int maxStringBytes() {
        return maxStringBytes;
    }

    /**
     * Bytes read from the underlying stream but not consumed yet.
     *
     * @return the number of buffered bytes, 0 when the next read goes to the stream
     */
    public int buffered() {
        return limit - pos;
    }

    /**
     * Copies {@code len} bytes that are already buffered into {@code dst}: the fast path of reading a value
     * whose length was just read, kept small so that column loops in other classes inline it.
     *
     * @param dst the destination
     * @param off where in {@code dst} the bytes go
     * @param len how many bytes; at most {@link #buffered()}, which the caller has checked
     */
    public void copyBuffered(byte[] dst, int off, int len) {
        System.arraycopy(buf, pos, dst, off, len);
        pos += len;
    }

    /**
     * Copies the length-prefixed values (VarUInt length, then the bytes; ClickHouse
     * {@code SerializationString}) that lie wholly in the buffer into {@code dst}, back to back, and
     * records where each ends: the fast path of a String column, one call per buffer instead of
     * several per value, with the buffer position in a local. Stops, consuming nothing of it, before
     * the first value whose prefix or bytes are not wholly buffered, whose length is over
     * {@link #maxStringBytes()}, or whose bytes would end past {@code maxEnd} or past
     * {@code dst.length}; the caller reads that value the slow way (which fills, grows or throws).
     *
     * @param dst    where the values' bytes go
     * @param ends   receives the end offset in {@code dst} of each value copied, from index {@code from}
     * @param from   index in {@code ends} of the first value; the first value starts at
     *               {@code ends[from - 1]}, or 0 when {@code from} is 0
     * @param to     index in {@code ends} after the last value wanted; at most {@code ends.length}
     * @param maxEnd largest accepted end offset in {@code dst} (the column's byte limit)
     * @return the index in {@code ends} after the last value copied: {@code from} when none was
     */
    public int copyBufferedValues(byte[] dst, int[] ends, int from, int to, long maxEnd) {
        final byte[] b = buf;
        final int lim = limit;
        final long endLimit = Math.min(maxEnd, dst.length);
        int p = pos;
        int used = from == 0 ? 0 : ends[from - 1];
        int i = from;
        for (; i < to; i++) {
            if (p >= lim) {
                break;
            }
            int q = p;
            int len = b[q++];
            if (len < 0) { // a length of more than 7 bits: decode it where it is wholly buffered
                long v = len & 0x7F;
                int shift = 7;
                while (true) {
                    if (q >= lim || shift > 63) {
                        len = -1;
                        break;
                    }
                    int x = b[q++];
                    v |= (long) (x & 0x7F) << shift;
                    if (x >= 0) {
                        len = v < 0 || v > maxStringBytes ? -1 : (int) v;
                        break;
                    }
                    shift += 7;
                }
                if (len < 0) {
                    break; // not wholly buffered, or over the limit: the slow path reads it
                }
            }
            if (len > maxStringBytes || len > lim - q || used + (long) len > endLimit) {
                break;
            }
            System.arraycopy(b, q, dst, used, len);
            used += len;
            ends[i] = used;
            p = q + len;
        }
        pos = p;
        return i;
    }

    /**
     * Consumes the next bytes when they are wholly buffered and equal {@code expected}: a cheap check
     * whether a value repeats the one at the same place before (a column's name and type in every
     * block of a result), without decoding it.
     *
     * @param expected the bytes as they appear on the wire (for a string: its VarUInt length, then its bytes)
     * @return whether they were buffered and equal, and so consumed; when {@code false}, nothing was consumed
     */
    public boolean skipIfBuffered(byte[] expected) {
        int n = expected.length;
        if (limit - pos < n || !java.util.Arrays.equals(buf, pos, pos + n, expected, 0, n)) {
            return false;
        }
        pos += n;
        return true;
    }

    /**
     * Bytes consumed from the underlying stream so far.
     *
     * @return the count of bytes handed out (not merely buffered) since this reader was created
     */
    public long bytesRead() {
        return totalRead - (limit - pos);
    }

    private void fill() throws IOException {
        int n = in.read(buf, 0, buf.length);
        if (n < 0) {
            throw new EOFException("connection closed by server");
        }
        pos = 0;
        limit = n;
        totalRead += n;
    }

    private void ensure(int n) throws IOException {
        if (limit - pos >= n) {
            return;
        }
        // compact, then fill until n bytes are buffered (n <= 32 here)
        int remaining = limit - pos;
        System.arraycopy(buf, pos, buf, 0, remaining);
        pos = 0;
        limit = remaining;
        while (limit < n) {
            int r = in.read(buf, limit, buf.length - limit);
            if (r < 0) {
                throw new EOFException("connection closed by server");
            }
            limit += r;
            totalRead += r;
        }
    }

    /**
     * Reads a UInt8.
     *
     * @return the byte as an unsigned value, 0 to 255
     * @throws IOException when reading fails; {@link EOFException} when the stream has ended
     */
    public int readUInt8() throws IOException {
        if (pos == limit) {
            fill();
        }
        return buf[pos++] & 0xFF;
    }

    /**
     * Reads an Int8.
     *
     * @return the signed byte
     * @throws IOException when reading fails; {@link EOFException} when the stream has ended
     */
    public byte readInt8() throws IOException {
        if (pos == limit) {
            fill();
        }
        return buf[pos++];
    }

    /**
     * Reads a Bool: one byte, any non-zero value being {@code true}.
     *
     * @return whether the byte is non-zero
     * @throws IOException when reading fails; {@link EOFException} when the stream has ended
     */
    public boolean readBoolean() throws IOException {
        return readUInt8() != 0;
    }

    /**
     * Reads a little-endian Int16 (also the bits of a UInt16).
     *
     * @return the value
     * @throws IOException when reading fails; {@link EOFException} when the stream has ended
     */
    public short readInt16() throws IOException {
        ensure(2);
        short v = (short) SHORT.get(buf, pos);
        pos += 2;
        return v;
    }

    /**
     * Reads a little-endian Int32 (also the bits of a UInt32 or a Float32).
     *
     * @return the value
     * @throws IOException when reading fails; {@link EOFException} when the stream has ended
     */
    public int readInt32() throws IOException {
        ensure(4);
        int v = (int) INT.get(buf, pos);
        pos += 4;
        return v;
    }

    /**
     * Reads a little-endian Int64 (also the bits of a UInt64 or a Float64).
     *
     * @return the value
     * @throws IOException when reading fails; {@link EOFException} when the stream has ended
     */
    public long readInt64() throws IOException {
        ensure(8);
        long v = (long) LONG.get(buf, pos);
        pos += 8;
        return v;
    }

    /**
     * LEB128 unsigned integer of up to 10 bytes (ClickHouse {@code readVarUInt}).
     *
     * @return the value as the 64 bits of a UInt64: negative for values of 2<sup>63</sup> and above
     * @throws IOException when reading fails; {@link EOFException} when the stream has ended
     * @throws ClickHouseProtocolException when the encoding is longer than 10 bytes
     */
    public long readVarUInt() throws IOException {
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

    /**
     * A VarUInt that must fit a non-negative int no larger than {@code max}; {@code what} names it in errors.
     *
     * @param max  largest accepted value; at most {@link Integer#MAX_VALUE}
     * @param what what the value is, e.g. {@code "row count"}, for the exception message
     * @return the value, 0 to {@code max}
     * @throws IOException when reading fails; {@link EOFException} when the stream has ended
     * @throws ClickHouseProtocolException when the value is above {@code max} (or above 2<sup>63</sup>)
     */
    public int readVarUIntBounded(long max, String what) throws IOException {
        long v = readVarUInt();
        if (v < 0 || v > max) {
            throw new ClickHouseProtocolException(what + " " + Long.toUnsignedString(v) + " exceeds the limit " + max);
        }
        return (int) v;
    }

    /**
     * VarUInt length (at most {@link #maxStringBytes()}) + UTF-8 bytes.
     *
     * @return the decoded string; invalid UTF-8 sequences become U+FFFD
     * @throws IOException when reading fails; {@link EOFException} when the stream has ended
     * @throws ClickHouseProtocolException when the length exceeds {@link #maxStringBytes()}
     */
    public String readString() throws IOException {
        return readString(maxStringBytes, "string length");
    }

    /**
     * VarUInt length + UTF-8 bytes, the length at most {@code max}; {@code what} names the length in
     * the {@link ClickHouseProtocolException} thrown when it is over.
     *
     * @param max  largest accepted length in bytes; {@link #maxStringBytes()} applies too when lower
     * @param what what the length is, e.g. {@code "type name length"}, for the exception message
     * @return the decoded string; invalid UTF-8 sequences become U+FFFD
     * @throws IOException when reading fails; {@link EOFException} when the stream has ended
     */
    public String readString(int max, String what) throws IOException {
        int len = readVarUIntBounded(Math.min(max, maxStringBytes), what);
        if (limit - pos >= len) {
            String s = new String(buf, pos, len, StandardCharsets.UTF_8);
            pos += len;
            return s;
        }
        byte[] b = readGrowing(len);
        return new String(b, StandardCharsets.UTF_8);
    }

    /**
     * VarUInt length + raw bytes, for String values that need not be UTF-8.
     *
     * @return a new array of exactly the declared length
     * @throws IOException when reading fails; {@link EOFException} when the stream has ended
     * @throws ClickHouseProtocolException when the length exceeds {@link #maxStringBytes()}
     */
    public byte[] readStringBytes() throws IOException {
        int len = readVarUIntBounded(maxStringBytes, "string length");
        return readGrowing(len);
    }

    /**
     * Exactly {@code len} bytes into a new array that grows as they arrive: it starts at what is
     * buffered or {@link #FIRST_CHUNK} bytes (the larger, capped at {@code len}) and doubles.
     */
    private byte[] readGrowing(int len) throws IOException {
        byte[] b = new byte[Math.min(len, Math.max(FIRST_CHUNK, limit - pos))];
        int got = 0;
        while (got < len) {
            if (got == b.length) {
                b = java.util.Arrays.copyOf(b, (int) Math.min(len, 2L * b.length));
            }
            int k = b.length - got;
            readFully(b, got, k);
            got += k;
        }
        return b;
    }

    /**
     * Reads exactly {@code len} bytes into {@code dst}; large reads bypass the buffer.
     *
     * @param dst destination array
     * @param off offset in {@code dst} of the first byte
     * @param len number of bytes to read
     * @throws IOException when reading fails; {@link EOFException} when the stream ends first
     */
    public void readFully(byte[] dst, int off, int len) throws IOException {
        int avail = limit - pos;
        if (avail >= len) {
            System.arraycopy(buf, pos, dst, off, len);
            pos += len;
            return;
        }
        System.arraycopy(buf, pos, dst, off, avail);
        pos = limit;
        off += avail;
        len -= avail;
        if (len >= buf.length) {
            // large reads go straight from the socket into the destination: one copy only
            while (len > 0) {
                int r = in.read(dst, off, len);
                if (r < 0) {
                    throw new EOFException("connection closed by server");
                }
                totalRead += r;
                off += r;
                len -= r;
            }
            return;
        }
        while (len > 0) {
            fill();
            int n = Math.min(len, limit);
            System.arraycopy(buf, 0, dst, off, n);
            pos = n;
            off += n;
            len -= n;
        }
    }

    /**
     * Reads and discards exactly {@code n} bytes.
     *
     * @param n number of bytes to skip; zero or negative skips nothing
     * @throws IOException when reading fails; {@link EOFException} when the stream ends first
     */
    public void skip(long n) throws IOException {
        while (n > 0) {
            if (pos == limit) {
                fill();
            }
            int k = (int) Math.min(n, limit - pos);
            pos += k;
            n -= k;
        }
    }
}
