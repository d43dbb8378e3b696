package dev.clickhousetcp.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * CityHash128 in the version 1.0.2 variant that ClickHouse uses for the checksums of its compressed
 * frames ({@code contrib/cityhash102}, namespace {@code CityHash_v1_0_2}; used by
 * {@code CompressedWriteBuffer} and {@code CompressedReadBufferBase}). Later CityHash releases
 * (1.0.3, 1.1) produce different values and must not be substituted.
 *
 * <p>Input bytes are read as little-endian 64-bit and 32-bit words, as the reference does on x86.
 * The result is the reference's {@code uint128} as two unsigned 64-bit halves: {@code low} (the
 * reference's {@code first}) and {@code high} ({@code second}); a compressed frame stores them as
 * two little-endian UInt64, low first. Stateless and thread-safe; allocates one small result.
 */
public final class CityHash128 {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private static final long K0 = 0xc3a5c85c97cb3127L;
    private static final long K1 = 0xb492b66fbe98f273L;
    private static final long K2 = 0x9ae16a3b2f90404fL;
    private static final long K3 = 0xc949d7c7509e6557L;
    private static final long K_MUL = 0x9ddfea08eb382d69L;

    /**
     * A 128-bit hash value.
     *
     * @param low  the low 64 bits (stored first in a frame)
     * @param high the high 64 bits
     */
    public record Hash(long low, long high) {
        @Override
        public String toString() {
            return String.format("%016x%016x", high, low);
        }
    }

    private CityHash128() {
    }

    /**
     * CityHash128 (v1.0.2) of {@code len} bytes of {@code data} starting at {@code off}.
     *
     * @param data the bytes to hash
     * @param off  offset of the first byte in {@code data}
     * @param len  number of bytes to hash; 0 is allowed
     * @return the 128-bit hash; for a compressed frame, of its 9-byte header and payload
     * @throws IndexOutOfBoundsException when {@code [off, off + len)} is not within {@code data}
     */
    public static Hash hash(byte[] data, int off, int len) {
        checkRange(data, off, len);
        if (len >= 16) {
            return hashWithSeed(data, off + 16, len - 16, fetch64(data, off) ^ K3, fetch64(data, off + 8));
        }
        if (len >= 8) {
            return hashWithSeed(data, off, 0, fetch64(data, off) ^ (len * K0), fetch64(data, off + len - 8) ^ K1);
        }
        return hashWithSeed(data, off, len, K0, K1);
    }

    /**
     * CityHash128WithSeed (v1.0.2) with the seed given as its low and high halves.
     *
     * @param data     the bytes to hash
     * @param off      offset of the first byte in {@code data}
     * @param len      number of bytes to hash; 0 is allowed
     * @param seedLow  the seed's low 64 bits (the reference's {@code first})
     * @param seedHigh the seed's high 64 bits (the reference's {@code second})
     * @return the 128-bit hash
     * @throws IndexOutOfBoundsException when {@code [off, off + len)} is not within {@code data}
     */
    public static Hash hashWithSeed(byte[] data, int off, int len, long seedLow, long seedHigh) {
        checkRange(data, off, len);
        if (len < 128) {
            return murmur(data, off, len, seedLow, seedHigh);
        }
        long x = seedLow;
        long y = seedHigh;
        long z = len * K1;
        long v0 = Long.rotateRight(y ^ K1, 49) * K1 + fetch64(data, off);
        long v1 = Long.rotateRight(v0, 42) * K1 + fetch64(data, off + 8);
        long w0 = Long.rotateRight(y + z, 35) * K1 + x;
        long w1 = Long.rotateRight(x + fetch64(data, off + 88), 53) * K1;
        int p = off;
        int remaining = len;
        do {
            for (int round = 0; round < 2; round++) {
                x = Long.rotateRight(x + y + v0 + fetch64(data, p + 16), 37) * K1;
                y = Long.rotateRight(y + v1 + fetch64(data, p + 48), 42) * K1;
                x ^= w1;
                y ^= v0;
                z = Long.rotateRight(z ^ w0, 33);
                // v = WeakHashLen32WithSeeds(p, v1 * K1, x + w0)
                long a = v1 * K1;
                long b = x + w0;
                long nv0;
                long nv1;
                {
                    long ww = fetch64(data, p);
                    long xx = fetch64(data, p + 8);
                    long yy = fetch64(data, p + 16);
                    long zz = fetch64(data, p + 24);
                    a += ww;
                    b = Long.rotateRight(b + a + zz, 21);
                    long c = a;
                    a += xx;
                    a += yy;
                    b += Long.rotateRight(a, 44);
                    nv0 = a + zz;
                    nv1 = b + c;
                }
                // w = WeakHashLen32WithSeeds(p + 32, z + w1, y)
                a = z + w1;
                b = y;
                {
                    long ww = fetch64(data, p + 32);
                    long xx = fetch64(data, p + 40);
                    long yy = fetch64(data, p + 48);
                    long zz = fetch64(data, p + 56);
                    a += ww;
                    b = Long.rotateRight(b + a + zz, 21);
                    long c = a;
                    a += xx;
                    a += yy;
                    b += Long.rotateRight(a, 44);
                    w0 = a + zz;
                    w1 = b + c;
                }
                v0 = nv0;
                v1 = nv1;
                long t = z;
                z = x;
                x = t;
                p += 64;
            }
            remaining -= 128;
        } while (remaining >= 128);
        y += Long.rotateRight(w0, 37) * K0 + z;
        x += Long.rotateRight(v0 + z, 49) * K0;
        // hash up to 4 chunks of 32 bytes from the end of the input (the reference indexes them from
        // the end of the whole input, which overlaps bytes already consumed)
        for (int tailDone = 0; tailDone < remaining; ) {
            tailDone += 32;
            y = Long.rotateRight(y - x, 42) * K0 + v1;
            w0 += fetch64(data, p + remaining - tailDone + 16);
            x = Long.rotateRight(x, 49) * K0 + w0;
            w0 += v0;
            int q = p + remaining - tailDone; // never before the input: at least 128 bytes were consumed
            long a = v0;
            long b = v1;
            long ww = fetch64(data, q);
            long xx = fetch64(data, q + 8);
            long yy = fetch64(data, q + 16);
            long zz = fetch64(data, q + 24);
            a += ww;
            b = Long.rotateRight(b + a + zz, 21);
            long c = a;
            a += xx;
            a += yy;
            b += Long.rotateRight(a, 44);
            v0 = a + zz;
            v1 = b + c;
        }
        x = hashLen16(x, v0);
        y = hashLen16(y, w0);
        return new Hash(hashLen16(x + v1, w1) + y, hashLen16(x + w1, y + v1));
    }

    private static Hash murmur(byte[] s, int off, int len, long seedLow, long seedHigh) {
        long a = seedLow;
        long b = seedHigh;
        long c;
        long d;
        int l = len - 16;
        if (l <= 0) {
            a = shiftMix(a * K1) * K1;
            c = b * K1 + hashLen0to16(s, off, len);
            d = shiftMix(a + (len >= 8 ? fetch64(s, off) : c));
        } else {
            c = hashLen16(fetch64(s, off + len - 8) + K1, a);
            d = hashLen16(b + len, c + fetch64(s, off + len - 16));
            a += d;
            int p = off;
            do {
                a ^= shiftMix(fetch64(s, p) * K1) * K1;
                a *= K1;
                b ^= a;
                c ^= shiftMix(fetch64(s, p + 8) * K1) * K1;
                c *= K1;
                d ^= c;
                p += 16;
                l -= 16;
            } while (l > 0);
        }
        a = hashLen16(a, c);
        b = hashLen16(d, b);
        return new Hash(a ^ b, hashLen16(b, a));
    }

    private static long hashLen0to16(byte[] s, int off, int len) {
        if (len > 8) {
            long a = fetch64(s, off);
            long b = fetch64(s, off + len - 8);
            // RotateByAtLeast1(b + len, len): len is 9..16 here, so a plain rotation
            return hashLen16(a, Long.rotateRight(b + len, len)) ^ b;
        }
        if (len >= 4) {
            long a = fetch32(s, off);
            return hashLen16(len + (a << 3), fetch32(s, off + len - 4));
        }
        if (len > 0) {
            int a = s[off] & 0xFF;
            int b = s[off + (len >> 1)] & 0xFF;
            int c = s[off + len - 1] & 0xFF;
            long y = (a + (b << 8)) & 0xFFFFFFFFL;
            long z = (len + (c << 2)) & 0xFFFFFFFFL;
            return shiftMix(y * K2 ^ z * K3) * K2;
        }
        return K2;
    }

    private static long hashLen16(long u, long v) {
        long a = (u ^ v) * K_MUL;
        a ^= a >>> 47;
        long b = (v ^ a) * K_MUL;
        b ^= b >>> 47;
        return b * K_MUL;
    }

    private static long shiftMix(long v) {
        return v ^ (v >>> 47);
    }

    private static long fetch64(byte[] b, int i) {
        return (long) LONG.get(b, i);
    }

    private static long fetch32(byte[] b, int i) {
        return ((int) INT.get(b, i)) & 0xFFFFFFFFL;
    }

    private static void checkRange(byte[] data, int off, int len) {
        if (off < 0 || len < 0 || off > data.length - len) {
            throw new IndexOutOfBoundsException("range [" + off + ", " + off + " + " + len + ") outside an array of "
                    + data.length + " bytes");
        }
    }
}
