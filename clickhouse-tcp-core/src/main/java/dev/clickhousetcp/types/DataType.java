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
    /** The type name as ClickHouse spells it (see {@link #name()}). */
    protected final String name;

    /**
     * A type named {@code name}.
     *
     * @param name the type name as ClickHouse spells it, e.g. {@code Nullable(String)}; returned by {@link #name()}
     */
    protected DataType(String name) {
        this.name = name;
    }

    /**
     * The type name as ClickHouse spells it, e.g. {@code Array(Nullable(String))}.
     *
     * @return the type name, never {@code null}
     */
    public final String name() {
        return name;
    }

    /**
     * Whether NULL is a value of this type (Nullable, LowCardinality(Nullable), Nothing).
     *
     * @return {@code true} when a column of this type may hold NULL rows; {@code false} by default
     */
    public boolean isNullable() {
        return false;
    }

    /**
     * Reads this type's per-column state prefix (only stateful types such as LowCardinality have one),
     * which precedes the column's data in a Block. Does nothing by default.
     *
     * @param in the reader positioned at the start of the column's serialized state
     * @throws IOException when the stream fails or ends early
     */
    public void readPrefix(BinaryReader in) throws IOException {
    }

    /**
     * Writes this type's per-column state prefix, before the column's data in an insert Block. Writes
     * nothing by default.
     *
     * @param out the writer of the block being sent
     * @throws IOException when writing fails
     */
    public void writePrefix(BinaryWriter out) throws IOException {
    }

    /**
     * Reads {@code rows} values of this type (after the prefix read by {@link #readPrefix}).
     *
     * @param in   the reader positioned at the column's data
     * @param rows the number of values: the block's row count, or the element count for a column nested in
     *             an Array or Map; at least 0
     * @param ctx  the limits, zone, revision and buffer source of the block being decoded
     * @return a column of exactly {@code rows} rows; its arrays may be pooled and then live only as long as
     *         the block's lifetime (see {@link ReadContext#attachTo})
     * @throws IOException                 when the stream fails or ends early
     * @throws ClickHouseProtocolException when a size read off the wire is over a {@link DecodeLimits} bound
     *                                     or the data is malformed
     */
    public abstract Column read(BinaryReader in, int rows, ReadContext ctx) throws IOException;

    /**
     * A new, empty writer that collects values of this type for an insert block.
     *
     * @return a new writer for this type; not thread-safe
     */
    public abstract ColumnWriter newWriter();

    /**
     * Reads {@code rows * width} bytes straight from the socket buffer into a (pooled) column array:
     * the one copy a fixed-width column's data makes. The array grows as the bytes arrive (see
     * {@link BinaryReader#readDeclared}): a row count the stream does not back never commits memory.
     *
     * @param in    the reader positioned at the column's data
     * @param rows  the number of values
     * @param width the bytes per value (e.g. 8 for {@code UInt64})
     * @param ctx   the context supplying the limits and the (pooled) array
     * @param what  what is being read (a type name), for the exception message
     * @return an array holding the {@code rows * width} bytes from index 0; it may be longer than that
     * @throws ClickHouseProtocolException when {@code rows * width} exceeds {@link DecodeLimits#maxColumnBytes()}
     * @throws IOException                 when the stream fails or ends before all bytes arrive
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
