package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.Column;

import java.math.BigInteger;

import static dev.clickhousetcp.mapping.Extractors.outOfRange;

/** Int128/UInt128/Int256/UInt256 into integer lanes, range-checked. */
final class BigIntegerToIntegerExtractor extends Extractor {
    private final String typeName;

    BigIntegerToIntegerExtractor(Lane lane, String typeName) {
        super(lane);
        this.typeName = typeName;
    }

    @Override
    void extract(Column c, int n, Object out, byte[] skip) {
        for (int i = 0; i < n; i++) {
            if (skipped(skip, i)) {
                continue;
            }
            BigInteger b = (BigInteger) c.getObject(i);
            if (b.bitLength() > 63) {
                throw new MappingException("row " + i + ": value " + b + " of " + typeName + " does not fit "
                        + lane.javaType);
            }
            long x = b.longValue();
            switch (lane) {
                case LONG -> ((long[]) out)[i] = x;
                case INT -> {
                    if (x != (int) x) {
                        throw outOfRange(i, x, false, typeName, "int");
                    }
                    ((int[]) out)[i] = (int) x;
                }
                case SHORT -> {
                    if (x != (short) x) {
                        throw outOfRange(i, x, false, typeName, "short");
                    }
                    ((short[]) out)[i] = (short) x;
                }
                default -> {
                    if (x != (byte) x) {
                        throw outOfRange(i, x, false, typeName, "byte");
                    }
                    ((byte[]) out)[i] = (byte) x;
                }
            }
        }
    }
}
