package dev.clickhousetcp.data;

import java.util.Arrays;

/**
 * QBit(T, N) column (T = BFloat16, Float32 or Float64): vectors of N floats stored bit-transposed. On the
 * wire the column is a Tuple of B FixedString(ceil(N/8)) columns, B = the element's bit width (16, 32 or
 * 64), one after another (ClickHouse {@code DataTypeQBit}, {@code SerializationQBit}). Plane {@code k}
 * holds bit {@code B-1-k} (plane 0 = sign bits) of every element; within a row's {@code ceil(N/8)}
 * bytes, element {@code e} is bit {@code e % 8} of byte {@code ceil(N/8) - 1 - e / 8}.
 *
 * <p>This column keeps the planes as received ({@code B * rows * ceil(N/8)} bytes, plane after plane)
 * and reassembles a vector only when asked: {@link #getFloat}/{@link #getDouble} for one element,
 * {@link #getFloats}/{@link #getDoubles} for a row. {@link #getObject} returns {@code float[]} for
 * BFloat16 and Float32, {@code double[]} for Float64. {@link #getString} prints like the server:
 * {@code [1.5,-2,0]}.
 */
public final class QBitColumn extends AbstractColumn {
    private final byte[] planes;
    private final int bits;
    private final int dimension;
    private final int bytesPerRow;

    /**
     * A column over {@code planes}, which is not copied.
     *
     * @param type      the column's ClickHouse type, QBit(T, N)
     * @param rows      number of rows (vectors)
     * @param planes    {@code bits} planes of {@code rows * ceil(dimension/8)} bytes each
     * @param bits      16, 32 or 64
     * @param dimension N
     */
    QBitColumn(DataType type, int rows, byte[] planes, int bits, int dimension) {
        super(type, rows);
        this.planes = planes;
        this.bits = bits;
        this.dimension = dimension;
        this.bytesPerRow = (dimension + 7) / 8;
    }

    /**
     * Vector length N.
     *
     * @return the number of elements in every row's vector
     */
    public int dimension() {
        return dimension;
    }

    /**
     * Element width in bits: 16 (BFloat16), 32 (Float32) or 64 (Float64).
     *
     * @return the number of bit planes B
     */
    public int elementBits() {
        return bits;
    }

    /**
     * The raw bits of element {@code i} of row {@code row} (low {@link #elementBits()} bits).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @param i   element index in the vector, in {@code [0, dimension())}
     * @return the element's IEEE-754 (or BFloat16) bits, zero-extended
     * @throws IndexOutOfBoundsException if {@code row} or {@code i} is out of range
     */
    public long getBits(int row, int i) {
        checkRow(row);
        if (i < 0 || i >= dimension) {
            throw new IndexOutOfBoundsException("element " + i + " of a vector of " + dimension);
        }
        int byteInRow = bytesPerRow - 1 - i / 8;
        int mask = 1 << (i % 8);
        int planeSize = rows * bytesPerRow;
        int base = row * bytesPerRow + byteInRow;
        long w = 0;
        for (int k = 0; k < bits; k++) {
            if ((planes[k * planeSize + base] & mask) != 0) {
                w |= 1L << (bits - 1 - k);
            }
        }
        return w;
    }

    /** All elements' raw bits of one row. */
    private long[] rowBits(int row) {
        checkRow(row);
        long[] w = new long[bytesPerRow * 8];
        int planeSize = rows * bytesPerRow;
        for (int k = 0; k < bits; k++) {
            long m = 1L << (bits - 1 - k);
            int p = k * planeSize + row * bytesPerRow;
            for (int b = 0; b < bytesPerRow; b++) {
                int v = planes[p + b] & 0xFF;
                if (v == 0) {
                    continue;
                }
                int base = 8 * (bytesPerRow - 1 - b);
                for (int i = 0; i < 8; i++) {
                    if ((v & (1 << i)) != 0) {
                        w[base + i] |= m;
                    }
                }
            }
        }
        return w;
    }

    private float toFloat(long w) {
        return bits == 16 ? Float.intBitsToFloat((int) (w << 16)) : Float.intBitsToFloat((int) w);
    }

    /**
     * Element {@code i} as float (Float64 elements are narrowed).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @param i   element index in the vector, in {@code [0, dimension())}
     * @return the element, exact for BFloat16 and Float32
     */
    public float getFloat(int row, int i) {
        long w = getBits(row, i);
        return bits == 64 ? (float) Double.longBitsToDouble(w) : toFloat(w);
    }

    /**
     * Element {@code i} as double (exact for every element type).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @param i   element index in the vector, in {@code [0, dimension())}
     * @return the element widened to a double
     */
    public double getDouble(int row, int i) {
        long w = getBits(row, i);
        return bits == 64 ? Double.longBitsToDouble(w) : toFloat(w);
    }

    /**
     * The row's vector as floats (Float64 elements are narrowed).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return a new array of {@link #dimension()} floats
     */
    public float[] getFloats(int row) {
        long[] w = rowBits(row);
        float[] out = new float[dimension];
        for (int i = 0; i < dimension; i++) {
            out[i] = bits == 64 ? (float) Double.longBitsToDouble(w[i]) : toFloat(w[i]);
        }
        return out;
    }

    /**
     * The row's vector as doubles (exact).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return a new array of {@link #dimension()} doubles
     */
    public double[] getDoubles(int row) {
        long[] w = rowBits(row);
        double[] out = new double[dimension];
        for (int i = 0; i < dimension; i++) {
            out[i] = bits == 64 ? Double.longBitsToDouble(w[i]) : toFloat(w[i]);
        }
        return out;
    }

    @Override
    public Object getObject(int row) {
        return bits == 64 ? getDoubles(row) : getFloats(row);
    }

    @Override
    public String getString(int row) {
        long[] w = rowBits(row);
        StringBuilder sb = new StringBuilder().append('[');
        for (int i = 0; i < dimension; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(bits == 64 ? TextFormat.formatDouble(Double.longBitsToDouble(w[i])) : TextFormat.formatFloat(toFloat(w[i])));
        }
        return sb.append(']').toString();
    }

    @Override
    public Column gather(int[] indexes) {
        checkAccessible();
        int n = indexes.length;
        byte[] out = new byte[bits * n * bytesPerRow];
        int srcPlane = rows * bytesPerRow;
        int dstPlane = n * bytesPerRow;
        for (int k = 0; k < bits; k++) {
            for (int i = 0; i < n; i++) {
                int src = indexes[i];
                if (src >= 0) {
                    System.arraycopy(planes, k * srcPlane + src * bytesPerRow, out, k * dstPlane + i * bytesPerRow,
                            bytesPerRow);
                }
            }
        }
        return new QBitColumn(type, n, out, bits, dimension);
    }

    @Override
    public Column copy() {
        checkAccessible();
        return new QBitColumn(type, rows, Arrays.copyOf(planes, bits * rows * bytesPerRow), bits, dimension);
    }
}
