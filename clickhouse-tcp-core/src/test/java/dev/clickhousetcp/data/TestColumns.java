package dev.clickhousetcp.data;

/**
 * Column views over bytes a test prepared, for tests in other packages (the column constructors are
 * package-private: in the client a column is built by its type's reader).
 */
public final class TestColumns {
    private TestColumns() {
    }

    /** An Int64 (or UInt64) column over {@code rows * 8} little-endian bytes. */
    public static Int64Column int64(DataType type, int rows, byte[] data, boolean unsigned) {
        return new Int64Column(type, rows, data, unsigned);
    }

    /** An Int32 (or UInt32) column over {@code rows * 4} little-endian bytes. */
    public static Int32Column int32(DataType type, int rows, byte[] data, boolean unsigned) {
        return new Int32Column(type, rows, data, unsigned);
    }

    /** A Float64 column over {@code rows * 8} little-endian bytes. */
    public static Float64Column float64(DataType type, int rows, byte[] data) {
        return new Float64Column(type, rows, data);
    }

    /** A String column: the values' UTF-8 bytes back to back and each row's end offset. */
    public static StringColumn string(DataType type, int rows, byte[] data, int[] offsets) {
        return new StringColumn(type, rows, data, offsets);
    }
}
