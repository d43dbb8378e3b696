package dev.clickhousetcp.types;

/**
 * Upper bounds applied to every size read from the wire before anything is allocated. A value over
 * a bound is a {@link dev.clickhousetcp.ClickHouseProtocolException} and the connection is discarded.
 *
 * @param maxRowsPerBlock   rows in one block
 * @param maxStringBytes    bytes in one string value
 * @param maxColumnBytes    bytes of one decoded column buffer
 * @param maxArrayElements  flattened elements of one Array/Map column in one block
 * @param maxColumns        columns in one block
 * @param maxFrameBytes     decompressed bytes of one compressed frame (ClickHouse writes frames of at
 *                          most 1 MiB; its own reader accepts up to 1 GiB); also bounds the frame's
 *                          compressed size, so it caps the buffers a frame header can make us allocate
 */
public record DecodeLimits(int maxRowsPerBlock, int maxStringBytes, long maxColumnBytes, int maxArrayElements,
                           int maxColumns, int maxFrameBytes) {

    /**
     * Defaults: 64 Mi rows, 256 MiB strings, 1 GiB columns, 256 Mi array elements, 10 000 columns,
     * 128 MiB frames.
     */
    public static final DecodeLimits DEFAULT = new DecodeLimits(64 << 20, 256 << 20, 1L << 30, 256 << 20, 10_000,
            128 << 20);

    /** Limits with the default frame limit (128 MiB). */
    public DecodeLimits(int maxRowsPerBlock, int maxStringBytes, long maxColumnBytes, int maxArrayElements,
                        int maxColumns) {
        this(maxRowsPerBlock, maxStringBytes, maxColumnBytes, maxArrayElements, maxColumns, 128 << 20);
    }

    /** Rejects a frame limit below 1 byte. */
    public DecodeLimits {
        if (maxFrameBytes < 1) {
            throw new IllegalArgumentException("maxFrameBytes must be positive: " + maxFrameBytes);
        }
    }
}
