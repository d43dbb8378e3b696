package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseTypeException;
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

    /**
     * Per-family fact: the bytes of one value in the per-value binary form ({@code ISerialization::serializeBinary},
     * the RowBinary layout) when that is fixed, as in aggregate-function states and Dynamic/JSON shared data;
     * -1 for variable-width and composite families. A fixed-width family's Native column holds the same bytes
     * per row (except {@code Point}, whose Native form is its Tuple's columns).
     */
    int rowBinaryWidth() {
        return -1;
    }

    /**
     * Per-family fact: the layout of one value of this type in binary form inside an aggregate-function state
     * ({@code ISerialization::serializeBinary}, see {@link AggregateStateLayout}). Fixed-width families give
     * their {@link #rowBinaryWidth()}; String, Nullable, LowCardinality, Array, Map, Tuple and the geo
     * families override this.
     *
     * @param function the aggregate function's name, for the message of an unsupported layout
     * @throws ClickHouseTypeException when values of this family have no binary form the client reads
     */
    AggregateStateLayout rowBinaryLayout(String function) {
        int width = rowBinaryWidth();
        if (width >= 0) {
            return AggregateStateLayout.fixed(width);
        }
        throw AggregateStateLayout.unsupported("aggregate function '" + function + "' over values of type " + name);
    }

    /**
     * Per-family codec: a builder that collects this type's values in binary form and writes them in this
     * type's Native layout (see {@link RowBinaryColumns}). Fixed-width families share one builder; the others
     * override this. Call it through {@link RowBinaryColumns#builder}, which bounds the nesting depth.
     *
     * @param depth the nesting depth of this type in the value being transcoded
     * @throws ClickHouseTypeException when values of this family have no binary form the client reads
     */
    RowBinaryColumns.Builder rowBinaryBuilder(int depth) {
        int width = rowBinaryWidth();
        if (width > 0) {
            return new RowBinaryColumns.Fixed(width);
        }
        throw new ClickHouseTypeException("values of type " + name + " in binary form are not supported");
    }

    /**
     * Per-family fact for picking a Variant's variant and a value's type ({@link ValueTypes#accepts}): whether
     * {@code null} is a value of this type.
     *
     * @return {@code true} for Nullable, Nothing, Variant (and Geometry), Dynamic and LowCardinality(Nullable(T))
     */
    boolean acceptsNull() {
        return false;
    }

    /**
     * Per-family fact: whether a non-null plain Java value (not a {@link TypedValue}) is a value of this type,
     * strictly or relaxed (see {@link ValueTypes#accepts}). Composite families ask their parts through
     * {@link ValueTypes#accepts(DataType, Object, boolean, int)} at {@code depth + 1}.
     *
     * @param v      the value, never {@code null}
     * @param strict strict or relaxed acceptance
     * @param depth  the nesting depth of {@code v}
     * @return what the {@link #modifiedType()} accepts, else {@code false} unless the family says otherwise
     */
    boolean acceptsValue(Object v, boolean strict, int depth) {
        DataType modified = modifiedType();
        return modified != null && ValueTypes.accepts(modified, v, strict, depth + 1);
    }

    /**
     * Per-family fact: the type whose values this type holds when it changes only how they are stored
     * ({@code Nullable(T)}, {@code LowCardinality(T)}: T), so that it accepts what T accepts
     * ({@link #acceptsValue}, {@link #acceptsTyped}); {@code null} for the other families.
     */
    DataType modifiedType() {
        return null;
    }

    /**
     * Per-family fact: whether this type takes a {@link TypedValue}: a type of the same name (spacing ignored)
     * takes it; Nullable and LowCardinality also when their inner type does ({@link #modifiedType()}), a Variant
     * (and Geometry) when one of its variants does, a Dynamic always.
     *
     * @param tv    the typed value
     * @param depth the nesting depth of {@code tv}
     * @return whether the value inserts into this type
     */
    boolean acceptsTyped(TypedValue tv, int depth) {
        DataType modified = modifiedType();
        return ValueTypes.namesType(tv, this) || modified != null && ValueTypes.acceptsTyped(modified, tv, depth + 1);
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
