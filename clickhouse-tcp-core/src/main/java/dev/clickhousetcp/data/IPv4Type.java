package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.net.Inet4Address;

/**
 * IPv4: a UInt32 per value, little-endian ({@code 1.2.3.4} = {@code 0x01020304}; ClickHouse
 * {@code SerializationIPv4andIPv6}). The writer accepts {@link Inet4Address}, a dotted-quad
 * {@code String} literal (parsed locally, never resolved through DNS), a 4-byte {@code byte[]} in
 * network order, and integer {@code Number}s in {@code [0, 2^32)}.
 */
public final class IPv4Type extends FixedWidthType {
    IPv4Type(String name) {
        super(name, 4, IPv4Column::new);
    }

    /** Parses a dotted quad into its 32-bit value; {@code -1} when {@code s} is not one. */
    static long parse(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return -1;
        }
        long v = 0;
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return -1;
            }
            int x = Integer.parseInt(p);
            if (x > 255) {
                return -1;
            }
            v = (v << 8) | x;
        }
        return v;
    }

    long value(Object v) {
        if (v instanceof Inet4Address a) {
            byte[] b = a.getAddress();
            return ((b[0] & 0xFFL) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
        }
        if (v instanceof byte[] b) {
            if (b.length != 4) {
                throw new ClickHouseTypeException("IPv4 address bytes must be 4 long, got " + b.length);
            }
            return ((b[0] & 0xFFL) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
        }
        if (v instanceof String s) {
            long x = parse(s.trim());
            if (x < 0) {
                throw new ClickHouseTypeException("cannot parse '" + s + "' as ClickHouse type " + name);
            }
            return x;
        }
        if (v == null) {
            throw ColumnWriter.notNullable(name);
        }
        if (v instanceof Number) {
            return Convert.toLong(this, v, 0, 0xFFFFFFFFL, false);
        }
        throw ColumnWriter.cannotConvert(this, v);
    }

    @Override
    public ColumnWriter newWriter() {
        return new FixedWriter(this) {
            @Override
            public void append(Object v) {
                putLong(value(v));
            }
        };
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return v instanceof Inet4Address;
    }
}
