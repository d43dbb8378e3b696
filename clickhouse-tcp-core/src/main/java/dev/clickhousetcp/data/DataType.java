package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
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
     * Reads this type's per-column state prefix, which precedes the column's data in a Block (only some
     * families write one: LowCardinality, Variant, Dynamic, JSON, and the composites holding them), per
     * ClickHouse {@code ISerialization::deserializeBinaryBulkStatePrefix}. Reads nothing by default.
     *
     * @param in the reader positioned at the start of the column's serialized state
     * @return what the prefix says about the column's data, to pass to
     *         {@link #read(BinaryReader, int, ReadContext, DeserializationState)} for the same column;
     *         {@link DeserializationState#NONE} by default
     * @throws IOException                 when the stream fails or ends early
     * @throws ClickHouseProtocolException when the prefix is malformed (an unknown serialization version,
     *                                     a count over a limit, a type name that does not parse)
     */
    public DeserializationState readPrefix(BinaryReader in) throws IOException {
        return DeserializationState.NONE;
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
     * Reads {@code rows} values of this type, after the prefix whose state {@link #readPrefix} returned,
     * per ClickHouse {@code ISerialization::deserializeBinaryBulkWithMultipleStreams}.
     *
     * @param in    the reader positioned at the column's data
     * @param rows  the number of values: the block's row count, or the element count for a column nested in
     *              an Array or Map; at least 0
     * @param ctx   the limits, zone, revision and buffer source of the block being decoded
     * @param state what {@link #readPrefix} of this type returned for this column, or
     *              {@link DeserializationState#NONE} when no prefix was read (a block of zero rows)
     * @return a column of exactly {@code rows} rows; its arrays may be pooled and then live only as long as
     *         the block's lifetime (see {@link ReadContext#attachTo})
     * @throws IOException                 when the stream fails or ends early
     * @throws ClickHouseProtocolException when a size read off the wire is over a {@link DecodeLimits} bound,
     *                                     the data is malformed, or a stateful type is given
     *                                     {@link DeserializationState#NONE} for one or more rows
     * @throws IllegalArgumentException    when {@code state} was read by a type of another shape
     */
    public abstract Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state)
            throws IOException;

    /**
     * Reads {@code rows} values of a column that has no prefix state: the same as
     * {@link #read(BinaryReader, int, ReadContext, DeserializationState)} with
     * {@link DeserializationState#NONE}. A column whose type reads a state from its prefix (Variant,
     * Dynamic, JSON, or a composite holding one) must be read with that state instead.
     *
     * @param in   the reader positioned at the column's data
     * @param rows the number of values, at least 0
     * @param ctx  the limits, zone, revision and buffer source of the block being decoded
     * @return a column of exactly {@code rows} rows, as the four-argument form returns it
     * @throws IOException                 when the stream fails or ends early
     * @throws ClickHouseProtocolException when the data is malformed or over a limit, or when this type needs
     *                                     its prefix state for one or more rows
     * @deprecated the prefix state is an argument now: use
     *             {@link #read(BinaryReader, int, ReadContext, DeserializationState)} with what
     *             {@link #readPrefix} returned
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public Column read(BinaryReader in, int rows, ReadContext ctx) throws IOException {
        return read(in, rows, ctx, DeserializationState.NONE);
    }

    /**
     * A new, empty writer that collects values of this type for an insert block.
     *
     * @return a new writer for this type; not thread-safe
     */
    public abstract ColumnWriter newWriter();

    /**
     * Reads {@code rows * width} bytes straight from the socket buffer into a (pooled) column array:
     * the one copy a fixed-width column's data makes. The array grows as the bytes arrive (see
     * {@link ReadContext#readDeclared}): a row count the stream does not back never commits memory.
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
        return ctx.readDeclared(in, (int) bytes);
    }

    /** The exception for a state that {@code owner}'s prefix cannot have produced: a caller's mistake. */
    static IllegalArgumentException foreignState(DataType owner, DeserializationState state) {
        return new IllegalArgumentException("a deserialization state of another type ("
                + state.getClass().getSimpleName() + ") passed to " + owner.name() + ".read");
    }

    /**
     * {@code state} as the state class of {@code owner}'s family, or {@code null} for
     * {@link DeserializationState#NONE}; any other state is a caller's mistake.
     */
    static <S extends DeserializationState> S ownState(DataType owner, DeserializationState state, Class<S> type) {
        if (state == DeserializationState.NONE) {
            return null;
        }
        if (type.isInstance(state)) {
            return type.cast(state);
        }
        throw foreignState(owner, state);
    }

    @Override
    public String toString() {
        return name;
    }
}
