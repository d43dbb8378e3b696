package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.net.Inet4Address;
import java.net.Inet6Address;

/**
 * IPv6: 16 address bytes per value in network order (ClickHouse {@code SerializationIPv4andIPv6}). The
 * writer accepts {@link Inet6Address}, {@link Inet4Address} (stored IPv4-mapped, {@code ::ffff:a.b.c.d},
 * as the server's {@code toIPv6} does), a 16-byte {@code byte[]}, and an IPv6 or IPv4 text literal
 * (parsed locally, never resolved through DNS; a zone id such as {@code %eth0} is rejected).
 */
public final class IPv6Type extends FixedWidthType {
    IPv6Type(String name) {
        super(name, 16, IPv6Column::new);
    }

    /** Parses an IPv6 literal (with optional embedded IPv4) or a dotted IPv4 literal; {@code null} if invalid. */
    static byte[] parse(String s) {
        byte[] out = new byte[16];
        long v4 = IPv4Type.parse(s);
        if (v4 >= 0) {
            out[10] = (byte) 0xFF;
            out[11] = (byte) 0xFF;
            putV4(out, 12, v4);
            return out;
        }
        int dbl = s.indexOf("::");
        if (dbl >= 0 && s.indexOf("::", dbl + 1) >= 0) {
            return null;
        }
        String head = dbl >= 0 ? s.substring(0, dbl) : s;
        String tail = dbl >= 0 ? s.substring(dbl + 2) : "";
        int[] h = groups(head, dbl < 0);
        int[] t = dbl >= 0 ? groups(tail, true) : new int[0];
        if (h == null || t == null) {
            return null;
        }
        int total = h.length + t.length;
        if (dbl < 0 ? total != 8 : total > 7) {
            return null;
        }
        for (int i = 0; i < h.length; i++) {
            out[2 * i] = (byte) (h[i] >>> 8);
            out[2 * i + 1] = (byte) h[i];
        }
        for (int i = 0; i < t.length; i++) {
            int g = 8 - t.length + i;
            out[2 * g] = (byte) (t[i] >>> 8);
            out[2 * g + 1] = (byte) t[i];
        }
        return out;
    }

    /** Hex groups separated by ':'; the last may be a dotted IPv4 (two groups) when {@code allowV4}. */
    private static int[] groups(String part, boolean allowV4) {
        if (part.isEmpty()) {
            return new int[0];
        }
        String[] g = part.split(":", -1);
        int[] out = new int[g.length + 1];
        int n = 0;
        for (int i = 0; i < g.length; i++) {
            String x = g[i];
            if (i == g.length - 1 && allowV4 && x.indexOf('.') >= 0) {
                long v4 = IPv4Type.parse(x);
                if (v4 < 0) {
                    return null;
                }
                out[n++] = (int) (v4 >>> 16);
                out[n++] = (int) (v4 & 0xFFFF);
                continue;
            }
            if (x.isEmpty() || x.length() > 4) {
                return null;
            }
            int val = 0;
            for (int k = 0; k < x.length(); k++) {
                int d = Character.digit(x.charAt(k), 16);
                if (d < 0) {
                    return null;
                }
                val = val * 16 + d;
            }
            out[n++] = val;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    private static void putV4(byte[] out, int off, long v) {
        out[off] = (byte) (v >>> 24);
        out[off + 1] = (byte) (v >>> 16);
        out[off + 2] = (byte) (v >>> 8);
        out[off + 3] = (byte) v;
    }

    byte[] bytes(Object v) {
        if (v instanceof Inet6Address a) {
            return a.getAddress();
        }
        if (v instanceof Inet4Address a) {
            byte[] out = new byte[16];
            out[10] = (byte) 0xFF;
            out[11] = (byte) 0xFF;
            System.arraycopy(a.getAddress(), 0, out, 12, 4);
            return out;
        }
        if (v instanceof byte[] b) {
            if (b.length != 16) {
                throw new ClickHouseTypeException("IPv6 address bytes must be 16 long, got " + b.length);
            }
            return b;
        }
        if (v instanceof String s) {
            byte[] b = parse(s.trim());
            if (b == null) {
                throw new ClickHouseTypeException("cannot parse '" + s + "' as ClickHouse type " + name);
            }
            return b;
        }
        if (v == null) {
            throw ColumnWriter.notNullable(name);
        }
        throw ColumnWriter.cannotConvert(this, v);
    }

    @Override
    public ColumnWriter newWriter() {
        return new FixedWriter(this) {
            @Override
            public void append(Object v) {
                byte[] b = bytes(v);
                int off = slot();
                System.arraycopy(b, 0, buf, off, 16);
            }
        };
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return v instanceof Inet6Address || !strict && v instanceof Inet4Address;
    }
}
