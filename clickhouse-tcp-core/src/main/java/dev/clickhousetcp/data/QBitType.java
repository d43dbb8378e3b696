package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.List;

/**
 * QBit(T, N), T = BFloat16, Float32 or Float64: a vector of N floats stored as B bit planes (B = 16, 32 or
 * 64), serialized as Tuple(FixedString(ceil(N/8)) x B), plane 0 holding the sign bits (ClickHouse
 * {@code DataTypeQBit}, {@code SerializationQBit::transposeBits}); see {@link QBitColumn} for the bit
 * order.
 *
 * <p>The writer accepts, per row, a {@code float[]}, {@code double[]}, {@code Number[]} or {@code List}
 * of exactly N numbers. Values are converted to the element type (Float32: rounded; BFloat16: rounded
 * to Float32, then truncated to its upper 16 bits, as the server converts).
 */
public final class QBitType extends DataType {
    private final DataType element;
    private final int bits;
    private final int dimension;
    private final int bytesPerRow;

    QBitType(String name, DataType element, int dimension) {
        super(name);
        this.element = element;
        this.bits = switch (element.name()) {
            case "BFloat16" -> 16;
            case "Float32" -> 32;
            case "Float64" -> 64;
            default -> throw new ClickHouseTypeException("QBit element type must be BFloat16, Float32 or Float64: " + name);
        };
        if (dimension < 1) {
            throw new ClickHouseTypeException("QBit dimension must be positive: " + name);
        }
        this.dimension = dimension;
        this.bytesPerRow = (dimension + 7) / 8;
    }

    /** Resolves {@code QBit(T, N)}. */
    static QBitType of(TypeNode n, java.time.ZoneId zone) {
        if (n.params().size() != 2 || !(n.params().get(1) instanceof TypeNode.NumberParam dim)) {
            throw new ClickHouseTypeException("QBit takes an element type and a dimension: " + n);
        }
        int d;
        try {
            d = dim.intValue();
        } catch (NumberFormatException e) {
            throw new ClickHouseTypeException("QBit dimension must be an integer: " + n, e);
        }
        return new QBitType(n.toString(), DataTypes.resolve(n.typeArg(0), zone), d);
    }

    /**
     * The element type (BFloat16, Float32 or Float64).
     *
     * @return the type of each vector element
     */
    public DataType element() {
        return element;
    }

    /**
     * Vector length N.
     *
     * @return the number of elements of every vector
     */
    public int dimension() {
        return dimension;
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        return new QBitColumn(this, rows, readFixed(in, rows, bytesPerRow * bits, ctx, name), bits, dimension);
    }

    private long elementBits(Object v) {
        double d = Convert.toDouble(this, v);
        return switch (bits) {
            case 16 -> BFloat16Type.bits((float) d) & 0xFFFFL;
            case 32 -> Float.floatToRawIntBits(v instanceof Float f ? f : (float) d) & 0xFFFFFFFFL;
            default -> Double.doubleToRawLongBits(d);
        };
    }

    @Override
    public ColumnWriter newWriter() {
        return new ColumnWriter() {
            private final int rowBytes = bits * bytesPerRow;
            private byte[] buf = new byte[Math.max(64, rowBytes * 64)];
            private int count;

            @Override
            public DataType type() {
                return QBitType.this;
            }

            @Override
            public void append(Object value) {
                long[] w = vector(value);
                int off = slot();
                for (int e = 0; e < dimension; e++) {
                    long x = w[e];
                    if (x == 0) {
                        continue;
                    }
                    int byteInRow = bytesPerRow - 1 - e / 8;
                    byte mask = (byte) (1 << (e % 8));
                    for (int k = 0; k < bits; k++) {
                        if ((x & (1L << (bits - 1 - k))) != 0) {
                            buf[off + k * bytesPerRow + byteInRow] |= mask;
                        }
                    }
                }
            }

            private long[] vector(Object value) {
                if (value == null) {
                    throw ColumnWriter.notNullable(name);
                }
                int n;
                List<?> list = null;
                if (value instanceof List<?> l) {
                    list = l;
                    n = l.size();
                } else if (value.getClass().isArray()) {
                    n = Array.getLength(value);
                } else {
                    throw ColumnWriter.cannotConvert(QBitType.this, value);
                }
                if (n != dimension) {
                    throw new ClickHouseTypeException("a vector of " + n + " elements does not fit " + name);
                }
                long[] w = new long[dimension];
                for (int i = 0; i < n; i++) {
                    if (value instanceof float[] f) {
                        w[i] = bits == 16 ? BFloat16Type.bits(f[i]) & 0xFFFFL
                                : bits == 32 ? Float.floatToRawIntBits(f[i]) & 0xFFFFFFFFL : Double.doubleToRawLongBits(f[i]);
                    } else {
                        w[i] = elementBits(list != null ? list.get(i) : Array.get(value, i));
                    }
                }
                return w;
            }

            /** Reserves a zeroed row-major slot of {@code bits} planes x {@code bytesPerRow} bytes. */
            private int slot() {
                int off = count * rowBytes;
                if (off + rowBytes > buf.length) {
                    buf = Arrays.copyOf(buf, Math.max(buf.length * 2, off + rowBytes));
                }
                Arrays.fill(buf, off, off + rowBytes, (byte) 0);
                count++;
                return off;
            }

            @Override
            public void appendDefault() {
                slot();
            }

            @Override
            public int size() {
                return count;
            }

            @Override
            public void writeData(BinaryWriter out) throws IOException {
                for (int k = 0; k < bits; k++) {
                    for (int r = 0; r < count; r++) {
                        out.writeBytes(buf, r * rowBytes + k * bytesPerRow, bytesPerRow);
                    }
                }
            }

            @Override
            public void reset() {
                count = 0;
            }
        };
    }
}
