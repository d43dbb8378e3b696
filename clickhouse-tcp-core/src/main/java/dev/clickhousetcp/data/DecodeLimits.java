package dev.clickhousetcp.data;

/**
 * Upper bounds applied to every size read from the wire before anything is allocated. A value over
 * a bound is a {@link dev.clickhousetcp.ClickHouseProtocolException} and the connection is discarded.
 *
 * <p>The bounds cap what a block may legitimately be; they are not what the client allocates up front.
 * Buffers sized from a count read off the wire (rows, string lengths, offsets, dictionary sizes,
 * discriminators, compressed frames) start small and double as the bytes actually arrive, so a
 * declared size the stream does not back costs its sender bandwidth, not the client's heap (see
 * {@code docs/reliability.md}, "Hostile input"). Type names are bounded separately, since a short
 * wire name may build many objects. Compact serializations legitimately describe many rows in few
 * bytes; the dense form they build is bounded per block by {@link #maxExpansionBytes()} (or
 * {@link #EXPANSION_PER_BYTE_RECEIVED} bytes per byte received), charged before it is allocated.
 *
 * <p>Immutable and thread-safe.
 *
 * @param maxRowsPerBlock   rows in one block
 * @param maxStringBytes    bytes in one string value
 * @param maxColumnBytes    bytes of one decoded column buffer
 * @param maxArrayElements  flattened elements of one Array/Map column in one block
 * @param maxColumns        columns in one block
 * @param maxFrameBytes     decompressed bytes of one compressed frame (ClickHouse writes frames of at
 *                          most 1 MiB; its own reader accepts up to 1 GiB); also bounds the frame's
 *                          compressed size, so it caps the buffers a frame header can make us allocate
 * @param maxTypeNameBytes  UTF-8 bytes of one type name read off the wire (a column's type in a block
 *                          header, a Dynamic column's variant types); checked on the length prefix,
 *                          before the name's bytes are read
 * @param maxTypeDepth      nesting depth of a type name ({@code Array(Array(UInt8))} is 3 deep)
 * @param maxTypeElements   parameters in one type name, counted over all its nodes (a
 *                          {@code Tuple(UInt8, UInt8)} has 2, {@code Map(String, Array(UInt8))} 3,
 *                          an {@code Enum8} one per value); checked while parsing, so a name over the
 *                          limit fails before its elements are built
 * @param maxExpansionBytes bytes of dense form that compact serializations may build in one block,
 *                          beyond what they were sent: a sparse column (ClickHouse
 *                          {@code SerializationSparse}: the positions of its non-default values, then
 *                          those values), a replicated column ({@code SerializationReplicated}: indexes
 *                          into a smaller column), compact Variant and Dynamic discriminators
 *                          ({@code SerializationVariant}, compact mode: one discriminator for a granule
 *                          of rows). The dense form (row indexes, copied values, null maps, offsets) is
 *                          charged before it is allocated; a block may build up to this many bytes, or
 *                          {@link #EXPANSION_PER_BYTE_RECEIVED} times the bytes received for the block
 *                          when that is more. Over it, the block is a
 *                          {@link dev.clickhousetcp.ClickHouseProtocolException} naming this limit.
 *                          The same allowance bounds the objects the row tiers build per block
 *                          ({@code Object[]} rows, mapped objects: {@link ReadContext#ROW_OBJECT_BYTES}
 *                          per row and per value of a zero-width column such as {@code Tuple()}),
 *                          checked before they are built, per block ({@link Block#checkRowObjects()})
 *                          and, for the tiers that keep a whole result ({@code queryRows}, mapped
 *                          lists), over all its blocks ({@link RowObjectAccount}): rows of at least
 *                          one byte each are always within it
 */
public record DecodeLimits(int maxRowsPerBlock, int maxStringBytes, long maxColumnBytes, int maxArrayElements,
                           int maxColumns, int maxFrameBytes, int maxTypeNameBytes, int maxTypeDepth,
                           int maxTypeElements, long maxExpansionBytes) {

    /** Default type-name length limit: 1 MiB (an {@code Enum16} of all 65,536 values with 10-byte names fits). */
    public static final int DEFAULT_MAX_TYPE_NAME_BYTES = 1 << 20;
    /** Default type nesting depth limit: 64. */
    public static final int DEFAULT_MAX_TYPE_DEPTH = 64;
    /** Default limit on the parameters of one type name: 131,072 (twice an {@code Enum16} of every value). */
    public static final int DEFAULT_MAX_TYPE_ELEMENTS = 1 << 17;
    /**
     * Default expansion limit: 256 MiB of dense form per block (a block of 1,000,000 rows holds about
     * 21 sparse {@code UInt64} columns of nothing but defaults: 12 bytes per row each, 8 for the value
     * and 4 for its row index).
     */
    public static final long DEFAULT_MAX_EXPANSION_BYTES = 256L << 20;
    /**
     * Bytes of dense form a block may build per byte received for it, when that allows more than
     * {@link #maxExpansionBytes()}: 32, so that blocks of mostly-default sparse columns that do carry
     * values (ClickHouse serializes a column sparse from 93.75% defaults on, by default) are bounded by
     * their size rather than by the fixed limit.
     */
    public static final int EXPANSION_PER_BYTE_RECEIVED = 32;

    /**
     * Defaults: 64 Mi rows, 256 MiB strings, 1 GiB columns, 256 Mi array elements, 10 000 columns,
     * 128 MiB frames, 1 MiB type names nested at most 64 deep with at most 131,072 parameters,
     * 256 MiB of expansion per block.
     */
    public static final DecodeLimits DEFAULT = new DecodeLimits(64 << 20, 256 << 20, 1L << 30, 256 << 20, 10_000,
            128 << 20);

    /**
     * Limits with the default expansion limit ({@link #DEFAULT_MAX_EXPANSION_BYTES}).
     *
     * @param maxRowsPerBlock   rows in one block
     * @param maxStringBytes    bytes in one string value
     * @param maxColumnBytes    bytes of one decoded column buffer
     * @param maxArrayElements  flattened elements of one Array/Map column in one block
     * @param maxColumns        columns in one block
     * @param maxFrameBytes     decompressed (and compressed) bytes of one compressed frame, at least 1
     * @param maxTypeNameBytes  UTF-8 bytes of one type name read off the wire, at least 1
     * @param maxTypeDepth      nesting depth of a type name, at least 1
     * @param maxTypeElements   parameters in one type name over all its nodes, at least 1
     * @throws IllegalArgumentException when a frame or type-name limit is below 1
     */
    public DecodeLimits(int maxRowsPerBlock, int maxStringBytes, long maxColumnBytes, int maxArrayElements,
                        int maxColumns, int maxFrameBytes, int maxTypeNameBytes, int maxTypeDepth,
                        int maxTypeElements) {
        this(maxRowsPerBlock, maxStringBytes, maxColumnBytes, maxArrayElements, maxColumns, maxFrameBytes,
                maxTypeNameBytes, maxTypeDepth, maxTypeElements, DEFAULT_MAX_EXPANSION_BYTES);
    }

    /**
     * Limits with the default type-name limits ({@link #DEFAULT_MAX_TYPE_NAME_BYTES},
     * {@link #DEFAULT_MAX_TYPE_DEPTH}, {@link #DEFAULT_MAX_TYPE_ELEMENTS}) and expansion limit.
     *
     * @param maxRowsPerBlock   rows in one block
     * @param maxStringBytes    bytes in one string value
     * @param maxColumnBytes    bytes of one decoded column buffer
     * @param maxArrayElements  flattened elements of one Array/Map column in one block
     * @param maxColumns        columns in one block
     * @param maxFrameBytes     decompressed (and compressed) bytes of one compressed frame, at least 1
     * @throws IllegalArgumentException when {@code maxFrameBytes} is below 1
     */
    public DecodeLimits(int maxRowsPerBlock, int maxStringBytes, long maxColumnBytes, int maxArrayElements,
                        int maxColumns, int maxFrameBytes) {
        this(maxRowsPerBlock, maxStringBytes, maxColumnBytes, maxArrayElements, maxColumns, maxFrameBytes,
                DEFAULT_MAX_TYPE_NAME_BYTES, DEFAULT_MAX_TYPE_DEPTH, DEFAULT_MAX_TYPE_ELEMENTS);
    }

    /**
     * Limits with the default frame limit (128 MiB), the default type-name limits and expansion limit.
     *
     * @param maxRowsPerBlock   rows in one block
     * @param maxStringBytes    bytes in one string value
     * @param maxColumnBytes    bytes of one decoded column buffer
     * @param maxArrayElements  flattened elements of one Array/Map column in one block
     * @param maxColumns        columns in one block
     */
    public DecodeLimits(int maxRowsPerBlock, int maxStringBytes, long maxColumnBytes, int maxArrayElements,
                        int maxColumns) {
        this(maxRowsPerBlock, maxStringBytes, maxColumnBytes, maxArrayElements, maxColumns, 128 << 20);
    }

    /**
     * Rejects a frame limit or a type-name limit below 1, and a negative expansion limit.
     *
     * @param maxRowsPerBlock   rows in one block
     * @param maxStringBytes    bytes in one string value
     * @param maxColumnBytes    bytes of one decoded column buffer
     * @param maxArrayElements  flattened elements of one Array/Map column in one block
     * @param maxColumns        columns in one block
     * @param maxFrameBytes     decompressed (and compressed) bytes of one compressed frame, at least 1
     * @param maxTypeNameBytes  UTF-8 bytes of one type name read off the wire, at least 1
     * @param maxTypeDepth      nesting depth of a type name, at least 1
     * @param maxTypeElements   parameters in one type name over all its nodes, at least 1
     * @param maxExpansionBytes bytes of dense form compact serializations may build per block, at least 0
     * @throws IllegalArgumentException when {@code maxFrameBytes}, {@code maxTypeNameBytes},
     *                                  {@code maxTypeDepth} or {@code maxTypeElements} is below 1, or
     *                                  {@code maxExpansionBytes} is negative
     */
    public DecodeLimits {
        if (maxFrameBytes < 1) {
            throw new IllegalArgumentException("maxFrameBytes must be positive: " + maxFrameBytes);
        }
        if (maxTypeNameBytes < 1 || maxTypeDepth < 1 || maxTypeElements < 1) {
            throw new IllegalArgumentException("type-name limits must be positive: " + maxTypeNameBytes + " bytes, "
                    + maxTypeDepth + " deep, " + maxTypeElements + " elements");
        }
        if (maxExpansionBytes < 0) {
            throw new IllegalArgumentException("maxExpansionBytes must not be negative: " + maxExpansionBytes);
        }
    }

    /**
     * These limits with other type-name limits.
     *
     * @param maxTypeNameBytes UTF-8 bytes of one type name read off the wire, at least 1
     * @param maxTypeDepth     nesting depth of a type name, at least 1
     * @param maxTypeElements  parameters in one type name over all its nodes, at least 1
     * @return a copy of these limits with the three type-name bounds replaced
     * @throws IllegalArgumentException when one of them is below 1
     */
    public DecodeLimits withTypeNameLimits(int maxTypeNameBytes, int maxTypeDepth, int maxTypeElements) {
        return new DecodeLimits(maxRowsPerBlock, maxStringBytes, maxColumnBytes, maxArrayElements, maxColumns,
                maxFrameBytes, maxTypeNameBytes, maxTypeDepth, maxTypeElements, maxExpansionBytes);
    }

    /**
     * These limits with another expansion limit (bytes of dense form per block, see
     * {@link #maxExpansionBytes()}).
     *
     * @param maxExpansionBytes bytes of dense form compact serializations may build per block, at least 0
     * @return a copy of these limits with the expansion bound replaced
     * @throws IllegalArgumentException when {@code maxExpansionBytes} is negative
     */
    public DecodeLimits withMaxExpansionBytes(long maxExpansionBytes) {
        return new DecodeLimits(maxRowsPerBlock, maxStringBytes, maxColumnBytes, maxArrayElements, maxColumns,
                maxFrameBytes, maxTypeNameBytes, maxTypeDepth, maxTypeElements, maxExpansionBytes);
    }
}
