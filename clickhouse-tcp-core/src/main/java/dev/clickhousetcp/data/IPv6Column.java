package dev.clickhousetcp.data;

import java.net.Inet6Address;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * IPv6 column: 16 address bytes per value in network (big-endian) order (ClickHouse
 * {@code SerializationIPv4andIPv6}). {@link #getBytes} copies them; {@link #getObject} /
 * {@link #getInetAddress} return an {@link Inet6Address} built from them (no name lookup, IPv4-mapped
 * addresses stay Inet6Address); {@link #getString} prints like the server's {@code formatIPv6}: lowercase
 * hex groups without leading zeros, the longest run of two or more zero groups (the first on a tie)
 * shortened to {@code ::}, and {@code ::ffff:a.b.c.d} / {@code ::a.b.c.d} for IPv4-mapped and
 * IPv4-compatible addresses.
 */
public final class IPv6Column extends FixedWidthColumn {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type the column's ClickHouse type, IPv6
     * @param rows number of rows
     * @param data 16 bytes per address in network order, at least {@code rows * 16} bytes
     */
    IPv6Column(DataType type, int rows, byte[] data) {
        super(type, rows, data, 16);
    }

    /**
     * A copy of the 16 address bytes (network order).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return a new 16-byte array
     */
    public byte[] getBytes(int row) {
        checkRow(row);
        return Arrays.copyOfRange(data, row * 16, row * 16 + 16);
    }

    /**
     * The upper 64 bits of the address (bytes 0..7 as a big-endian long).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the upper half of the 128-bit address
     */
    public long getHigh(int row) {
        checkRow(row);
        return Long.reverseBytes((long) LONG.get(data, row * 16));
    }

    /**
     * The lower 64 bits of the address (bytes 8..15 as a big-endian long).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the lower half of the 128-bit address
     */
    public long getLow(int row) {
        checkRow(row);
        return Long.reverseBytes((long) LONG.get(data, row * 16 + 8));
    }

    /**
     * The address as a Java address object, built from the bytes without a name lookup and without a
     * scope id; IPv4-mapped addresses stay an Inet6Address.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return a new Inet6Address with no host name
     */
    public Inet6Address getInetAddress(int row) {
        try {
            return Inet6Address.getByAddress(null, getBytes(row), -1);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Object getObject(int row) {
        return getInetAddress(row);
    }

    @Override
    public String getString(int row) {
        checkRow(row);
        return format(data, row * 16);
    }

    /** ClickHouse's text form of the 16 bytes at {@code off} (src/Common/formatIPv6.cpp). */
    static String format(byte[] b, int off) {
        int[] w = new int[8];
        for (int i = 0; i < 8; i++) {
            w[i] = ((b[off + 2 * i] & 0xFF) << 8) | (b[off + 2 * i + 1] & 0xFF);
        }
        int bestBase = -1;
        int bestLen = 0;
        int curBase = -1;
        int curLen = 0;
        for (int i = 0; i < 8; i++) {
            if (w[i] == 0) {
                if (curBase == -1) {
                    curBase = i;
                    curLen = 1;
                } else {
                    curLen++;
                }
            } else if (curBase != -1) {
                if (bestBase == -1 || curLen > bestLen) {
                    bestBase = curBase;
                    bestLen = curLen;
                }
                curBase = -1;
            }
        }
        if (curBase != -1 && (bestBase == -1 || curLen > bestLen)) {
            bestBase = curBase;
            bestLen = curLen;
        }
        if (bestBase != -1 && bestLen < 2) {
            bestBase = -1;
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (bestBase != -1 && i >= bestBase && i < bestBase + bestLen) {
                if (i == bestBase) {
                    sb.append(':');
                }
                continue;
            }
            if (i != 0) {
                sb.append(':');
            }
            if (i == 6 && bestBase == 0 && (bestLen == 6 || bestLen == 5 && w[5] == 0xFFFF)) {
                sb.append(b[off + 12] & 0xFF).append('.').append(b[off + 13] & 0xFF).append('.')
                        .append(b[off + 14] & 0xFF).append('.').append(b[off + 15] & 0xFF);
                return sb.toString();
            }
            int v = w[i];
            boolean started = false;
            for (int shift = 12; shift >= 0; shift -= 4) {
                int d = (v >>> shift) & 0xF;
                if (d != 0 || started || shift == 0) {
                    sb.append(HEX[d]);
                    started = true;
                }
            }
        }
        if (bestBase != -1 && bestBase + bestLen == 8) {
            sb.append(':');
        }
        return sb.toString();
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new IPv6Column(type, r, d);
    }

    @Override
    boolean quotedWhenNested() {
        return true;
    }
}
