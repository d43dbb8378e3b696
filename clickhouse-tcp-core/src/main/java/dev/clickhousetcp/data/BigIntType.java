package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Int128, UInt128, Int256, UInt256: 16 / 32 bytes per value, little-endian two's complement (ClickHouse
 * {@code SerializationNumber} over {@code base/wide_integer.h}, documented in {@code NativeFormat.mdx}).
 *
 * <p>The writer accepts {@link BigInteger}, {@code Long}/{@code Integer}/{@code Short}/{@code Byte},
 * integral {@link BigDecimal} and floating-point values, and decimal {@code String}s; values outside
 * the type's range throw {@link ClickHouseTypeException}. {@code appendAll(long[])} takes a bulk path.
 */
public final class BigIntType extends FixedWidthType {
    private final int width;
    private final boolean unsigned;
    private final BigInteger min;
    private final BigInteger max;

    BigIntType(String name, int width, boolean unsigned) {
        super(name, width, (t, rows, data) -> new BigIntColumn(t, rows, data, width, unsigned));
        this.width = width;
        this.unsigned = unsigned;
        int bits = width * 8;
        this.min = unsigned ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(bits - 1).negate();
        this.max = unsigned ? BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE);
    }

    /**
     * Bytes per value (16 or 32).
     *
     * @return 16 for Int128/UInt128, 32 for Int256/UInt256
     */
    public int width() {
        return width;
    }

    /**
     * Whether this is UInt128 or UInt256.
     *
     * @return {@code true} for the unsigned types
     */
    public boolean isUnsigned() {
        return unsigned;
    }

    /** Parses a Java value to an integer within the type's range. */
    BigInteger toBigInteger(Object v) {
        BigInteger bi;
        if (v instanceof BigInteger b) {
            bi = b;
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            bi = BigInteger.valueOf(((Number) v).longValue());
        } else if (v instanceof BigDecimal d) {
            bi = integral(d, v);
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw Convert.outOfRange(this, v);
            }
            bi = integral(new BigDecimal(d), v);
        } else if (v instanceof String s) {
            try {
                bi = new BigInteger(s.trim());
            } catch (NumberFormatException e) {
                throw new ClickHouseTypeException("cannot parse '" + s + "' as ClickHouse type " + name, e);
            }
        } else if (v == null) {
            throw ColumnWriter.notNullable(name);
        } else {
            throw ColumnWriter.cannotConvert(this, v);
        }
        if (bi.compareTo(min) < 0 || bi.compareTo(max) > 0) {
            throw Convert.outOfRange(this, v);
        }
        return bi;
    }

    private BigInteger integral(BigDecimal d, Object v) {
        try {
            return d.toBigIntegerExact();
        } catch (ArithmeticException e) {
            throw new ClickHouseTypeException("value " + v + " is not an integer for ClickHouse type " + name, e);
        }
    }

    /** Stores {@code bi} as {@code width} little-endian two's complement bytes at {@code off}. */
    static void putBig(byte[] buf, int off, int width, BigInteger bi) {
        if (bi.bitLength() < 64) {
            putLong(buf, off, width, bi.longValue());
            return;
        }
        byte[] be = bi.toByteArray();
        byte fill = (byte) (bi.signum() < 0 ? -1 : 0);
        for (int i = 0; i < width; i++) {
            int src = be.length - 1 - i;
            buf[off + i] = src >= 0 ? be[src] : fill;
        }
    }

    /** Stores a long sign-extended to {@code width} little-endian bytes at {@code off}. */
    static void putLong(byte[] buf, int off, int width, long v) {
        FixedWriter.LONG.set(buf, off, v);
        long ext = v >> 63;
        for (int o = off + 8; o < off + width; o += 8) {
            FixedWriter.LONG.set(buf, o, ext);
        }
    }

    @Override
    public ColumnWriter newWriter() {
        return new FixedWriter(this) {
            @Override
            public void append(Object v) {
                if ((v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte)
                        && !(unsigned && ((Number) v).longValue() < 0)) {
                    int off = slot();
                    BigIntType.putLong(buf, off, width, ((Number) v).longValue());
                    return;
                }
                BigInteger bi = toBigInteger(v);
                int off = slot();
                putBig(buf, off, width, bi);
            }

            @Override
            public void appendAll(Object values) {
                if (values instanceof long[] a) {
                    for (long x : a) {
                        if (unsigned && x < 0) {
                            throw Convert.outOfRange(type, x);
                        }
                        int off = slot();
                        BigIntType.putLong(buf, off, width, x);
                    }
                } else {
                    ColumnWriter.appendEach(this, values);
                }
            }
        };
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return ValueTypes.integerIn(v, width() * 8, isUnsigned());
    }
}
