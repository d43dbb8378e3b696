package dev.clickhousetcp.data;

import dev.clickhousetcp.io.BinaryReader;

/**
 * What a column's serialization prefix says about the data that follows it: read by
 * {@link DataType#readPrefix} and handed, for the same column, to
 * {@link DataType#read(BinaryReader, int, ReadContext, DeserializationState)} of the same type, as
 * ClickHouse hands its {@code DeserializeBinaryBulkState} from {@code deserializeBinaryBulkStatePrefix}
 * to {@code deserializeBinaryBulkWithMultipleStreams} ({@code src/DataTypes/Serializations/ISerialization.h}).
 *
 * <p>Each family has its own state: a Variant its discriminators mode and its variants' states, a Dynamic
 * the types its column holds, a JSON its dynamic paths; a composite type (Array, Nullable, Map, Tuple,
 * Nested) holds its children's states; a family without prefix state uses {@link #NONE}. A state is
 * opaque outside the type that read it, belongs to one column of one block, and is immutable.
 */
public interface DeserializationState {
    /**
     * The state of a type whose prefix carries nothing for its data, and the state to read a column with
     * when no prefix precedes it (a block of zero rows). A stateful type given it for one or more rows
     * throws {@link dev.clickhousetcp.ClickHouseProtocolException} (data without its state prefix).
     */
    DeserializationState NONE = NoState.INSTANCE;
}

/** The one stateless state. */
enum NoState implements DeserializationState {
    INSTANCE
}
