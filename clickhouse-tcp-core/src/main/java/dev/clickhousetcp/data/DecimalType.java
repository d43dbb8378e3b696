package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.protocol.ProtocolFeature;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Decimal(P, S) and its aliases Decimal32(S) = Decimal(9, S), Decimal64(S) = Decimal(18, S),
 * Decimal128(S) = Decimal(38, S), Decimal256(S) = Decimal(76, S); plain {@code Decimal} is
 * Decimal(10, 0) and {@code Decimal(P)} is Decimal(P, 0). On the wire the unscaled integer is stored in
 * 4 (P &le; 9), 8 (P &le; 18), 16 (P &le; 38) or 32 (P &le; 76) little-endian bytes (ClickHouse
 * {@code DataTypesDecimal.cpp}, {@code SerializationDecimal}). The server names every such column
 * {@code Decimal(P, S)}.
 *
 * <p>The writer accepts {@link BigDecimal} (rescaled to S exactly), {@link BigInteger} and other
 * integers, {@code Double}/{@code Float} (via {@link BigDecimal#valueOf(double)}, resp. the float's
 * decimal text) and decimal {@code String}s. A value that needs rounding to fit scale S, or whose
 * unscaled integer has more than P digits, throws {@link ClickHouseTypeException}; so does NaN or an
 * infinity.
 */
public final class DecimalType extends DataType {
    private final int precision;
    private final int scale;
    private final int width;
    private final BigInteger limit;

    DecimalType(String name, int precision, int scale) {
        super(name);
        if (precision < 1 || precision > 76) {
            throw new ClickHouseTypeException("Decimal precision must be 1..76: " + name);
        }
        if (scale < 0 || scale > precision) {
            throw new ClickHouseTypeException("Decimal scale must be 0..precision: " + name);
        }
        this.precision = precision;
        this.scale = scale;
        this.width = precision <= 9 ? 4 : precision <= 18 ? 8 : precision <= 38 ? 16 : 32;
        this.limit = BigInteger.TEN.pow(precision);
    }

    /** Resolves Decimal, Decimal(P), Decimal(P, S) and Decimal32/64/128/256(S). */
    static DecimalType of(TypeNode n) {
        String name = n.toString();
        int p;
        int s;
        switch (n.name()) {
            case "Decimal32" -> p = 9;
            case "Decimal64" -> p = 18;
            case "Decimal128" -> p = 38;
            case "Decimal256" -> p = 76;
            default -> p = -1;
        }
        if (p > 0) {
            if (n.params().size() != 1) {
                throw new ClickHouseTypeException(n.name() + " takes exactly one parameter (the scale): " + name);
            }
            s = DataTypes.intParam(n, 0);
        } else if (n.params().isEmpty()) {
            p = 10;
            s = 0;
        } else if (n.params().size() <= 2) {
            p = DataTypes.intParam(n, 0);
            s = n.params().size() == 2 ? DataTypes.intParam(n, 1) : 0;
        } else {
            throw new ClickHouseTypeException("Decimal takes a precision and a scale: " + name);
        }
        return new DecimalType(name, p, s);
    }

    /**
     * The precision P: the most decimal digits a value's unscaled integer may have.
     *
     * @return P, 1 to 76
     */
    public int precision() {
        return precision;
    }

    /**
     * The scale S: digits after the decimal point.
     *
     * @return S, 0 to {@link #precision()}
     */
    public int scale() {
        return scale;
    }

    /**
     * Bytes per value (4, 8, 16 or 32).
     *
     * @return the width of the unscaled integer on the wire, from the precision
     */
    public int width() {
        return width;
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        // servers before 21.9 print all S fractional digits; no protocol revision marks 21.9 exactly, the
        // nearest gate (54449, initial query start time) is used
        boolean trailingZeros = !ProtocolFeature.INITIAL_QUERY_START_TIME.in(ctx.revision());
        return new DecimalColumn(this, rows, readFixed(in, rows, width, ctx, name), width, precision, scale,
                trailingZeros);
    }

    /** The unscaled integer of {@code v} at this type's scale, checked against the precision. */
    BigInteger unscaled(Object v) {
        BigDecimal d;
        if (v instanceof BigDecimal x) {
            d = x;
        } else if (v instanceof BigInteger x) {
            d = new BigDecimal(x);
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            d = BigDecimal.valueOf(((Number) v).longValue());
        } else if (v instanceof Double || v instanceof Float) {
            double x = ((Number) v).doubleValue();
            if (Double.isNaN(x) || Double.isInfinite(x)) {
                throw new ClickHouseTypeException("value " + v + " cannot be stored in ClickHouse type " + name);
            }
            d = v instanceof Float f ? new BigDecimal(Float.toString(f)) : BigDecimal.valueOf(x);
        } else if (v instanceof String s) {
            try {
                d = new BigDecimal(s.trim());
            } catch (NumberFormatException e) {
                throw new ClickHouseTypeException("cannot parse '" + s + "' as ClickHouse type " + name, e);
            }
        } else if (v == null) {
            throw ColumnWriter.notNullable(name);
        } else {
            throw ColumnWriter.cannotConvert(this, v);
        }
        BigInteger u;
        try {
            u = d.setScale(scale).unscaledValue();
        } catch (ArithmeticException e) {
            throw new ClickHouseTypeException("value " + v + " has more than " + scale
                    + " digits after the point and would be rounded for ClickHouse type " + name, e);
        }
        if (u.abs().compareTo(limit) >= 0) {
            throw new ClickHouseTypeException("value " + v + " has more than " + precision
                    + " significant digits for ClickHouse type " + name);
        }
        return u;
    }

    @Override
    public ColumnWriter newWriter() {
        long maxLong = precision <= 18 ? limit.longValueExact() : Long.MAX_VALUE;
        long pow = scale <= 18 ? BigInteger.TEN.pow(scale).longValueExact() : 0;
        return new FixedWriter(this, width) {
            @Override
            public void append(Object v) {
                if (pow != 0 && (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte)) {
                    long x = ((Number) v).longValue();
                    long hi = Math.multiplyHigh(x, pow);
                    long u = x * pow;
                    if ((hi == 0 && u >= 0 || hi == -1 && u < 0) && u > -maxLong && u < maxLong) {
                        put(u);
                        return;
                    }
                }
                BigInteger u = unscaled(v);
                if (u.bitLength() < 64) {
                    put(u.longValue());
                } else {
                    int off = slot();
                    BigIntType.putBig(buf, off, width, u);
                }
            }

            private void put(long u) {
                int off = slot();
                switch (width) {
                    case 4 -> INT.set(buf, off, (int) u);
                    case 8 -> LONG.set(buf, off, u);
                    default -> BigIntType.putLong(buf, off, width, u);
                }
            }
        };
    }

    @Override
    int rowBinaryWidth() {
        return width();
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return v instanceof BigDecimal || !strict && v instanceof Number;
    }
}
