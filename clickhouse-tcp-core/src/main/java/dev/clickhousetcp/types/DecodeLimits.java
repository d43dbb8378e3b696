package dev.clickhousetcp.types;

/**
 * Upper bounds applied to every size read from the wire before anything is allocated. A value over
 * a bound is a {@link dev.clickhousetcp.ClickHouseProtocolException} and the connection is discarded.
 *
 * <p>The bounds cap what a block may legitimately be; they are not what the client allocates up front.
 * Buffers sized from a count read off the wire (rows, string lengths, offsets, dictionary sizes,
 * discriminators, compressed frames) start small and double as the bytes actually arrive, so a
 * declared size the stream does not back costs its sender bandwidth, not the client's heap (see
 * {@code docs/reliability.md}, "Hostile input"). Type names are bounded separately, since a short
 * wire name may build many objects.
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
 */
public record DecodeLimits(int maxRowsPerBlock, int maxStringBytes, long maxColumnBytes, int maxArrayElements,
                           int maxColumns, int maxFrameBytes, int maxTypeNameBytes, int maxTypeDepth,
                           int maxTypeElements) {

    /** Default type-name length limit: 1 MiB (an {@code Enum16} of all 65,536 values with 10-byte names fits). */
    public static final int DEFAULT_MAX_TYPE_NAME_BYTES = 1 << 20;
    /** Default type nesting depth limit: 64. */
    public static final int DEFAULT_MAX_TYPE_DEPTH = 64;
    /** Default limit on the parameters of one type name: 131,072 (twice an {@code Enum16} of every value). */
    public static final int DEFAULT_MAX_TYPE_ELEMENTS = 1 << 17;

    /**
     * Defaults: 64 Mi rows, 256 MiB strings, 1 GiB columns, 256 Mi array elements, 10 000 columns,
     * 128 MiB frames, 1 MiB type names nested at most 64 deep with at most 131,072 parameters.
     */
    public static final DecodeLimits DEFAULT = new DecodeLimits(64 << 20, 256 << 20, 1L << 30, 256 << 20, 10_000,
            128 << 20);

    /** Limits with the default type-name limits. */
    public DecodeLimits(int maxRowsPerBlock, int maxStringBytes, long maxColumnBytes, int maxArrayElements,
                        int maxColumns, int maxFrameBytes) {
        this(maxRowsPerBlock, maxStringBytes, maxColumnBytes, maxArrayElements, maxColumns, maxFrameBytes,
                DEFAULT_MAX_TYPE_NAME_BYTES, DEFAULT_MAX_TYPE_DEPTH, DEFAULT_MAX_TYPE_ELEMENTS);
    }

    /** Limits with the default frame limit (128 MiB) and the default type-name limits. */
    public DecodeLimits(int maxRowsPerBlock, int maxStringBytes, long maxColumnBytes, int maxArrayElements,
                        int maxColumns) {
        this(maxRowsPerBlock, maxStringBytes, maxColumnBytes, maxArrayElements, maxColumns, 128 << 20);
    }

    /**
     * Rejects a frame limit or a type-name limit below 1.
     *
     * @throws IllegalArgumentException when {@code maxFrameBytes}, {@code maxTypeNameBytes},
     *                                  {@code maxTypeDepth} or {@code maxTypeElements} is below 1
     */
    public DecodeLimits {
        if (maxFrameBytes < 1) {
            throw new IllegalArgumentException("maxFrameBytes must be positive: " + maxFrameBytes);
        }
        if (maxTypeNameBytes < 1 || maxTypeDepth < 1 || maxTypeElements < 1) {
            throw new IllegalArgumentException("type-name limits must be positive: " + maxTypeNameBytes + " bytes, "
                    + maxTypeDepth + " deep, " + maxTypeElements + " elements");
        }
    }

    /** These limits with other type-name limits. */
    public DecodeLimits withTypeNameLimits(int maxTypeNameBytes, int maxTypeDepth, int maxTypeElements) {
        return new DecodeLimits(maxRowsPerBlock, maxStringBytes, maxColumnBytes, maxArrayElements, maxColumns,
                maxFrameBytes, maxTypeNameBytes, maxTypeDepth, maxTypeElements);
    }
}
