package dev.clickhousetcp.data;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.ZoneOffset;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The bulk copies of fixed-width columns ({@code copyTo(long[])} on the integer, Enum and Bool columns,
 * {@code copyTo(double[])} on Float32) give, row by row, what the per-row accessors give, at every lane width
 * and signedness, from any destination offset; and they fail on a released column.
 */
class BulkCopyTest {
    private static final int ROWS = 1000;

    @Test
    void integerColumnsWidenLikeGetLong() {
        String[] types = {"Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64"};
        for (String name : types) {
            DataType t = DataTypes.parse(name, ZoneOffset.UTC);
            int width = ((NumberType) t).width();
            byte[] data = randomBytes(ROWS * width, name.hashCode());
            boolean unsigned = name.startsWith("U");
            IntegerColumn c = switch (width) {
                case 1 -> new Int8Column(t, ROWS, data, unsigned);
                case 2 -> new Int16Column(t, ROWS, data, unsigned);
                case 4 -> new Int32Column(t, ROWS, data, unsigned);
                default -> new Int64Column(t, ROWS, data, unsigned);
            };
            long[] out = new long[ROWS + 3];
            c.copyTo(out, 3);
            for (int i = 0; i < ROWS; i++) {
                assertThat(out[3 + i]).as("%s row %d", name, i).isEqualTo(c.getLong(i));
            }
        }
    }

    /** A UInt64 lane copied out in bulk turns back into the exact value {@code getObject} gives. */
    @Test
    void copiedUInt64BitsGiveTheExactValueOfGetObject() {
        DataType t = DataTypes.parse("UInt64", ZoneOffset.UTC);
        byte[] data = randomBytes(ROWS * 8, 64);
        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).putLong(0, -1L).putLong(8, Long.MIN_VALUE)
                .putLong(16, Long.MAX_VALUE).putLong(24, 0L);
        Int64Column c = new Int64Column(t, ROWS, data, true);
        long[] out = new long[ROWS];
        c.copyTo(out, 0);
        for (int i = 0; i < ROWS; i++) {
            assertThat(Int64Column.unsignedValue(out[i])).as("row %d", i).isEqualTo(c.getObject(i))
                    .isEqualTo(new java.math.BigInteger(Long.toUnsignedString(out[i])));
        }
        assertThat(Int64Column.unsignedValue(-1L)).isEqualTo(java.math.BigInteger.TWO.pow(64).subtract(java.math.BigInteger.ONE));
    }

    @Test
    void enumColumnsCopyTheirNumbers() {
        DataType e8 = DataTypes.parse("Enum8('a' = -128, 'b' = 0, 'c' = 127)", ZoneOffset.UTC);
        byte[] d8 = {(byte) -128, 0, 127, 0};
        EnumColumn c8 = new EnumColumn((EnumType) e8, 4, d8);
        long[] out = new long[4];
        c8.copyTo(out, 0);
        assertThat(out).containsExactly(-128, 0, 127, 0);

        DataType e16 = DataTypes.parse("Enum16('a' = -32768, 'b' = 1000)", ZoneOffset.UTC);
        byte[] d16 = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putShort((short) -32768).putShort((short) 1000)
                .array();
        EnumColumn c16 = new EnumColumn((EnumType) e16, 2, d16);
        long[] out16 = new long[2];
        c16.copyTo(out16, 0);
        assertThat(out16).containsExactly(c16.getLong(0), c16.getLong(1)).containsExactly(-32768, 1000);
    }

    @Test
    void boolColumnsCopyZeroOrOne() {
        DataType t = DataTypes.parse("Bool", ZoneOffset.UTC);
        BoolColumn c = new BoolColumn(t, 4, new byte[] {0, 1, 2, (byte) 255});
        long[] out = new long[5];
        c.copyTo(out, 1);
        assertThat(out).containsExactly(0, 0, 1, 1, 1);
    }

    @Test
    void float32ColumnsWidenToDouble() {
        DataType t = DataTypes.parse("Float32", ZoneOffset.UTC);
        ByteBuffer b = ByteBuffer.allocate(6 * 4).order(ByteOrder.LITTLE_ENDIAN);
        float[] values = {0.1f, -0.0f, Float.NaN, Float.MAX_VALUE, Float.MIN_VALUE, Float.NEGATIVE_INFINITY};
        for (float f : values) {
            b.putFloat(f);
        }
        Float32Column c = new Float32Column(t, values.length, b.array());
        double[] out = new double[values.length];
        c.copyTo(out, 0);
        for (int i = 0; i < values.length; i++) {
            assertThat(Double.doubleToRawLongBits(out[i])).isEqualTo(Double.doubleToRawLongBits(values[i]));
        }
    }

    @Test
    void aCopyWithoutRoomFails() {
        DataType t = DataTypes.parse("Int16", ZoneOffset.UTC);
        Int16Column c = new Int16Column(t, 4, new byte[8], false);
        assertThatThrownBy(() -> c.copyTo(new long[3], 0)).isInstanceOf(IndexOutOfBoundsException.class);
        Float32Column f = new Float32Column(DataTypes.parse("Float32", ZoneOffset.UTC), 2, new byte[8]);
        assertThatThrownBy(() -> f.copyTo(new double[2], 1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aReleasedColumnFails() {
        Lifetime lifetime = new Lifetime("test block");
        Int32Column c = new Int32Column(DataTypes.parse("Int32", ZoneOffset.UTC), 2, new byte[8], false);
        c.bind(lifetime);
        lifetime.release();
        assertThatThrownBy(() -> c.copyTo(new long[2], 0)).isInstanceOf(IllegalStateException.class);
    }

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }
}
