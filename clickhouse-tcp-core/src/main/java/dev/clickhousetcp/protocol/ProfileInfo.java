package dev.clickhousetcp.protocol;

import dev.clickhousetcp.io.BinaryReader;

import java.io.IOException;

/**
 * The ProfileInfo packet, per ClickHouse {@code src/QueryPipeline/ProfileInfo.cpp}.
 *
 * @param rows                   rows in the result
 * @param blocks                 blocks in the result
 * @param bytes                  uncompressed bytes of the result
 * @param appliedLimit           whether a LIMIT was applied
 * @param rowsBeforeLimit        rows before LIMIT
 * @param calculatedRowsBeforeLimit obsolete flag the server always sets
 * @param appliedAggregation     whether GROUP BY was applied (54469+)
 * @param rowsBeforeAggregation  rows before aggregation (54469+)
 */
public record ProfileInfo(long rows, long blocks, long bytes, boolean appliedLimit, long rowsBeforeLimit,
                          boolean calculatedRowsBeforeLimit, boolean appliedAggregation, long rowsBeforeAggregation) {

    /**
     * Reads a ProfileInfo packet body (after the packet type).
     *
     * @param in       the connection's reader, positioned after the packet type
     * @param revision the negotiated revision; below 54469 the aggregation fields are {@code false} and 0
     * @return the decoded statistics
     * @throws IOException when reading fails or the stream ends
     */
    public static ProfileInfo read(BinaryReader in, long revision) throws IOException {
        long rows = in.readVarUInt();
        long blocks = in.readVarUInt();
        long bytes = in.readVarUInt();
        boolean appliedLimit = in.readBoolean();
        long rowsBeforeLimit = in.readVarUInt();
        boolean calculated = in.readBoolean();
        boolean appliedAgg = false;
        long rowsBeforeAgg = 0;
        if (ProtocolFeature.ROWS_BEFORE_AGGREGATION.in(revision)) {
            appliedAgg = in.readBoolean();
            rowsBeforeAgg = in.readVarUInt();
        }
        return new ProfileInfo(rows, blocks, bytes, appliedLimit, rowsBeforeLimit, calculated, appliedAgg, rowsBeforeAgg);
    }
}
