package dev.clickhousetcp.data;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Decimal(P, S) column (Decimal32/64/128/256): the unscaled integer of each value as 4, 8, 16 or 32
 * bytes, little-endian two's complement; the value is {@code unscaled / 10^S} (ClickHouse
 * {@code SerializationDecimal}, {@code NativeFormat.mdx}).
 *
 * <p>Cheap access: {@link #getUnscaledLong} (any width, exact), {@link #getUnscaledLow},
 * {@link #getUnscaledHigh} and {@link #getUnscaledLane} (raw 64-bit lanes, lane 0 least significant),
 * {@link #getDouble}. {@link #getBigDecimal} / {@link #getObject} return a {@link BigDecimal} with
 * exactly scale {@code S}; a value whose unscaled integer fits a {@code long} is built with
 * {@link BigDecimal#valueOf(long, int)} without a {@link BigInteger}. {@link #getLong} is the integer
 * part (truncated toward zero). {@link #getString} prints like the server's {@code toString}: since
 * ClickHouse 21.9 trailing fractional zeros are dropped ({@code 1.50} prints {@code 1.5}, {@code 2.00}
 * prints {@code 2}); older servers print all {@code S} digits ({@code 1.50}), see
 * {@link #trailingZeros()}.
 */
public final class DecimalColumn extends FixedWidthColumn {
    private static final long[] POW10 = new long[19];
    private static final double[] POW10D = new double[23];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
        POW10D[0] = 1;
        for (int i = 1; i < POW10D.length; i++) {
            POW10D[i] = POW10D[i - 1] * 10;
        }
    }

    private final int precision;
    private final int scale;
    private final boolean trailingZeros;

    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type          the column's ClickHouse type, Decimal(P, S)
     * @param rows          number of rows
     * @param data          the little-endian unscaled integers, at least {@code rows * width} bytes
     * @param width         bytes per value: 4, 8, 16 or 32 (Decimal32, 64, 128, 256)
     * @param precision     the precision P: total decimal digits
     * @param scale         the scale S: digits after the point, {@code 0 <= S <= P}
     * @param trailingZeros whether {@link #getString} keeps all {@code scale} fractional digits (the text
     *                      form of servers before ClickHouse 21.9)
     */
    DecimalColumn(DataType type, int rows, byte[] data, int width, int precision, int scale,
                         boolean trailingZeros) {
        super(type, rows, data, width);
        this.precision = precision;
        this.scale = scale;
        this.trailingZeros = trailingZeros;
    }

    /**
     * Whether {@link #getString} prints all {@code scale} fractional digits rather than trimming zeros.
     *
     * @return {@code true} for the text form of servers before ClickHouse 21.9
     */
    public boolean trailingZeros() {
        return trailingZeros;
    }

    /**
     * Total decimal digits P.
     *
     * @return the precision of Decimal(P, S)
     */
    public int precision() {
        return precision;
    }

    /**
     * Digits after the point S.
     *
     * @return the scale of Decimal(P, S)
     */
    public int scale() {
        return scale;
    }

    /**
     * 64-bit lanes per value (1 for Decimal32/64, 2 for Decimal128, 4 for Decimal256).
     *
     * @return the number of lanes that hold the unscaled integer
     */
    public int lanes() {
        return width <= 8 ? 1 : width / 8;
    }

    /**
     * Whether the unscaled integer of row {@code row} fits a {@code long} (always for Decimal32/64).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return {@code true} if {@link #getUnscaledLong(int)} returns without throwing
     */
    public boolean unscaledFitsLong(int row) {
        checkRow(row);
        return width <= 8 || BigIntColumn.fitsLong(data, row * width, width, false);
    }

    private long low(int row) {
        return switch (width) {
            case 4 -> (int) INT.get(data, row * 4);
            default -> (long) LONG.get(data, row * width);
        };
    }

    /**
     * The unscaled integer as a {@code long}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the value times {@code 10^S}, exact
     * @throws ArithmeticException when it does not fit (only possible for Decimal128/256)
     */
    public long getUnscaledLong(int row) {
        if (!unscaledFitsLong(row)) {
            throw new ArithmeticException("unscaled value of " + getString(row) + " (" + type.name()
                    + ") does not fit a long");
        }
        return low(row);
    }

    /**
     * The least significant 64 bits of the unscaled integer (sign-extended for Decimal32).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return lane 0 of the unscaled integer, as raw bits
     */
    public long getUnscaledLow(int row) {
        checkRow(row);
        return low(row);
    }

    /**
     * The most significant 64 bits of the unscaled integer: lane 1 of a Decimal128, lane 3 of a
     * Decimal256; for Decimal32/64 the sign extension of the value (0 or -1).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the top lane, as raw bits
     */
    public long getUnscaledHigh(int row) {
        checkRow(row);
        return width <= 8 ? low(row) >> 63 : (long) LONG.get(data, row * width + width - 8);
    }

    /**
     * Lane {@code lane} of the unscaled integer (0 = least significant; lanes beyond the width are sign).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @param lane lane index, in {@code [0, 4)} for every width
     * @return the lane's 64 bits, or the sign extension (0 or -1) for a lane past {@link #lanes()}
     * @throws IndexOutOfBoundsException if {@code row} is out of range or {@code lane} is not in {@code [0, 4)}
     */
    public long getUnscaledLane(int row, int lane) {
        checkRow(row);
        if (lane < 0 || lane >= 4) {
            throw new IndexOutOfBoundsException("lane " + lane);
        }
        if (width <= 8) {
            return lane == 0 ? low(row) : low(row) >> 63;
        }
        if (lane >= width / 8) {
            return ((long) LONG.get(data, row * width + width - 8)) >> 63;
        }
        return (long) LONG.get(data, row * width + lane * 8);
    }

    /**
     * The unscaled integer (allocates; prefer the lane or long accessors).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the value times {@code 10^S}, as a new BigInteger
     */
    public BigInteger getUnscaledBigInteger(int row) {
        checkRow(row);
        if (width <= 8 || BigIntColumn.fitsLong(data, row * width, width, false)) {
            return BigInteger.valueOf(low(row));
        }
        return BigIntColumn.toBigInteger(data, row * width, width, false);
    }

    /**
     * The exact value with scale {@link #scale()}.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return a BigDecimal whose scale is exactly S (trailing zeros kept)
     */
    public BigDecimal getBigDecimal(int row) {
        checkRow(row);
        if (width <= 8 || BigIntColumn.fitsLong(data, row * width, width, false)) {
            return BigDecimal.valueOf(low(row), scale);
        }
        return new BigDecimal(BigIntColumn.toBigInteger(data, row * width, width, false), scale);
    }

    /** The nearest double (correctly rounded). */
    @Override
    public double getDouble(int row) {
        checkRow(row);
        if (width <= 8 || BigIntColumn.fitsLong(data, row * width, width, false)) {
            long u = low(row);
            if (Math.abs(u) < (1L << 53) && scale < POW10D.length) {
                // both operands exact doubles: one IEEE division, correctly rounded
                return u / POW10D[scale];
            }
        }
        return getBigDecimal(row).doubleValue();
    }

    /**
     * The integer part, truncated toward zero.
     *
     * @throws ArithmeticException when it does not fit a {@code long}
     */
    @Override
    public long getLong(int row) {
        checkRow(row);
        if (width <= 8 || BigIntColumn.fitsLong(data, row * width, width, false)) {
            long u = low(row);
            return scale < POW10.length ? u / POW10[scale] : 0;
        }
        return getBigDecimal(row).toBigInteger().longValueExact();
    }

    @Override
    public Object getObject(int row) {
        return getBigDecimal(row);
    }

    @Override
    public String getString(int row) {
        checkRow(row);
        if (width <= 8 || BigIntColumn.fitsLong(data, row * width, width, false)) {
            return format(Long.toString(low(row)), scale, trailingZeros);
        }
        return format(BigIntColumn.toBigInteger(data, row * width, width, false).toString(), scale, trailingZeros);
    }

    /** Places the decimal point {@code scale} digits from the right; drops trailing fractional zeros unless {@code keepZeros}. */
    static String format(String unscaled, int scale, boolean keepZeros) {
        if (scale == 0) {
            return unscaled;
        }
        boolean neg = unscaled.charAt(0) == '-';
        String digits = neg ? unscaled.substring(1) : unscaled;
        StringBuilder sb = new StringBuilder(digits.length() + scale + 3);
        if (neg) {
            sb.append('-');
        }
        int intDigits = digits.length() - scale;
        if (intDigits <= 0) {
            sb.append('0');
        } else {
            sb.append(digits, 0, intDigits);
        }
        int fracEnd = digits.length();
        while (!keepZeros && fracEnd > Math.max(intDigits, 0) && digits.charAt(fracEnd - 1) == '0') {
            fracEnd--;
        }
        int fracStart = Math.max(intDigits, 0);
        if (fracEnd > fracStart || intDigits < 0 && fracEnd > 0) {
            sb.append('.');
            for (int i = intDigits; i < 0; i++) {
                sb.append('0');
            }
            sb.append(digits, fracStart, fracEnd);
        }
        return sb.toString();
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new DecimalColumn(type, r, d, width, precision, scale, trailingZeros);
    }

    @Override
    void appendJsonValue(StringBuilder sb, int row) {
        sb.append(getString(row));
    }
}
