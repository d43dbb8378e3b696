package dev.clickhousetcp.data;

/**
 * Enum8 / Enum16 column: Int8 or Int16 values. {@link #getObject} and {@link #getString} return the
 * element name; {@link #getLong} the numeric value.
 */
public final class EnumColumn extends FixedWidthColumn {
    private final EnumType enumType;

    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type the Enum8 or Enum16 type, which gives the value width (1 or 2 bytes) and the element names
     * @param rows number of rows
     * @param data the little-endian Int8 or Int16 values, at least {@code rows * type.width()} bytes
     */
    EnumColumn(EnumType type, int rows, byte[] data) {
        super(type, rows, data, type.width());
        this.enumType = type;
    }

    @Override
    public long getLong(int row) {
        checkRow(row);
        return width == 1 ? data[row] : (short) SHORT.get(data, row * 2);
    }

    @Override
    public Object getObject(int row) {
        return getString(row);
    }

    /**
     * The value as a constant of a Java enum whose constant names equal the element names.
     *
     * @param <E>  the Java enum type
     * @param row  0-based row index, in {@code [0, size())}
     * @param type the Java enum class whose constant is looked up by the element name (case-sensitive)
     * @return the constant named like the row's element
     * @throws IllegalArgumentException when {@code type} has no constant of that name
     */
    public <E extends Enum<E>> E getEnum(int row, Class<E> type) {
        return Enum.valueOf(type, getString(row));
    }

    @Override
    public String getString(int row) {
        return enumType.nameOf((int) getLong(row));
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new EnumColumn(enumType, r, d);
    }

    /**
     * Bulk copy of the numeric values of all rows into {@code dst} (as {@link #getLong} gives them: Enum8
     * and Enum16 values sign-extended). No boxing, one pass.
     *
     * @param dst       destination; needs room for {@code size()} values from {@code dstOffset}
     * @param dstOffset index in {@code dst} that receives row 0
     * @throws IllegalStateException     if the owning block has been released
     * @throws IndexOutOfBoundsException if {@code dst} has no room for {@code size()} values from {@code dstOffset}
     */
    public void copyTo(long[] dst, int dstOffset) {
        widenTo(dst, dstOffset, false);
    }

    @Override
    boolean quotedWhenNested() {
        return true;
    }
}
