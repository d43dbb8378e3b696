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
 */
public record DecodeLimits(int maxRowsPerBlock, int maxStringBytes, long maxColumnBytes, int maxArrayElements,
                           int maxColumns) {

    /** Defaults: 64 Mi rows, 256 MiB strings, 1 GiB columns, 256 Mi array elements, 10 000 columns. */
    public static final DecodeLimits DEFAULT = new DecodeLimits(64 << 20, 256 << 20, 1L << 30, 256 << 20, 10_000);
}
