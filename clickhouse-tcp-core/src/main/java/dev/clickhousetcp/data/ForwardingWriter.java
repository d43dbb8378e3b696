package dev.clickhousetcp.data;

import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;

/**
 * A writer of one type whose values another writer collects and writes: the writer of the type's structure
 * (a geo family's Tuple or Array) or of its text form (JSON sent as strings). Every call goes to that writer;
 * only {@link #type()} is this writer's own. Subclasses override what differs (a JSON value is checked text).
 * Not thread-safe.
 */
class ForwardingWriter implements ColumnWriter {
    private final DataType type;
    /** The writer that holds the values. */
    final ColumnWriter delegate;

    ForwardingWriter(DataType type, ColumnWriter delegate) {
        this.type = type;
        this.delegate = delegate;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public void append(Object value) {
        delegate.append(value);
    }

    @Override
    public void appendDefault() {
        delegate.appendDefault();
    }

    @Override
    public int size() {
        return delegate.size();
    }

    @Override
    public void writePrefix(BinaryWriter out) throws IOException {
        delegate.writePrefix(out);
    }

    @Override
    public void writeData(BinaryWriter out) throws IOException {
        delegate.writeData(out);
    }

    @Override
    public void reset() {
        delegate.reset();
    }
}
