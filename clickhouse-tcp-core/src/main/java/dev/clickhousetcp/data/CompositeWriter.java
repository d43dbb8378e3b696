package dev.clickhousetcp.data;

import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;

/**
 * Writer base of the composite families (Array, Map, Nullable, Tuple, Variant): the nested writers hold the
 * values; the data is this writer's own stream (offsets, null map, discriminators; none for a Tuple) followed by
 * each nested writer's data, and the prefix is the nested writers' prefixes in order. Not thread-safe.
 */
abstract class CompositeWriter implements ColumnWriter {
    private final DataType type;
    /** The nested writers, in the order of their columns. */
    final ColumnWriter[] children;
    /** Rows appended. */
    int count;

    CompositeWriter(DataType type, ColumnWriter... children) {
        this.type = type;
        this.children = children;
    }

    /** A new writer of each of {@code types}, in order. */
    static ColumnWriter[] newWriters(DataType[] types) {
        ColumnWriter[] out = new ColumnWriter[types.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = types[i].newWriter();
        }
        return out;
    }

    /** Writes this writer's own stream, before the nested writers' data. */
    abstract void writeOwnData(BinaryWriter out) throws IOException;

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public int size() {
        return count;
    }

    @Override
    public void writePrefix(BinaryWriter out) throws IOException {
        for (ColumnWriter w : children) {
            w.writePrefix(out);
        }
    }

    @Override
    public final void writeData(BinaryWriter out) throws IOException {
        writeOwnData(out);
        for (ColumnWriter w : children) {
            w.writeData(out);
        }
    }

    @Override
    public void reset() {
        count = 0;
        for (ColumnWriter w : children) {
            w.reset();
        }
    }
}
