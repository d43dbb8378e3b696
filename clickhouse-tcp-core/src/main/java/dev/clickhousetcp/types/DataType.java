package dev.clickhousetcp.types;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;

/**
 * A ClickHouse data type with its native (wire) serialization: how a column of it is read from and
 * written to a Block, per ClickHouse {@code src/DataTypes/Serializations/}. Instances are immutable
 * and thread-safe; obtain them from {@link DataTypes#parse}.
 */
public abstract class DataType {
    protected final String name;

    protected DataType(String name) {
        this.name = name;
    }

    /** The type name as ClickHouse spells it, e.g. {@code Array(Nullable(String))}. */
    public final String name() {
        return name;
    }

    /** Whether NULL is a value of this type (Nullable, LowCardinality(Nullable), Nothing). */
    public boolean isNullable() {
        return false;
    }

    /** Reads this type's per-column state prefix (only stateful types such as LowCardinality have one). */
    public void readPrefix(BinaryReader in) throws IOException {
    }

    /** Writes this type's per-column state prefix. */
    public void writePrefix(BinaryWriter out) throws IOException {
    }

    /** Reads {@code rows} values (after the prefix). */
    public abstract Column read(BinaryReader in, int rows, ReadContext ctx) throws IOException;

    /** A new, empty writer that collects values of this type for an insert block. */
    public abstract ColumnWriter newWriter();

    /**
     * Reads {@code rows * width} bytes straight from the socket buffer into a (pooled) column array:
     * the one copy a fixed-width column's data makes. The array grows as the bytes arrive (see
     * {@link BinaryReader#readDeclared}): a row count the stream does not back never commits memory.
     *
     * @throws ClickHouseProtocolException when {@code rows * width} exceeds {@link DecodeLimits#maxColumnBytes()}
     */
    protected static byte[] readFixed(BinaryReader in, int rows, int width, ReadContext ctx, String what)
            throws IOException {
        long bytes = (long) rows * width;
        if (bytes > ctx.limits().maxColumnBytes() || bytes > Integer.MAX_VALUE - 16) {
            throw new ClickHouseProtocolException(what + " column of " + rows + " rows exceeds "
                    + ctx.limits().maxColumnBytes() + " bytes");
        }
        return in.readDeclared((int) bytes, ctx);
    }

    @Override
    public String toString() {
        return name;
    }
}
