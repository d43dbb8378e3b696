package dev.clickhousetcp.data;

import dev.clickhousetcp.io.BinaryReader;

import java.io.IOException;

/**
 * Base of the fixed-width families whose Native column is {@code rows * width} bytes, read in one copy
 * ({@link DataType#readFixed}), and whose binary form holds the same bytes per value
 * ({@link #rowBinaryWidth()}): the width is stated once, here.
 */
abstract class FixedWidthType extends DataType {
    /** Makes a family's column over the bytes read. */
    @FunctionalInterface
    interface ColumnFactory {
        Column create(DataType type, int rows, byte[] data);
    }

    private final int width;
    private final ColumnFactory columns;

    /**
     * @param name    the type name as ClickHouse spells it
     * @param width   the bytes per value
     * @param columns makes the column over the bytes read
     */
    FixedWidthType(String name, int width, ColumnFactory columns) {
        super(name);
        this.width = width;
        this.columns = columns;
    }

    @Override
    public final Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        return columns.create(this, rows, readFixed(in, rows, width, ctx, name));
    }

    @Override
    final int rowBinaryWidth() {
        return width;
    }
}
